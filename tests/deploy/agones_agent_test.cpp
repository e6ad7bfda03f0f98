// The Agones agent against a fake SDK sidecar: ready (retried until the sidecar is up), health pings, the players
// label, and shutdown after the idle time; then the real stackrace-server with --agones, which stops by itself.
#include "server/agones.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "tests/deploy/fake_sidecar.h"
#include "tests/deploy/process.h"

namespace sr::test {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// Plays the server's main loop: publishes a snapshot every 50 ms with the given player and room counts.
class FakeLoop {
 public:
  explicit FakeLoop(server::MetricsBoard& board) : board_(board) {
    thread_ = std::thread([this] {
      while (!stop_.load()) {
        if (!stalled_.load()) {
          server::MetricsSnapshot s;
          s.stats.players = players_.load();
          s.stats.rooms = rooms_.load();
          s.taken = Clock::now();
          board_.publish(s);
        }
        std::this_thread::sleep_for(50ms);
      }
    });
  }
  ~FakeLoop() {
    stop_.store(true);
    thread_.join();
  }
  void set(std::size_t players, std::size_t rooms) {
    players_.store(players);
    rooms_.store(rooms);
  }
  void stall() { stalled_.store(true); }

 private:
  server::MetricsBoard& board_;
  std::atomic<std::size_t> players_{0};
  std::atomic<std::size_t> rooms_{0};
  std::atomic<bool> stalled_{false};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

server::AgonesOptions fast_options(std::uint16_t port) {
  server::AgonesOptions o;
  o.port = port;
  o.health_every = 100ms;
  o.idle_shutdown = 1000ms;
  o.retry_first = 50ms;
  o.retry_max = 200ms;
  return o;
}

bool wait_for(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (!done()) {
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

std::size_t count_of(const std::vector<FakeSidecar::Call>& calls, const std::string& path) {
  return static_cast<std::size_t>(
      std::count_if(calls.begin(), calls.end(), [&](const auto& c) { return c.path == path; }));
}

TEST(AgonesAgent, RetriesReadyUntilTheSidecarIsUpThenPingsLabelsAndShutsDownWhenIdle) {
  server::MetricsBoard board;
  FakeLoop loop(board);
  loop.set(2, 1);  // busy: two players in a room

  const std::uint16_t port = free_tcp_port();
  std::atomic<bool> stop_requested{false};
  server::AgonesAgent agent(fast_options(port), board, [&] { stop_requested.store(true); });
  agent.start();
  std::this_thread::sleep_for(600ms);  // the agent retries against a closed port meanwhile

  FakeSidecar sidecar;
  ASSERT_TRUE(sidecar.start(port));
  ASSERT_TRUE(wait_for([&] { return count_of(sidecar.calls(), "/health") >= 5; }, 10s)) << sidecar.transcript();
  EXPECT_FALSE(stop_requested.load()) << "players and a room are not idle";

  const auto idle_from = Clock::now();
  loop.set(0, 0);
  ASSERT_TRUE(wait_for([&] { return stop_requested.load(); }, 10s)) << sidecar.transcript();
  agent.stop();

  const std::vector<FakeSidecar::Call> calls = sidecar.calls();
  ASSERT_GE(calls.size(), 4u);
  EXPECT_EQ(calls.front().path, "/ready");
  EXPECT_EQ(count_of(calls, "/ready"), 1u);
  EXPECT_EQ(calls.back().path, "/shutdown");
  EXPECT_EQ(count_of(calls, "/shutdown"), 1u);
  EXPECT_GE(calls.back().at - idle_from, 900ms) << "shut down before the idle time had passed";
  for (const auto& c : calls) {
    if (c.path == "/ready" || c.path == "/health" || c.path == "/shutdown") {
      EXPECT_EQ(c.method, "POST");
      EXPECT_EQ(c.body, "{}");
    }
  }
  // The player count went out as a label, first 2 then 0, each once.
  std::vector<std::string> labels;
  for (const auto& c : calls) {
    if (c.path == "/metadata/label") labels.push_back(c.method + " " + c.body);
  }
  const std::vector<std::string> expected = {R"(PUT {"key":"players","value":"2"})",
                                             R"(PUT {"key":"players","value":"0"})"};
  EXPECT_EQ(labels, expected) << sidecar.transcript();
}

TEST(AgonesAgent, NoHealthPingsWhileTheMainLoopStalls) {
  server::MetricsBoard board;
  FakeLoop loop(board);
  FakeSidecar sidecar;
  ASSERT_TRUE(sidecar.start());
  server::AgonesOptions options = fast_options(sidecar.port());
  options.idle_shutdown = 0ms;  // never
  server::AgonesAgent agent(options, board, [] {});
  agent.start();
  ASSERT_TRUE(wait_for([&] { return count_of(sidecar.calls(), "/health") >= 2; }, 10s));

  loop.stall();
  std::this_thread::sleep_for(server::kSnapshotStaleAfter + 300ms);
  const std::size_t pings_when_stale = count_of(sidecar.calls(), "/health");
  std::this_thread::sleep_for(500ms);
  EXPECT_EQ(count_of(sidecar.calls(), "/health"), pings_when_stale) << "pinged for a loop that stopped reporting";
  agent.stop();
  EXPECT_EQ(count_of(sidecar.calls(), "/shutdown"), 0u);
}

TEST(AgonesServer, ServerWithAgonesIsReadyPingsAndShutsItselfDownWhenIdle) {
  FakeSidecar sidecar;
  ASSERT_TRUE(sidecar.start());
  TempDir data("stackrace-agones");
  ChildProcess server;
  ASSERT_TRUE(
      server.start({STACKRACE_SERVER_BIN, "--bind", "127.0.0.1", "--port", "0", "--data-dir", data.path().string(),
                    "--agones", "--agones-health-interval", "0.2", "--agones-idle-shutdown", "1.5"},
                   {"AGONES_SDK_HTTP_PORT=" + std::to_string(sidecar.port())}));
  const std::optional<int> code = server.wait(30s);
  ASSERT_TRUE(code.has_value()) << "the server did not stop by itself\n" << server.output();
  EXPECT_EQ(*code, 0) << server.output();

  const std::vector<FakeSidecar::Call> calls = sidecar.calls();
  ASSERT_FALSE(calls.empty()) << server.output();
  EXPECT_EQ(calls.front().path, "/ready") << sidecar.transcript();
  EXPECT_EQ(calls.back().path, "/shutdown") << sidecar.transcript();
  EXPECT_GE(count_of(calls, "/health"), 3u) << sidecar.transcript();
  EXPECT_GE(calls.back().at - calls.front().at, 1400ms);
  EXPECT_NE(sidecar.transcript().find(R"(PUT /metadata/label {"key":"players","value":"0"})"), std::string::npos)
      << sidecar.transcript();
  EXPECT_NE(server.output().find("stackrace-server stopped"), std::string::npos) << server.output();
}

TEST(AgonesServer, BadSidecarPortIsRefusedAtStart) {
  TempDir data("stackrace-agones");
  const ProcessResult r =
      run_process({STACKRACE_SERVER_BIN, "--port", "0", "--data-dir", data.path().string(), "--agones"},
                  {"AGONES_SDK_HTTP_PORT=nine"}, 30s);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("AGONES_SDK_HTTP_PORT"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace sr::test
