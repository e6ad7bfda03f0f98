// The metrics endpoint of a real server on loopback while two bots race a sprint: the counters move.
#include "server/metrics.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "server/http_metrics.h"
#include "tests/deploy/process.h"
#include "tests/server/net_fixture.h"

namespace sr::test {
namespace {

using namespace std::chrono_literals;

// "name{labels}" -> value, from the Prometheus text format; every sample's family must have been TYPE'd first.
std::map<std::string, double> parse_samples(const std::string& text) {
  std::map<std::string, double> samples;
  std::set<std::string> typed;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("# TYPE ", 0) == 0) {
      typed.insert(line.substr(7, line.find(' ', 7) - 7));
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    const std::size_t space = line.rfind(' ');
    const std::string key = line.substr(0, space);
    const std::string family = key.substr(0, key.find('{'));
    EXPECT_TRUE(typed.count(family) != 0) << "no TYPE before " << line;
    samples[key] = std::stod(line.substr(space + 1));
  }
  return samples;
}

class MetricsServer {
 public:
  MetricsServer() : data_("stackrace-metrics") {
    server::ServerOptions options;
    options.bind = "127.0.0.1";
    options.port = 0;
    options.data_dir = data_.path();
    options.lobby.server_name = "metrics";
    server_ = std::make_unique<server::Server>(options);
    if (const auto started = server_->start(); !started) ADD_FAILURE() << started.error();
    if (const auto started = http_.start({0, "127.0.0.1"}); !started) ADD_FAILURE() << started.error();
    thread_ = std::thread([this] { server::run_and_publish(*server_, stop_, board_); });
    // Until the loop's first snapshot, /metrics answers 503.
    for (const auto until = std::chrono::steady_clock::now() + 30s;
         !board_.latest() && std::chrono::steady_clock::now() < until;) {
      std::this_thread::sleep_for(10ms);
    }
  }
  ~MetricsServer() { stop(); }
  void stop() {
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
  }
  [[nodiscard]] std::uint16_t game_port() const { return server_->port(); }
  httplib::Result get(const std::string& path) {
    httplib::Client client("127.0.0.1", http_.port());
    client.set_read_timeout(5, 0);
    return client.Get(path.c_str());
  }
  std::map<std::string, double> scrape() {
    const httplib::Result r = get("/metrics");
    EXPECT_TRUE(r && r->status == 200);
    if (!r) return {};
    EXPECT_EQ(r->get_header_value("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
    return parse_samples(r->body);
  }

 private:
  TempDir data_;
  server::MetricsBoard board_;
  server::MetricsHttpServer http_{board_};
  std::unique_ptr<server::Server> server_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

protocol::RoomSettings sprint_room() {
  protocol::RoomSettings s;
  s.name = "metered";
  s.config = engine::make_sprint(10);
  s.max_racers = 8;
  s.auto_start = true;
  return s;
}

TEST(MetricsEndpoint, CountersMoveDuringABotRace) {
  MetricsServer server;
  const auto before = server.scrape();
  EXPECT_EQ(before.at("stackrace_players"), 0);
  EXPECT_EQ(before.at("stackrace_races_started_total"), 0);
  EXPECT_EQ(before.at("stackrace_rooms{state=\"racing\"}"), 0);

  BotClient alice("alice", server.game_port(), {}, 4000), bob("bob", server.game_port(), {}, 4000);
  ASSERT_TRUE(alice.connect());
  ASSERT_TRUE(bob.connect());
  ASSERT_TRUE(alice.session().create_room(sprint_room()));
  ASSERT_TRUE(BotClient::pump_until(
      {&alice}, [&] { return alice.session().room().has_value(); }, 5s));
  ASSERT_TRUE(bob.session().join_room(alice.session().room()->room_id, protocol::Role::kRacer));
  ASSERT_TRUE(BotClient::pump_until(
      {&bob}, [&] { return bob.session().room().has_value(); }, 5s));
  alice.session().set_ready(true);
  bob.session().set_ready(true);

  // Mid-race: both bots have placed pieces.
  ASSERT_TRUE(BotClient::pump_until(
      {&alice, &bob},
      [&] {
        return alice.session().race() && bob.session().race() &&
               alice.session().race()->mine()->game().stats().pieces >= 6 &&
               bob.session().race()->mine()->game().stats().pieces >= 6;
      },
      60s));
  // The next snapshot that shows the race (published every 100 ms): polled with a deadline, not slept for.
  std::map<std::string, double> during;
  for (const auto until = std::chrono::steady_clock::now() + 30s; std::chrono::steady_clock::now() < until;) {
    during = server.scrape();
    if (during.at("stackrace_rooms{state=\"racing\"}") == 1 && during.at("stackrace_inputs_total") > 0) break;
    std::this_thread::sleep_for(20ms);
  }
  EXPECT_EQ(during.at("stackrace_players"), 2);
  EXPECT_EQ(during.at("stackrace_rooms{state=\"racing\"}"), 1);
  EXPECT_EQ(during.at("stackrace_rooms{state=\"waiting\"}"), 0);
  EXPECT_EQ(during.at("stackrace_races_started_total"), 1);
  EXPECT_EQ(during.at("stackrace_races_finished_total"), 0);
  EXPECT_GT(during.at("stackrace_inputs_total"), 0);
  EXPECT_GT(during.at("stackrace_received_bytes_total"), before.at("stackrace_received_bytes_total"));
  EXPECT_GT(during.at("stackrace_sent_bytes_total"), before.at("stackrace_sent_bytes_total"));
  EXPECT_GT(during.at("stackrace_sent_datagrams_total"), before.at("stackrace_sent_datagrams_total"));
  EXPECT_GT(during.at("stackrace_received_datagrams_total"), before.at("stackrace_received_datagrams_total"));
  // The messages the room queued to its players (ENet packs them into those datagrams).
  EXPECT_GT(during.at("stackrace_sent_messages_total"), before.at("stackrace_sent_messages_total"));

  ASSERT_TRUE(BotClient::pump_until(
      {&alice, &bob},
      [&] {
        return alice.session().results() && bob.session().results() && alice.session().stored_replay() &&
               bob.session().stored_replay();
      },
      120s));
  std::map<std::string, double> after;
  // The replay write is reported by a later snapshot: polled with a deadline.
  for (const auto until = std::chrono::steady_clock::now() + 30s; std::chrono::steady_clock::now() < until;) {
    after = server.scrape();
    if (after.at("stackrace_replay_writes_total") == 1) break;
    std::this_thread::sleep_for(20ms);
  }
  EXPECT_EQ(after.at("stackrace_races_finished_total"), 1);
  EXPECT_EQ(after.at("stackrace_replay_writes_total"), 1);
  EXPECT_EQ(after.at("stackrace_replay_write_failures_total"), 0);
  EXPECT_GT(after.at("stackrace_inputs_total"), during.at("stackrace_inputs_total"));
  EXPECT_GT(after.at("stackrace_received_bytes_total"), during.at("stackrace_received_bytes_total"));
  EXPECT_GT(after.at("stackrace_referee_cpu_seconds_total"), 0);
  EXPECT_GE(after.at("stackrace_referee_cpu_seconds_total"), during.at("stackrace_referee_cpu_seconds_total"));
  EXPECT_EQ(after.at("stackrace_rooms{state=\"racing\"}"), 0);
  EXPECT_EQ(after.at("stackrace_desyncs_total"), 0);
  EXPECT_EQ(after.at("stackrace_racers_removed_total{reason=\"slow_clock\"}"), 0);
  EXPECT_EQ(after.at("stackrace_protocol_errors_total"), 0);
}

TEST(MetricsEndpoint, HealthzIsOkWhileTheLoopRunsAndNotAfter) {
  MetricsServer server;  // its constructor waits for the loop's first snapshot
  httplib::Result ok = server.get("/healthz");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->status, 200);
  EXPECT_EQ(ok->body, "ok\n");
  server.stop();
  httplib::Result stopped = server.get("/healthz");
  ASSERT_TRUE(stopped);
  EXPECT_EQ(stopped->status, 503);
  EXPECT_EQ(stopped->body, "stopping\n");
  EXPECT_EQ(server.get("/nothing-here")->status, 404);
}

}  // namespace
}  // namespace sr::test

namespace sr::deploy_test_stop {

// A SIGTERM during start-up stops the endpoint right after start(): httplib's stop() does nothing before its listen
// loop runs, so without start() waiting for the loop this stop() never returned (the test would time out).
TEST(MetricsEndpoint, StopRightAfterStartReturns) {
  server::MetricsBoard board;
  for (int i = 0; i < 50; ++i) {
    server::MetricsHttpServer http(board);
    ASSERT_TRUE(http.start({0, "127.0.0.1"}).ok());
    http.stop();
  }
}

}  // namespace sr::deploy_test_stop
