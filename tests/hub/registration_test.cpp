// hub/registration.h and hub/server_info.h: each malformed or oversized body or field is refused with its sentence;
// the stored info is the checked one, written out again (never the raw input).
#include "hub/registration.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "hub/hub_pages.h"
#include "tests/hub/hub_test_support.h"

namespace sr::hub::test {
namespace {

std::string error_of(const std::string& body) {
  auto r = parse_registration(body);
  return r ? std::string("<accepted>") : r.error();
}

// A small info with `field` set to the JSON `value` (replacing the field, or added at the end).
std::string info_with(const std::string& field, const std::string& value) {
  std::vector<std::pair<std::string, std::string>> fields = {
      {"name", R"("Ada")"}, {"protocol", "7"}, {"players", "3"}, {"capacity", "256"}};
  bool replaced = false;
  for (auto& [k, v] : fields) {
    if (k == field) v = value, replaced = true;
  }
  if (!replaced) fields.emplace_back(field, value);
  std::string out = "{";
  for (const auto& [k, v] : fields) out += (out.size() > 1 ? ",\"" : "\"") + k + "\":" + v;
  return out + "}";
}

TEST(Registration, TheExampleOfDirectoryMdParses) {
  auto r = parse_registration(body(7777, std::string(32, 'a'), std::string(32, '0')));
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r.value().port, 7777);
  EXPECT_EQ(r.value().token, std::string(32, 'a'));
  EXPECT_EQ(r.value().secret, std::string(32, '0'));
  const ServerInfo& i = r.value().info;
  EXPECT_EQ(i.name, "Ada's server");
  EXPECT_EQ(i.protocol, 7);
  EXPECT_EQ(i.version, "0.9.0");
  EXPECT_EQ(i.players, 3);
  EXPECT_EQ(i.capacity, 256);
  ASSERT_EQ(i.rooms.size(), 1u);
  EXPECT_EQ(i.rooms[0], (RoomSummary{"sprint 40", "sprint", 2, 8, "racing"}));
  EXPECT_TRUE(i.racing);
  EXPECT_FALSE(i.ladder);
  EXPECT_EQ(i.web, "http://example.org:8080/");
}

TEST(Registration, OptionalFieldsDefaultAndUnknownOnesAreDropped) {
  auto r = parse_registration(
      R"({"port":1,"token":null,"later":[1,2],"info":{"name":"x","protocol":0,"players":0,"capacity":0,)"
      R"("rooms":[{"name":"r","mode":"ultra","racers":1,"max_racers":2,"phase":"racing","extra":true}],)"
      R"("extra":"<script>"}})");
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(r.value().token.empty());
  EXPECT_TRUE(r.value().info.racing) << "racing defaults to a room racing";
  EXPECT_EQ(servers_json({ListedServer{"192.0.2.1", 1, r.value().info, 0}}),
            R"({"servers":[{"address":"192.0.2.1","port":1,"name":"x","protocol":0,"version":"","players":0,)"
            R"("capacity":0,"rooms":[{"name":"r","mode":"ultra","racers":1,"max_racers":2,"phase":"racing"}],)"
            R"("racing":true,"ladder":false,"seen_s":0}]})");
}

TEST(Registration, MalformedBodiesAreRefusedWithASentence) {
  EXPECT_EQ(error_of(""), "the body is empty; send the registration as JSON");
  EXPECT_EQ(error_of("{\"port\":"), "the body is not JSON (Invalid value.) at byte 8");
  EXPECT_EQ(error_of("{} x"),
            "the body is not JSON (The document root must not be followed by other values.) at byte 3");
  EXPECT_EQ(error_of("[1]"), "the body must be a JSON object");
  EXPECT_EQ(error_of("{\"name\":\"\xff\"}"), "the body is not JSON (Invalid encoding in string.) at byte 9");
  EXPECT_EQ(error_of(std::string(2000, '[') + std::string(2000, ']')), "the body must be a JSON object");
  EXPECT_EQ(error_of(R"({"info":{}})"), "port is missing");
  EXPECT_EQ(error_of(R"({"port":0,"info":{}})"), "port must be 1..65535");
  EXPECT_EQ(error_of(R"({"port":65536,"info":{}})"), "port must be 1..65535");
  EXPECT_EQ(error_of(R"({"port":"7777","info":{}})"), "port must be 1..65535");
  EXPECT_EQ(error_of(R"({"port":7777.5,"info":{}})"), "port must be 1..65535");
  EXPECT_EQ(error_of(R"({"port":7777,"token":"ABCDEF00000000000000000000000000","info":{}})"),
            "token must be 32 lower-case hex digits");
  EXPECT_EQ(error_of(R"({"port":7777,"secret":"abc","info":{}})"), "secret must be 32 lower-case hex digits");
  EXPECT_EQ(error_of(R"({"port":7777,"secret":7,"info":{}})"), "secret must be 32 lower-case hex digits");
  EXPECT_EQ(error_of(R"({"port":7777})"), "info is missing");
  EXPECT_EQ(error_of(R"({"port":7777,"info":[]})"), "info must be an object");
}

TEST(Registration, ABodyOverEightKibIsRefused) {
  std::string big = body(7777);
  big.insert(big.size() - 1, ",\"pad\":\"" + std::string(kMaxBodyBytes, 'x') + "\"");
  EXPECT_EQ(error_of(big), "the body is " + std::to_string(big.size()) + " bytes; at most 8192");
  // Exactly 8 KiB is within the limit.
  std::string fits = body(7777);
  fits.insert(fits.size() - 1, ",\"pad\":\"\"");
  fits.insert(fits.size() - 2, std::string(kMaxBodyBytes - fits.size(), 'x'));
  ASSERT_EQ(fits.size(), kMaxBodyBytes);
  EXPECT_TRUE(parse_registration(fits).ok());
}

TEST(Registration, InfoFieldsAreCheckedOneByOne) {
  const auto refused = [](const std::string& info) { return error_of(R"({"port":7777,"info":)" + info + "}"); };
  EXPECT_EQ(refused(R"({"protocol":7,"players":3,"capacity":256})"), "info.name is missing");
  EXPECT_EQ(refused(info_with("name", "\"" + std::string(33, 'n') + "\"")), "info.name: 33 bytes, limit 32");
  EXPECT_EQ(refused(info_with("name", R"("")")), "info.name: 0 bytes, needs at least 1");
  EXPECT_EQ(refused(info_with("name", R"("a\u0007b")")), "info.name: byte 0x07 at index 1 is not printable ASCII");
  EXPECT_EQ(refused(info_with("name", "5")), "info.name must be a string");
  EXPECT_EQ(refused(info_with("protocol", "-1")), "info.protocol must be 0..65535");
  EXPECT_EQ(refused(info_with("players", "100001")), "info.players must be 0..100000");
  EXPECT_EQ(refused(info_with("capacity", "1e3")), "info.capacity must be a whole number");
  EXPECT_EQ(refused(info_with("version", "\"" + std::string(33, 'v') + "\"")), "info.version: 33 bytes, limit 32");
  EXPECT_EQ(refused(info_with("racing", "1")), "info.racing must be true or false");
  EXPECT_EQ(refused(info_with("ladder", "\"no\"")), "info.ladder must be true or false");
  EXPECT_EQ(refused(info_with("web", R"("ftp://example.org/")")),
            "info.web: it does not start with http:// or https://");
  EXPECT_EQ(refused(info_with("web", "\"http://example.org/" + std::string(190, 'p') + "\"")),
            "info.web: 209 bytes, limit 200");
  EXPECT_EQ(refused(info_with("web", R"("javascript:alert")")), "info.web: it does not start with http:// or https://");
}

TEST(Registration, AKeyGivenTwiceIsRefused) {
  EXPECT_EQ(error_of(R"({"port":7777,"port":7778,"info":{}})"), "the body has the key 'port' twice");
  EXPECT_EQ(error_of(R"({"port":7777,"info":{"name":"a","name":"b","protocol":7,"players":3,"capacity":256}})"),
            "info has the key 'name' twice");
  EXPECT_EQ(error_of(R"({"port":7777,"info":)" +
                     info_with("rooms", R"([{"name":"r","mode":"sprint","racers":1,"max_racers":8,"phase":"waiting",)"
                                        R"("racers":9}])") +
                     "}"),
            "info.rooms[0] has the key 'racers' twice");
}

TEST(Registration, RoomsAreCheckedOneByOne) {
  const auto refused = [](const std::string& rooms) {
    return error_of(R"({"port":7777,"info":)" + info_with("rooms", rooms) + "}");
  };
  const std::string room = R"({"name":"r","mode":"sprint","racers":1,"max_racers":8,"phase":"waiting"})";
  std::string nine = "[" + room;
  for (int i = 1; i < 9; ++i) nine += "," + room;
  nine += "]";
  EXPECT_EQ(refused(nine), "info.rooms has 9 rooms; at most 8");
  EXPECT_EQ(refused("{}"), "info.rooms must be an array");
  EXPECT_EQ(refused("[" + room + ",7]"), "info.rooms[1] must be an object");
  EXPECT_EQ(refused(R"([{"mode":"sprint","racers":1,"max_racers":8,"phase":"waiting"}])"),
            "info.rooms[0].name is missing");
  EXPECT_EQ(refused(R"([{"name":"r","mode":"golf","racers":1,"max_racers":8,"phase":"waiting"}])"),
            "info.rooms[0].mode: 'golf' is not a mode");
  EXPECT_EQ(refused(R"([{"name":"r","mode":"sprint","racers":1,"max_racers":8,"phase":"<b>"}])"),
            "info.rooms[0].phase: '<b>' is not a phase");
  EXPECT_EQ(refused(R"([{"name":"r","mode":"sprint","racers":1,"max_racers":8,"phase":"a very long phase name"}])"),
            "info.rooms[0].phase: the value is not a phase");
  EXPECT_EQ(refused(R"([{"name":"r","mode":"sprint","racers":1001,"max_racers":8,"phase":"waiting"}])"),
            "info.rooms[0].racers must be 0..1000");
  EXPECT_EQ(refused(R"([{"name":"r","mode":"sprint","racers":1,"phase":"waiting"}])"),
            "info.rooms[0].max_racers is missing");
}

}  // namespace
}  // namespace sr::hub::test
