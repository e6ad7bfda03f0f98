#include "server/server_info.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>

#include "common/protocol/messages.h"
#include "common/protocol/server_query.h"

#ifndef STACKRACE_VERSION
#define STACKRACE_VERSION "unknown"
#endif

namespace sr::server {
namespace {

struct ListedRoom {
  const protocol::RoomInfo* room;
  unsigned racers;
};

std::string write_json(const ServerInfoFields& fields, const std::vector<ListedRoom>& rooms, std::size_t listed,
                       bool racing) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("name");
  w.String(fields.name.c_str(), static_cast<rapidjson::SizeType>(fields.name.size()));
  w.Key("protocol");
  w.Uint(protocol::kProtocolVersion);
  w.Key("version");
  w.String(program_version());
  w.Key("players");
  w.Uint64(fields.players);
  w.Key("capacity");
  w.Uint64(fields.capacity);
  w.Key("rooms");
  w.StartArray();
  for (std::size_t i = 0; i < listed; ++i) {
    const protocol::RoomInfo& room = *rooms[i].room;
    w.StartObject();
    w.Key("name");
    w.String(room.settings.name.c_str(), static_cast<rapidjson::SizeType>(room.settings.name.size()));
    w.Key("mode");
    w.String(engine::mode_name(room.settings.config.mode));  // the names DIRECTORY.md lists
    w.Key("racers");
    w.Uint(rooms[i].racers);
    w.Key("max_racers");
    w.Uint(room.settings.max_racers);
    w.Key("phase");
    w.String(phase_name(room.phase));
    w.EndObject();
  }
  w.EndArray();
  w.Key("racing");
  w.Bool(racing);
  w.Key("ladder");
  w.Bool(fields.ladder);
  if (!fields.web.empty()) {
    w.Key("web");
    w.String(fields.web.c_str(), static_cast<rapidjson::SizeType>(fields.web.size()));
  }
  w.Key("port");
  w.Uint(fields.port);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace

const char* phase_name(protocol::RoomPhase phase) {
  switch (phase) {
    case protocol::RoomPhase::kWaiting: return "waiting";
    case protocol::RoomPhase::kCountdown: return "countdown";
    case protocol::RoomPhase::kRacing: return "racing";
    case protocol::RoomPhase::kResults: return "results";
  }
  return "waiting";
}

const char* program_version() { return STACKRACE_VERSION; }

std::string server_info_json(const ServerInfoFields& fields, const std::vector<protocol::RoomInfo>& rooms) {
  std::vector<ListedRoom> listed;
  listed.reserve(rooms.size());
  bool racing = false;
  for (const protocol::RoomInfo& room : rooms) {
    const auto racers = static_cast<unsigned>(std::count_if(
        room.members.begin(), room.members.end(), [](const auto& m) { return m.role == protocol::Role::kRacer; }));
    listed.push_back({&room, racers});
    racing = racing || room.phase == protocol::RoomPhase::kRacing;
  }
  const std::size_t count = std::min(kMaxInfoRooms, listed.size());
  std::partial_sort(listed.begin(), listed.begin() + static_cast<std::ptrdiff_t>(count), listed.end(),
                    [](const ListedRoom& a, const ListedRoom& b) {
                      return a.racers != b.racers ? a.racers > b.racers : a.room->room_id < b.room->room_id;
                    });
  for (std::size_t n = count;; --n) {
    std::string json = write_json(fields, listed, n, racing);
    if (json.size() <= protocol::kMaxInfoJsonBytes || n == 0) return json;
  }
}

}  // namespace sr::server
