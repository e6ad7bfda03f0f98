// From the game to a server's web pages and back, end to end: a real stackrace-server process with its web pages on
// and a stored game; the game's side connects (NetPlay, as App does), learns where the pages are from the Welcome,
// lists the server's games as the replay browser does, makes the game's web link as the Copy link buttons do, and
// fetches and decodes the replay behind it as `stackrace LINK` does. The windowed part (the clipboard, the viewer)
// is App's, tested by hand and under Xvfb.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <regex>
#include <thread>

#include "client/app/net_play.h"
#include "client/web/game_link.h"
#include "client/web/replay_fetch.h"
#include "common/replay/codec.h"
#include "replays/store/file_io.h"
#include "replays/store/replay_store.h"
#include "tests/deploy/process.h"

namespace sr::client {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// Frames of the game's network loop (NetPlay::poll) until `done`, at most `timeout`.
bool poll_until(NetPlay& net, std::vector<protocol::Message>& received, const std::function<bool()>& done,
                std::chrono::milliseconds timeout) {
  const auto end = Clock::now() + timeout;
  while (Clock::now() < end) {
    for (auto& m : net.poll()) received.push_back(std::move(m));
    if (done()) return true;
    std::this_thread::sleep_for(2ms);
  }
  return false;
}

TEST(WebLinkFromTheServer, TheGamesLinkLeadsToItsReplay) {
  sr::test::TempDir data("stackrace-weblink-server");
  sr::test::TempDir replays("stackrace-weblink-client");
  // A stored game: the golden three-racer race, put in the server's store as the server itself stores one.
  auto golden = replay::load_replay_file(std::string(STACKRACE_TEST_DATA) + "/race_sprint.srr");
  ASSERT_TRUE(golden.ok()) << golden.error().describe();
  std::string stored_id;
  {
    auto store = replay::ReplayStore::open(data.path(), true);
    ASSERT_TRUE(store.ok()) << store.error().describe();
    auto id = store.value().add(golden.value());
    ASSERT_TRUE(id.ok()) << id.error().describe();
    stored_id = id.value();
  }
  ASSERT_EQ(stored_id.size(), 16u);

  const std::uint16_t web_port = sr::test::free_tcp_port();
  sr::test::ChildProcess server;
  ASSERT_TRUE(
      server.start({STACKRACE_SERVER_BIN, "--bind", "127.0.0.1", "--port", "0", "--data-dir", data.path().string(),
                    "--web-port", std::to_string(web_port), "--web-bind", "127.0.0.1", "--log-level", "warn"}));
  ASSERT_TRUE(server.read_until(
      [](const std::string& out) { return out.find("web pages on http://") != std::string::npos; }, 60s))
      << server.output();
  std::smatch m;
  const std::string out = server.output();
  ASSERT_TRUE(std::regex_search(out, m, std::regex("listening on 127\\.0\\.0\\.1:([0-9]+)"))) << out;
  const auto udp_port = static_cast<std::uint16_t>(std::stoi(m[1]));

  // The game connects: the Welcome says the pages are on web_port, at the host we connected to.
  ReplayLink link(replays.path());
  NetPlay net(link);
  std::vector<protocol::Message> received;
  ASSERT_TRUE(net.connect("127.0.0.1", udp_port, "linker").ok());
  ASSERT_TRUE(poll_until(
      net, received, [&] { return net.connected(); }, 10s))
      << "not welcomed";
  EXPECT_EQ(net.session().welcome().web_port, web_port);
  EXPECT_EQ(net.session().welcome().web_url, "");

  // The replay browser's list of the server's games gives the game's id.
  ASSERT_TRUE(net.session().list_games(protocol::GameListKind::kRecent));
  std::optional<protocol::GameList> list;
  ASSERT_TRUE(poll_until(
      net, received,
      [&] {
        for (const auto& message : received) {
          if (const auto* l = std::get_if<protocol::GameList>(&message)) list = *l;
        }
        return list.has_value();
      },
      10s));
  ASSERT_EQ(list->games.size(), 1u);
  const std::uint64_t game_id = list->games[0].game_id;

  // Copy link: the link the pages serve the game at.
  const auto address = parse_address(net.address());
  ASSERT_TRUE(address);
  const auto pages = web_pages(net.session().welcome(), address->first);
  ASSERT_TRUE(pages);
  const std::string game_page = game_link(*pages, game_id);
  EXPECT_EQ(game_page, "http://127.0.0.1:" + std::to_string(web_port) + "/games/" + stored_id);

  // `stackrace LINK`: the replay behind it is the stored game, byte for byte decoded the same.
  auto fetched = fetch_replay(game_page);
  ASSERT_TRUE(fetched.ok()) << fetched.error();
  EXPECT_EQ(fetched.value(), golden.value());

  // A game the server does not have.
  char missing[17];
  std::snprintf(missing, sizeof missing, "%016llx", static_cast<unsigned long long>(game_id ^ 1));
  const std::string missing_page = "http://127.0.0.1:" + std::to_string(web_port) + "/games/" + missing;
  auto not_there = fetch_replay(missing_page);
  ASSERT_FALSE(not_there.ok());
  EXPECT_EQ(not_there.error(), "cannot download " + missing_page + ".srr: 127.0.0.1:" + std::to_string(web_port) +
                                   " answered 404 Not Found (the server has no such game)");

  net.disconnect();
  server.signal(SIGTERM);
  EXPECT_EQ(server.wait(30s), 0) << server.output();
}

}  // namespace
}  // namespace sr::client
