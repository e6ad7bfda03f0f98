#include "client/lobby/server_browser.h"

#include <gtest/gtest.h>

namespace sr::client {
namespace {

net::ServerInfo facts(const std::string& name, std::uint32_t players, std::uint32_t protocol = 7,
                      std::vector<net::InfoRoom> rooms = {}) {
  net::ServerInfo f;
  f.name = name;
  f.players = players;
  f.capacity = 64;
  f.protocol = protocol;
  f.version = "0.9." + std::to_string(protocol);
  f.rooms = std::move(rooms);
  return f;
}

std::vector<std::string> names(const std::vector<const BrowserEntry*>& rows) {
  std::vector<std::string> out;
  for (const auto* r : rows) out.push_back(r->shown_name());
  return out;
}

TEST(ServerBrowser, OneRowPerAddressWhateverListsIt) {
  ServerBrowser b;
  b.listed("203.0.113.7", 7878, facts("listed name", 2));
  b.answered("203.0.113.7", 7878, facts("answered name", 3), 41.5, false);
  b.listed("203.0.113.7", 7878, facts("stale listing", 1));  // the answer is fresher: kept
  b.answered("10.0.0.5", 7878, facts("lan", 0), 0.8, true);
  b.mark_saved({{"my club", "203.0.113.7:7878"}, {"home", "192.168.1.9"}}, {"10.0.0.5:7878"}, 7878);
  ASSERT_EQ(b.entries().size(), 3u);
  const BrowserEntry& club = b.entries()[0];
  EXPECT_EQ(club.shown_name(), "answered name");
  EXPECT_EQ(club.facts->players, 3);
  EXPECT_EQ(club.ping_ms, 41.5);
  EXPECT_TRUE(club.listed && club.favourite && !club.recent && !club.on_lan);
  EXPECT_EQ(b.entries()[1].on_lan, true);
  EXPECT_EQ(b.entries()[1].recent, true);
  // A saved server nobody has answered for yet shows its saved name.
  EXPECT_EQ(b.entries()[2].shown_name(), "home");
  EXPECT_EQ(b.entries()[2].address(), "192.168.1.9:7878");
}

TEST(ServerBrowser, SortsByEveryColumnWithUnknownsLastBothWays) {
  ServerBrowser b;
  b.answered("a", 1, facts("Bravo", 5, 7, {{"r1", "ultra", "racing", 1, 8}}), 30, false);
  b.answered("b", 1, facts("alpha", 0), 10, false);
  b.listed("c", 1, facts("Charlie", 9, 6, {{"r", "sprint", "waiting", 2, 8}, {"s", "ultra", "waiting", 0, 8}}));
  b.mark_saved({{"zulu", "d:1"}}, {}, 7878);  // nothing known
  BrowserView v;
  v.sort = BrowserColumn::kPing;
  EXPECT_EQ(names(b.rows(v)), (std::vector<std::string>{"alpha", "Bravo", "Charlie", "zulu"}));
  v.descending = true;
  EXPECT_EQ(names(b.rows(v)), (std::vector<std::string>{"Bravo", "alpha", "Charlie", "zulu"}));
  v = {};
  v.sort = BrowserColumn::kPlayers;
  v.descending = true;
  EXPECT_EQ(names(b.rows(v)), (std::vector<std::string>{"Charlie", "Bravo", "alpha", "zulu"}));
  v.sort = BrowserColumn::kName;
  v.descending = false;
  EXPECT_EQ(names(b.rows(v)), (std::vector<std::string>{"alpha", "Bravo", "Charlie", "zulu"}));
  v.sort = BrowserColumn::kRooms;
  v.descending = true;
  EXPECT_EQ(names(b.rows(v)), (std::vector<std::string>{"Charlie", "Bravo", "alpha", "zulu"}));
  v.sort = BrowserColumn::kVersion;
  v.descending = false;
  EXPECT_EQ(names(b.rows(v)), (std::vector<std::string>{"Charlie", "Bravo", "alpha", "zulu"}));
  v.sort = BrowserColumn::kAddress;
  EXPECT_EQ(names(b.rows(v)), (std::vector<std::string>{"Bravo", "alpha", "Charlie", "zulu"}));
}

TEST(ServerBrowser, FiltersByTextPlayersAndSaved) {
  ServerBrowser b;
  b.answered("a", 1, facts("Bravo", 5, 7, {{"Friday cup", "ultra", "racing", 1, 8}}), 30, false);
  b.answered("b", 1, facts("alpha", 0), 10, false);
  b.listed("c", 1, facts("Charlie", 9, 7, {{"r", "sprint", "waiting", 2, 8}}));
  b.mark_saved({}, {"b:1"}, 7878);
  BrowserView v;
  v.sort = BrowserColumn::kName;
  v.filter = "FRIDAY";  // a room's name, any case
  EXPECT_EQ(names(b.rows(v)), (std::vector<std::string>{"Bravo"}));
  v.filter = "sprint";  // a mode
  EXPECT_EQ(names(b.rows(v)), (std::vector<std::string>{"Charlie"}));
  v.filter = "b:1";  // an address
  EXPECT_EQ(names(b.rows(v)), (std::vector<std::string>{"alpha"}));
  v.filter.clear();
  v.has_players = true;
  EXPECT_EQ(names(b.rows(v)), (std::vector<std::string>{"Bravo", "Charlie"}));
  v.has_players = false;
  v.saved_only = true;
  EXPECT_EQ(names(b.rows(v)), (std::vector<std::string>{"alpha"}));
}

TEST(ServerBrowser, SaysWhyAServerCannotBeJoined) {
  BrowserEntry e;
  EXPECT_EQ(e.cannot_join(7), "");  // nothing known: the game may try
  e.facts = facts("old", 1, 6);
  EXPECT_EQ(e.cannot_join(7), "version 6; this game speaks 7");
  e.facts->protocol = 7;
  EXPECT_EQ(e.cannot_join(7), "");
}

TEST(ServerBrowser, ModesAreListedOnceEachInRoomOrder) {
  BrowserEntry e;
  e.facts = facts("s", 1, 7,
                  {{"a", "ultra", "waiting", 0, 8}, {"b", "sprint", "waiting", 0, 8}, {"c", "ultra", "racing", 0, 8}});
  EXPECT_EQ(e.modes(), "ultra, sprint");
}

TEST(ServerBrowser, ARefreshForgetsAnswersButKeepsSavedRows) {
  ServerBrowser b;
  b.answered("a", 1, facts("A", 5), 30, true);
  b.answered("b", 1, facts("B", 5), 30, false);
  b.mark_saved({{"mine", "a:1"}}, {}, 7878);
  b.clear_answers();
  ASSERT_EQ(b.entries().size(), 1u);
  EXPECT_EQ(b.entries()[0].shown_name(), "mine");
  EXPECT_FALSE(b.entries()[0].ping_ms.has_value());
  EXPECT_FALSE(b.entries()[0].on_lan);
}

}  // namespace
}  // namespace sr::client
