#include "net/discovery/server_info.h"

#include <rapidjson/document.h>

namespace sr::net {
namespace {

using Value = rapidjson::Value;

constexpr std::size_t kMaxInfoJsonBytes = 64u << 10;
constexpr std::size_t kMaxListJsonBytes = 4u << 20;

const Value* member(const Value& object, const char* name) {
  const auto it = object.FindMember(name);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

std::string text(const Value& object, const char* name) {
  const Value* v = member(object, name);
  return v != nullptr && v->IsString() ? std::string(v->GetString(), v->GetStringLength()) : std::string();
}

// An unsigned number within `max`, else `fallback`.
std::uint64_t number(const Value& object, const char* name, std::uint64_t max, std::uint64_t fallback = 0) {
  const Value* v = member(object, name);
  return v != nullptr && v->IsUint64() && v->GetUint64() <= max ? v->GetUint64() : fallback;
}

bool flag(const Value& object, const char* name) {
  const Value* v = member(object, name);
  return v != nullptr && v->IsBool() && v->GetBool();
}

sr::Result<ServerInfo, std::string> read_info(const Value& object) {
  if (!object.IsObject()) return sr::fail(std::string("the info is not a JSON object"));
  ServerInfo info;
  const Value* name = member(object, "name");
  if (name == nullptr || !name->IsString()) return sr::fail(std::string("the info has no name"));
  info.name = text(object, "name");
  const Value* protocol = member(object, "protocol");
  if (protocol == nullptr || !protocol->IsUint()) return sr::fail(std::string("the info has no protocol version"));
  info.protocol = protocol->GetUint();
  info.port = static_cast<std::uint16_t>(number(object, "port", 65535));
  if (info.port == 0) return sr::fail(std::string("the info has no game port"));
  info.version = text(object, "version");
  info.players = static_cast<std::uint32_t>(number(object, "players", UINT32_MAX));
  info.capacity = static_cast<std::uint32_t>(number(object, "capacity", UINT32_MAX));
  info.racing = flag(object, "racing");
  info.ladder = flag(object, "ladder");
  info.web = text(object, "web");
  if (const Value* rooms = member(object, "rooms"); rooms != nullptr && rooms->IsArray()) {
    for (const Value& r : rooms->GetArray()) {
      if (!r.IsObject()) continue;
      InfoRoom room;
      room.name = text(r, "name");
      room.mode = text(r, "mode");
      room.phase = text(r, "phase");
      room.racers = static_cast<std::uint32_t>(number(r, "racers", UINT32_MAX));
      room.max_racers = static_cast<std::uint32_t>(number(r, "max_racers", UINT32_MAX));
      info.rooms.push_back(std::move(room));
    }
  }
  return info;
}

}  // namespace

sr::Result<ServerInfo, std::string> parse_server_info(std::string_view json) {
  if (json.size() > kMaxInfoJsonBytes) return sr::fail(std::string("the info is too long"));
  rapidjson::Document doc;
  if (doc.Parse(json.data(), json.size()).HasParseError()) return sr::fail(std::string("the info is not JSON"));
  return read_info(doc);
}

sr::Result<std::vector<ListedServer>, std::string> parse_directory_servers(std::string_view json) {
  if (json.size() > kMaxListJsonBytes) return sr::fail(std::string("the server list is too long"));
  rapidjson::Document doc;
  if (doc.Parse(json.data(), json.size()).HasParseError()) return sr::fail(std::string("the server list is not JSON"));
  if (!doc.IsObject()) return sr::fail(std::string("the server list is not a JSON object"));
  const Value* servers = member(doc, "servers");
  if (servers == nullptr || !servers->IsArray())
    return sr::fail(std::string("the server list has no \"servers\" array"));
  std::vector<ListedServer> out;
  for (const Value& s : servers->GetArray()) {
    if (!s.IsObject()) continue;
    auto info = read_info(s);
    ListedServer listed;
    listed.address = text(s, "address");
    if (!info || listed.address.empty()) continue;
    listed.info = std::move(info.value());
    listed.seen_s = static_cast<std::uint32_t>(number(s, "seen_s", UINT32_MAX));
    out.push_back(std::move(listed));
  }
  return out;
}

}  // namespace sr::net
