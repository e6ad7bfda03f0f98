#include "hub/server_info.h"

#include <algorithm>
#include <array>
#include <set>
#include <string_view>

#include "common/protocol/text.h"

namespace sr::hub {
namespace {

constexpr std::array<std::string_view, 7> kModes = {"sprint",  "ultra",   "marathon", "master",
                                                    "endless", "contest", "custom"};
constexpr std::array<std::string_view, 4> kPhases = {"waiting", "countdown", "racing", "results"};
constexpr protocol::TextRule kVersionText{protocol::TextKind::kAscii, 0, kMaxVersionBytes};

using Error = std::string;

// The member `name` of object `v`, or nullptr (const, as bot/tbp_messages.cpp explains).
const rapidjson::Value* member(const rapidjson::Value& v, const char* name) {
  const auto it = v.FindMember(name);
  return it == v.MemberEnd() ? nullptr : &it->value;
}

sr::Status<Error> read_int(const rapidjson::Value& v, const std::string& field, std::int64_t lo, std::int64_t hi,
                           std::int64_t& out) {
  if (!v.IsInt64()) return field + " must be a whole number";
  const std::int64_t n = v.GetInt64();
  if (n < lo || n > hi) return field + " must be " + std::to_string(lo) + ".." + std::to_string(hi);
  out = n;
  return {};
}

sr::Status<Error> read_text(const rapidjson::Value& v, const std::string& field, const protocol::TextRule& rule,
                            std::string& out) {
  if (!v.IsString()) return field + " must be a string";
  const std::string_view text(v.GetString(), v.GetStringLength());
  if (auto ok = protocol::check_text(text, rule); !ok) return field + ": " + ok.error();
  out = std::string(text);
  return {};
}

template <std::size_t N>
sr::Status<Error> read_choice(const rapidjson::Value& v, const std::string& field,
                              const std::array<std::string_view, N>& choices, const char* what, std::string& out) {
  if (!v.IsString()) return field + " must be a string";
  const std::string_view text(v.GetString(), v.GetStringLength());
  if (std::find(choices.begin(), choices.end(), text) == choices.end()) {
    // Quoted only when short and printable, so an error never carries arbitrary bytes back.
    const bool quotable = text.size() <= 16 && protocol::check_text_content(text, protocol::TextKind::kAscii).ok();
    return field + ": " + (quotable ? "'" + std::string(text) + "'" : std::string("the value")) + " is not a " + what;
  }
  out = std::string(text);
  return {};
}

sr::Result<RoomSummary, Error> parse_room(const rapidjson::Value& v, const std::string& field) {
  if (!v.IsObject()) return field + " must be an object";
  if (auto s = check_unique_keys(v, field); !s) return s.error();
  RoomSummary room;
  const rapidjson::Value* name = member(v, "name");
  const rapidjson::Value* mode = member(v, "mode");
  const rapidjson::Value* racers = member(v, "racers");
  const rapidjson::Value* max_racers = member(v, "max_racers");
  const rapidjson::Value* phase = member(v, "phase");
  if (!name) return field + ".name is missing";
  if (auto s = read_text(*name, field + ".name", protocol::kRoomNameText, room.name); !s) return s.error();
  if (!mode) return field + ".mode is missing";
  if (auto s = read_choice(*mode, field + ".mode", kModes, "mode", room.mode); !s) return s.error();
  if (!racers) return field + ".racers is missing";
  if (auto s = read_int(*racers, field + ".racers", 0, kMaxRoomRacers, room.racers); !s) return s.error();
  if (!max_racers) return field + ".max_racers is missing";
  if (auto s = read_int(*max_racers, field + ".max_racers", 0, kMaxRoomRacers, room.max_racers); !s) {
    return s.error();
  }
  if (!phase) return field + ".phase is missing";
  if (auto s = read_choice(*phase, field + ".phase", kPhases, "phase", room.phase); !s) return s.error();
  return room;
}

}  // namespace

sr::Status<std::string> check_unique_keys(const rapidjson::Value& v, const std::string& what) {
  std::set<std::string_view> seen;
  for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
    const std::string_view key(it->name.GetString(), it->name.GetStringLength());
    if (!seen.insert(key).second) {
      const bool quotable = key.size() <= 32 && protocol::check_text_content(key, protocol::TextKind::kAscii).ok();
      return what + " has the key " + (quotable ? "'" + std::string(key) + "'" : std::string("(a long one)")) +
             " twice";
    }
  }
  return {};
}

sr::Result<ServerInfo, std::string> parse_info(const rapidjson::Value& v) {
  if (!v.IsObject()) return Error("info must be an object");
  if (auto s = check_unique_keys(v, "info"); !s) return s.error();
  ServerInfo info;
  const rapidjson::Value* name = member(v, "name");
  if (!name) return Error("info.name is missing");
  if (auto s = read_text(*name, "info.name", protocol::kServerNameText, info.name); !s) return s.error();
  const rapidjson::Value* proto = member(v, "protocol");
  if (!proto) return Error("info.protocol is missing");
  if (auto s = read_int(*proto, "info.protocol", 0, kMaxProtocolVersion, info.protocol); !s) return s.error();
  if (const rapidjson::Value* version = member(v, "version")) {
    if (auto s = read_text(*version, "info.version", kVersionText, info.version); !s) return s.error();
  }
  const rapidjson::Value* players = member(v, "players");
  if (!players) return Error("info.players is missing");
  if (auto s = read_int(*players, "info.players", 0, kMaxPlayers, info.players); !s) return s.error();
  const rapidjson::Value* capacity = member(v, "capacity");
  if (!capacity) return Error("info.capacity is missing");
  if (auto s = read_int(*capacity, "info.capacity", 0, kMaxPlayers, info.capacity); !s) return s.error();
  if (const rapidjson::Value* rooms = member(v, "rooms")) {
    if (!rooms->IsArray()) return Error("info.rooms must be an array");
    if (rooms->Size() > kMaxRooms) return "info.rooms has " + std::to_string(rooms->Size()) + " rooms; at most 8";
    for (rapidjson::SizeType i = 0; i < rooms->Size(); ++i) {
      auto room = parse_room((*rooms)[i], "info.rooms[" + std::to_string(i) + "]");
      if (!room) return room.error();
      info.rooms.push_back(std::move(room).value());
    }
  }
  info.racing =
      std::any_of(info.rooms.begin(), info.rooms.end(), [](const RoomSummary& r) { return r.phase == "racing"; });
  if (const rapidjson::Value* racing = member(v, "racing")) {
    if (!racing->IsBool()) return Error("info.racing must be true or false");
    info.racing = racing->GetBool();
  }
  if (const rapidjson::Value* ladder = member(v, "ladder")) {
    if (!ladder->IsBool()) return Error("info.ladder must be true or false");
    info.ladder = ladder->GetBool();
  }
  if (const rapidjson::Value* web = member(v, "web")) {
    if (auto s = read_text(*web, "info.web", protocol::kWebUrlText, info.web); !s) return s.error();
  }
  return info;
}

void put_info_fields(web::JsonWriter& w, const ServerInfo& info) {
  w.key("name").value(info.name);
  w.key("protocol").value(info.protocol);
  w.key("version").value(info.version);
  w.key("players").value(info.players);
  w.key("capacity").value(info.capacity);
  w.key("rooms").begin_array();
  for (const RoomSummary& r : info.rooms) {
    w.begin_object();
    w.key("name").value(r.name);
    w.key("mode").value(r.mode);
    w.key("racers").value(r.racers);
    w.key("max_racers").value(r.max_racers);
    w.key("phase").value(r.phase);
    w.end_object();
  }
  w.end_array();
  w.key("racing").value(info.racing);
  w.key("ladder").value(info.ladder);
  if (!info.web.empty()) w.key("web").value(info.web);
}

}  // namespace sr::hub
