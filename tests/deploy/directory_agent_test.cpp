// A public server's registration agent (server/directory_agent.h) against a fake directory: an httplib server in the
// test that plays DIRECTORY.md's "POST /api/register" (challenge datagram to the game port, 202, then 200 with a
// secret, renewals, a 403), with a real game server taking the challenge on its game port.
#include "server/directory_agent.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <mutex>
#include <thread>

#include "common/protocol/server_query.h"
#include "tests/server/net_fixture.h"

namespace sr::test {
namespace {

using namespace std::chrono_literals;

// What the fake directory saw, a word per registration: "new" (no token, no secret), "token" (the token it sent),
// "secret" (the secret it gave), or "bad" (anything else).
class FakeDirectory {
 public:
  explicit FakeDirectory(std::uint16_t game_port) : game_port_(game_port) {
    udp_ = ::socket(AF_INET, SOCK_DGRAM, 0);
    http_.Post("/hub/api/register", [this](const httplib::Request& request, httplib::Response& response) {
      on_register(request, response);
    });
    port_ = static_cast<std::uint16_t>(http_.bind_to_any_port("127.0.0.1"));
    thread_ = std::thread([this] { http_.listen_after_bind(); });  // bound and listening: requests queue until then
  }
  ~FakeDirectory() {
    http_.stop();
    thread_.join();
    ::close(udp_);
  }
  [[nodiscard]] std::uint16_t port() const { return port_; }
  [[nodiscard]] std::vector<std::string> seen() const {
    std::lock_guard lock(mutex_);
    return seen_;
  }
  [[nodiscard]] std::string last_body() const {
    std::lock_guard lock(mutex_);
    return last_body_;
  }

 private:
  static bool has(const std::string& body, const std::string& text) { return body.find(text) != std::string::npos; }

  void on_register(const httplib::Request& request, httplib::Response& response) {
    std::lock_guard lock(mutex_);
    const std::string& body = request.body;
    last_body_ = body;
    const bool port_ok = has(body, "\"port\":" + std::to_string(game_port_) + ",");
    const bool info_ok = has(body, R"("info":{"name":"test",)");
    if (port_ok && info_ok && !has(body, "\"token\"") && !has(body, "\"secret\"")) {
      seen_.push_back("new");
      // A new token each challenge, sent to the game port from this machine (the directory's address).
      token_ = std::string(31, 'a') + static_cast<char>('0' + challenges_++);
      const auto datagram = protocol::encode_challenge(token_);
      sockaddr_in to{};
      to.sin_family = AF_INET;
      to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      to.sin_port = htons(game_port_);
      (void)::sendto(udp_, datagram.data(), datagram.size(), 0, reinterpret_cast<const sockaddr*>(&to), sizeof to);
      response.status = 202;
      response.set_content(R"({"status":"challenge","retry_ms":500})", "application/json");
      return;
    }
    if (port_ok && info_ok && has(body, "\"token\":\"" + token_ + "\"")) {
      seen_.push_back("token");
      secret_ = std::string(31, 'b') + static_cast<char>('0' + challenges_);
      renewals_ = 0;
      response.status = 200;
      response.set_content(R"({"status":"listed","secret":")" + secret_ + R"(","every_s":1,"expires_s":30})",
                           "application/json");
      return;
    }
    if (port_ok && info_ok && !secret_.empty() && has(body, "\"secret\":\"" + secret_ + "\"")) {
      seen_.push_back("secret");
      // The second renewal of the first listing is refused, as after a directory restart.
      if (++renewals_ == 2 && challenges_ == 1) {
        secret_.clear();
        response.status = 403;
        response.set_content(R"({"error":"no such entry; register anew"})", "application/json");
        return;
      }
      response.status = 200;
      response.set_content(R"({"status":"listed","secret":")" + secret_ + R"(","every_s":1,"expires_s":30})",
                           "application/json");
      return;
    }
    seen_.push_back("bad");
    response.status = 400;
    response.set_content(R"({"error":"not a registration"})", "application/json");
  }

  std::uint16_t game_port_;
  int udp_ = -1;
  httplib::Server http_;
  std::thread thread_;
  std::uint16_t port_ = 0;
  mutable std::mutex mutex_;
  std::vector<std::string> seen_;
  std::string last_body_;
  std::string token_;
  std::string secret_;
  int challenges_ = 0;
  int renewals_ = 0;
};

TEST(DirectoryAgent, ChallengedListedRenewedRefusedAndListedAgain) {
  server::DirectoryLink link;
  server::ServerOptions options;
  options.directories = {&link};
  ServerFixture game(options);
  FakeDirectory directory(game.port());

  server::DirectoryAgentOptions agent_options;
  agent_options.url = "http://127.0.0.1:" + std::to_string(directory.port()) + "/hub/";
  agent_options.game_port = game.port();
  agent_options.retry_first = 100ms;
  server::DirectoryAgent agent(agent_options, link);
  agent.start();

  // new -> 202 + challenge; token -> 200 (listed); secret -> 200 (renewed); secret -> 403; new -> 202; token -> 200;
  // then renewals.
  const std::vector<std::string> want = {"new", "token", "secret", "secret", "new", "token", "secret"};
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while (directory.seen().size() < want.size() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(10ms);
  }
  agent.stop();
  const std::vector<std::string> seen = directory.seen();
  ASSERT_GE(seen.size(), want.size()) << directory.last_body();
  EXPECT_EQ(std::vector<std::string>(seen.begin(), seen.begin() + static_cast<std::ptrdiff_t>(want.size())), want)
      << directory.last_body();
  EXPECT_EQ(agent.state(), server::DirectoryAgent::State::kListed);
  EXPECT_GE(agent.listed_count(), 4u);
}

TEST(DirectoryAgent, ADirectoryThatDoesNotAnswerIsRetriedWithoutStallingAnything) {
  server::DirectoryLink link;
  link.publish_info(R"({"name":"test"})");
  server::DirectoryAgentOptions agent_options;
  agent_options.url = "http://127.0.0.1:1";  // nothing listens there
  agent_options.game_port = 7777;
  agent_options.retry_first = 50ms;
  server::DirectoryAgent agent(agent_options, link);
  agent.start();
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (agent.state() != server::DirectoryAgent::State::kRetrying && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(5ms);
  }
  EXPECT_EQ(agent.state(), server::DirectoryAgent::State::kRetrying);
  const auto stopping = std::chrono::steady_clock::now();
  agent.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - stopping, 2s);
}

TEST(DirectoryAgent, OnlyHttpUrlsAreDirectories) {
  EXPECT_TRUE(server::DirectoryAgent::check_url("https://hub.example.org"));
  EXPECT_EQ(server::DirectoryAgent::check_url("hub.example.org").error(),
            "the directory 'hub.example.org' is not an http(s) URL: it does not start with http:// or https://");
}

}  // namespace
}  // namespace sr::test
