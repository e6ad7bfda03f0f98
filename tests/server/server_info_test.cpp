// The info JSON of server queries and registrations (server/server_info.h), against DIRECTORY.md's example.
#include "server/server_info.h"

#include <gtest/gtest.h>

#include "common/engine/config.h"
#include "common/protocol/messages.h"
#include "common/protocol/server_query.h"

namespace sr::server {
namespace {

protocol::RoomInfo room(std::uint32_t id, const std::string& name, engine::GameConfig config, int racers,
                        protocol::RoomPhase phase, int spectators = 0) {
  protocol::RoomInfo r;
  r.room_id = id;
  r.settings.name = name;
  r.settings.config = std::move(config);
  r.settings.max_racers = 8;
  r.phase = phase;
  for (int i = 0; i < racers + spectators; ++i) {
    protocol::RoomMember m;
    m.player_id = static_cast<std::uint32_t>(100 * id + i);
    m.name = "p" + std::to_string(i);
    m.role = i < racers ? protocol::Role::kRacer : protocol::Role::kSpectator;
    r.members.push_back(m);
  }
  return r;
}

ServerInfoFields fields() {
  ServerInfoFields f;
  f.name = "Ada's server";
  f.players = 3;
  f.capacity = 256;
  f.web = "http://example.org:8080/";
  f.port = 7777;
  return f;
}

TEST(ServerInfo, TheJsonHasTheDocumentsFieldsInItsOrder) {
  const std::string json =
      server_info_json(fields(), {room(1, "sprint 40", engine::make_sprint(40), 2, protocol::RoomPhase::kRacing, 1)});
  EXPECT_EQ(json,
            std::string(R"({"name":"Ada's server","protocol":)") + std::to_string(protocol::kProtocolVersion) +
                R"(,"version":")" + program_version() +
                R"(","players":3,"capacity":256,"rooms":[{"name":"sprint 40","mode":"sprint","racers":2,)"
                R"("max_racers":8,"phase":"racing"}],"racing":true,"ladder":false,"web":"http://example.org:8080/",)"
                R"("port":7777})");
}

TEST(ServerInfo, NoWebAddressNoRoomsNotRacing) {
  ServerInfoFields f = fields();
  f.web.clear();
  f.ladder = true;
  EXPECT_EQ(server_info_json(f, {}), std::string(R"({"name":"Ada's server","protocol":)") +
                                         std::to_string(protocol::kProtocolVersion) + R"(,"version":")" +
                                         program_version() +
                                         R"(","players":3,"capacity":256,"rooms":[],"racing":false,"ladder":true,)"
                                         R"("port":7777})");
}

TEST(ServerInfo, ListsEightRoomsMostRacersFirst) {
  std::vector<protocol::RoomInfo> rooms;
  for (std::uint32_t id = 1; id <= 10; ++id) {
    rooms.push_back(room(id, "r" + std::to_string(id), engine::make_sprint(40), static_cast<int>(id % 4),
                         protocol::RoomPhase::kWaiting));
  }
  const std::string json = server_info_json(fields(), rooms);
  // Racers by id: 1:1 2:2 3:3 4:0 5:1 6:2 7:3 8:0 9:1 10:2. Most first, ties by id: 3 7 2 6 10 1 5 9.
  std::string names;
  for (std::size_t at = json.find(R"({"name":"r)"); at != std::string::npos; at = json.find(R"({"name":"r)", at + 1)) {
    names += json.substr(at + 10, json.find('"', at + 10) - at - 10) + " ";
  }
  EXPECT_EQ(names, "3 7 2 6 10 1 5 9 ");
  EXPECT_NE(json.find(R"("racing":false)"), std::string::npos);
}

TEST(ServerInfo, CutsRoomsToStayWithinTheDatagram) {
  ServerInfoFields f = fields();
  f.name = std::string(protocol::kMaxServerNameBytes, 'n');
  f.web = "http://" + std::string(180, 'w') + ".org/";
  std::vector<protocol::RoomInfo> rooms;
  // Room names of 32 bytes of quotes, each written as \" (64 bytes): eight such rooms would not fit.
  for (std::uint32_t id = 1; id <= 8; ++id) {
    rooms.push_back(room(id, std::string(32, '"'), engine::make_sprint(40), 1, protocol::RoomPhase::kRacing));
  }
  const std::string json = server_info_json(f, rooms);
  EXPECT_LE(json.size(), protocol::kMaxInfoJsonBytes);
  std::size_t listed = 0;
  for (std::size_t at = json.find(R"("mode")"); at != std::string::npos; at = json.find(R"("mode")", at + 1)) ++listed;
  EXPECT_GE(listed, 1u);
  EXPECT_LT(listed, 8u);
  EXPECT_EQ(listed, 4u);  // 400 bytes besides the rooms, 135 a room
  // One more room would not have fitted: each adds as many bytes as the last one listed did.
  const std::vector<protocol::RoomInfo> one_less(rooms.begin(),
                                                 rooms.begin() + static_cast<std::ptrdiff_t>(listed - 1));
  const std::size_t room_bytes = json.size() - server_info_json(f, one_less).size();
  EXPECT_GT(json.size() + room_bytes, protocol::kMaxInfoJsonBytes);
}

}  // namespace
}  // namespace sr::server
