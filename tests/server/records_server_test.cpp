// stackrace-server --records, the program: it makes its key on first use (mode 0600) and says its short id; with no
// hub running it keeps its queue and its races go on (two bots race a sprint); the queue it kept is sent, in order,
// once the hub is there at its next start.
#include <gtest/gtest.h>
#include <httplib.h>
#include <signal.h>
#include <sys/stat.h>

#include <regex>

#include "net/identity/player_key.h"
#include "replays/store/replay_store.h"
#include "server/records_queue.h"
#include "tests/deploy/process.h"
#include "tests/server/records_support.h"
#include "tests/support/status.h"

namespace sr::test {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

// The game port the server printed ("listening on 127.0.0.1:PORT "), or "" until it did.
std::string game_port(const std::string& output) {
  std::smatch m;
  static const std::regex listening(R"(listening on 127\.0\.0\.1:([0-9]+) )");
  return std::regex_search(output, m, listening) ? m[1].str() : "";
}

std::vector<std::string> server_args(const fs::path& data, const std::string& hub_url, std::uint16_t metrics_port) {
  return {STACKRACE_SERVER_BIN,
          "--bind",
          "127.0.0.1",
          "--port",
          "0",
          "--data-dir",
          data.string(),
          "--records",
          hub_url,
          "--no-lan",
          "--metrics-port",
          std::to_string(metrics_port)};
}

std::string metrics(std::uint16_t port) {
  httplib::Client client("127.0.0.1", port);
  const auto result = client.Get("/metrics");
  return result && result->status == 200 ? result->body : "";
}

// Starts the server and reads until it says where it submits (its last line before serving) and its metrics answer
// (a SIGTERM before the metrics endpoint's listen loop runs is not seen by it, and its stop would wait for ever).
bool start(ChildProcess& server, const std::vector<std::string>& args, std::uint16_t metrics_port) {
  return server.start(args) &&
         server.read_until(
             [](const std::string& out) { return out.find("submitting records to") != std::string::npos; }, 30s) &&
         wait_until([&] { return !metrics(metrics_port).empty(); }, 30s);
}

std::size_t queue_files(const fs::path& data) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(data / server::RecordsQueue::kQueueDir)) {
    if (e.path().extension() == server::RecordsQueue::kExtension) ++n;
  }
  return n;
}

TEST(RecordsServer, AnHttpsHubIsRefusedBeforeStarting) {
  const ProcessResult r = run_process({STACKRACE_SERVER_BIN, "--records", "https://hub.example.org", "--check-config"});
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("the records hub 'https://hub.example.org' is an https:// URL"), std::string::npos)
      << r.output;
}

TEST(RecordsServer, MakesItsKeyOnFirstUseAndSaysItsShortId) {
  TempDir data("stackrace-records-key");
  const std::string url = "http://127.0.0.1:" + std::to_string(free_tcp_port());
  std::string first_output;
  for (int run = 0; run < 2; ++run) {
    ChildProcess server;
    const std::uint16_t metrics_port = free_tcp_port();
    ASSERT_TRUE(start(server, server_args(data.path(), url, metrics_port), metrics_port)) << server.output();
    auto key = net::read_key_file(data.path() / "server.key");
    ASSERT_TRUE(key.ok()) << key.error();
    EXPECT_NE(server.output().find("submitting records to " + url + " as server key " + key.value().short_id() +
                                   " (queue in " + (data.path() / "records-queue").string() + ")"),
              std::string::npos)
        << server.output();
    struct stat st {};
    ASSERT_EQ(::stat((data.path() / "server.key").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    server.signal(SIGTERM);
    EXPECT_EQ(server.wait(30s), 0) << server.output();
    if (run == 0) first_output = key.value().short_id();
    EXPECT_EQ(key.value().short_id(), first_output) << "the same key on the next start";
  }
}

TEST(RecordsServer, WithoutItsHubRacesGoOnAndTheQueueIsSentInOrderWhenTheHubIsBack) {
  TempDir data("stackrace-records-server");
  // What an earlier run of this server left queued, signed with its key.
  bool created = false;
  auto key = net::load_or_create_key(data.path() / "server.key", created);
  ASSERT_TRUE(key.ok()) << key.error();
  {
    server::RecordsQueue earlier;
    ASSERT_EQ(problem_of(earlier.open(data.path())), std::nullopt);
    for (std::uint64_t seed : {71, 72}) {
      ASSERT_EQ(problem_of(earlier.append(signed_race(seed, "", key.value()))), std::nullopt);
    }
  }
  const std::uint16_t hub_port = free_tcp_port();
  const std::string url = "http://127.0.0.1:" + std::to_string(hub_port) + "/hub";
  const std::uint16_t metrics_port = free_tcp_port();
  {
    ChildProcess server;
    ASSERT_TRUE(start(server, server_args(data.path(), url, metrics_port), metrics_port)) << server.output();
    const std::string port = game_port(server.output());
    ASSERT_NE(port, "") << server.output();
    // Nobody at the hub's address: the agent fails (and will retry); the game goes on regardless.
    ASSERT_TRUE(wait_until(
        [&] {
          return metrics(metrics_port).find("stackrace_records_send_failures_total 0\n") == std::string::npos &&
                 !metrics(metrics_port).empty();
        },
        30s))
        << metrics(metrics_port);
    const ProcessResult bots =
        run_process({STACKRACE_BOT_BINARY, "--server", "127.0.0.1:" + port, "--count", "2", "--create", "sprint",
                     "--lines", "4", "--pps", "4", "--lookahead", "0", "--search", "drops", "--timeout", "120"});
    EXPECT_EQ(bots.exit_code, 0) << bots.output;
    EXPECT_NE(bots.output.find("2 of 2 racers finished"), std::string::npos) << bots.output;
    ASSERT_TRUE(wait_until(
        [&] { return metrics(metrics_port).find("stackrace_replay_writes_total 1\n") != std::string::npos; }, 30s))
        << metrics(metrics_port);
    // The earlier run's two (and the bots' race, once bots sign their runs) wait; none was sent or lost.
    EXPECT_TRUE(wait_until(
        [&] {
          const std::string text = metrics(metrics_port);
          return text.find("stackrace_records_queued " + std::to_string(queue_files(data.path())) + "\n") !=
                 std::string::npos;
        },
        30s))
        << metrics(metrics_port);
    EXPECT_GE(queue_files(data.path()), 2u);
    EXPECT_NE(metrics(metrics_port).find("stackrace_records_sent_total 0\n"), std::string::npos);
    server.signal(SIGTERM);
    EXPECT_EQ(server.wait(30s), 0) << server.output();
  }
  const std::size_t waiting = queue_files(data.path());
  ASSERT_GE(waiting, 2u);

  FakeRecordsHub hub({}, hub_port);
  ASSERT_EQ(hub.port(), hub_port) << "the port was taken meanwhile";
  ChildProcess server;
  ASSERT_TRUE(start(server, server_args(data.path(), url, metrics_port), metrics_port)) << server.output();
  EXPECT_TRUE(wait_until([&] { return hub.stored().size() == waiting; }, 60s)) << server.output();
  server.signal(SIGTERM);
  EXPECT_EQ(server.wait(30s), 0) << server.output();
  std::vector<std::uint64_t> in_order(waiting);
  for (std::size_t i = 0; i < waiting; ++i) in_order[i] = i + 1;
  EXPECT_EQ(hub.stored_sequences(), in_order);
  EXPECT_EQ(hub.requests(), in_order) << "each once";
  EXPECT_EQ(queue_files(data.path()), 0u);
  for (const net::Submission& s : hub.stored()) EXPECT_EQ(s.server_key, key.value().public_key());
}

}  // namespace
}  // namespace sr::test
