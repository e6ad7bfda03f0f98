#include "bot/directory_pick.h"

#include <gtest/gtest.h>

namespace sr::botcli {
namespace {

net::ListedServer listed(const std::string& address, const std::string& name, std::uint32_t players,
                         std::uint32_t protocol = 8) {
  net::ListedServer s;
  s.address = address;
  s.info.name = name;
  s.info.players = players;
  s.info.protocol = protocol;
  s.info.port = 7878;
  return s;
}

TEST(DirectoryPick, ByNameOrTheMostPlayersOfOurProtocol) {
  const std::vector<net::ListedServer> list = {listed("10.0.0.1", "alpha", 3), listed("10.0.0.2", "bravo", 9, 7),
                                               listed("10.0.0.3", "charlie", 5), listed("10.0.0.4", "delta", 5)};
  EXPECT_EQ(pick_server(list, std::nullopt, 8).value().address, "10.0.0.3");  // bravo speaks 7; charlie first of 5
  EXPECT_EQ(pick_server(list, std::string("delta"), 8).value().address, "10.0.0.4");
  auto other = pick_server(list, std::string("bravo"), 8);
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error(), "the directory's server 'bravo' at 10.0.0.2:7878 speaks protocol 7, this bot 8");
  auto missing = pick_server(list, std::string("echo"), 8);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), "the directory lists no server named 'echo'");
  EXPECT_EQ(pick_server({}, std::nullopt, 8).error(), "the directory lists no server");
}

TEST(DirectoryPick, AnAddressThatIsNoDirectoryIsSaid) {
  auto bad = fetch_directory("ftp://example.org");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().rfind("--directory ftp://example.org: ", 0), 0u) << bad.error();
}

}  // namespace
}  // namespace sr::botcli
