// hub/hub_http.h end to end: the hub's HTTP server on a free loopback port in this process (with a fake clock), a
// fake game server's UDP socket on loopback receiving the challenge datagram, and httplib clients registering.
#include "hub/hub_http.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sodium.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <optional>

#include "hub/registration.h"
#include "tests/hub/hub_test_support.h"

namespace sr::hub::test {
namespace {

// A UDP socket on 127.0.0.1 standing in for a game server's port.
class FakeGameServer {
 public:
  FakeGameServer() {
    fd_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    socklen_t len = sizeof a;
    EXPECT_EQ(::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len), 0);
    port_ = ntohs(a.sin_port);
  }
  ~FakeGameServer() { close(); }
  FakeGameServer(const FakeGameServer&) = delete;
  FakeGameServer& operator=(const FakeGameServer&) = delete;

  [[nodiscard]] int port() const { return port_; }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

  // The next datagram, waiting at most `timeout_ms` for it (a deadline, not a sleep).
  std::optional<std::string> receive(int timeout_ms = 5000) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) != 1) return std::nullopt;
    char buf[2048];
    const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    if (n < 0) return std::nullopt;
    return std::string(buf, static_cast<std::size_t>(n));
  }

  // The token of the next datagram if it is a well-formed hub challenge (DIRECTORY.md section 1, KIND 'h').
  std::optional<std::string> receive_challenge() {
    const std::optional<std::string> d = receive();
    if (!d) return std::nullopt;
    EXPECT_EQ(d->size(), 40u);
    EXPECT_EQ(d->substr(0, 8), std::string("\xFF\xFF\xFF\xFFsrh\x01", 8));  // prefix, KIND 'h', version 1
    if (d->size() != 40) return std::nullopt;
    const std::string token = d->substr(8);
    EXPECT_TRUE(is_token(token)) << token;
    return token;
  }

 private:
  int fd_ = -1;
  int port_ = 0;
};

std::string secret_of(const std::string& listed_body) {
  const std::string key = "\"secret\":\"";
  const std::size_t at = listed_body.find(key);
  return at == std::string::npos ? "" : listed_body.substr(at + key.size(), 32);
}

class HubHttpTest : public ::testing::Test {
 protected:
  void start(HubLimits limits = {}, int timeout_s = 5) {
    ASSERT_GE(sodium_init(), 0);
    hub_ = std::make_unique<HubHttpServer>(limits, random_token, [this] { return now_ms_.load(); });
    HubHttpOptions o;
    o.bind = "127.0.0.1";
    o.port = 0;
    o.threads = 2;
    o.timeout_s = timeout_s;
    ASSERT_TRUE(hub_->start(o));
    client_ = std::make_unique<httplib::Client>("127.0.0.1", hub_->port());
    client_->set_read_timeout(10, 0);
  }
  httplib::Result post(const std::string& body) { return client_->Post("/api/register", body, "application/json"); }
  std::string get(const std::string& path, int expected_status = 200) {
    const httplib::Result r = client_->Get(path.c_str());
    EXPECT_TRUE(r) << path;
    if (!r) return "";
    EXPECT_EQ(r->status, expected_status) << path;
    return r->body;
  }
  // The value of the metric line starting with `name` (and a space), or -1.
  long long metric(const std::string& name) {
    const std::string text = get("/metrics");
    const std::size_t at = text.find("\n" + name + " ");
    if (at == std::string::npos) return -1;
    return std::stoll(text.substr(at + name.size() + 2));
  }

  std::atomic<std::int64_t> now_ms_{1'000'000};
  std::unique_ptr<HubHttpServer> hub_;
  std::unique_ptr<httplib::Client> client_;
};

// A SIGTERM during start-up stops the hub right after start(): httplib's stop() does nothing before its listen loop
// runs, so without start() waiting for the loop this stop() never returned (the test would time out).
TEST(HubHttpStop, StopRightAfterStartReturns) {
  ASSERT_GE(sodium_init(), 0);
  for (int i = 0; i < 50; ++i) {
    HubHttpServer hub({}, random_token, [] { return std::int64_t{0}; });
    HubHttpOptions o;
    o.bind = "127.0.0.1";
    o.port = 0;
    o.threads = 2;
    ASSERT_TRUE(hub.start(o).ok());
    hub.stop();
  }
}

TEST_F(HubHttpTest, AServerThatAnswersTheChallengeIsListed) {
  start();
  FakeGameServer game;
  const httplib::Result challenged = post(body(game.port()));
  ASSERT_TRUE(challenged);
  EXPECT_EQ(challenged->status, 202);
  EXPECT_EQ(challenged->body, R"({"status":"challenge","retry_ms":500})");
  EXPECT_EQ(challenged->get_header_value("Content-Type"), "application/json");
  const std::optional<std::string> token = game.receive_challenge();
  ASSERT_TRUE(token);
  EXPECT_EQ(get("/api/servers"), R"({"servers":[]})") << "not listed before it answers";

  const httplib::Result listed = post(body(game.port(), *token));
  ASSERT_TRUE(listed);
  EXPECT_EQ(listed->status, 200);
  const std::string secret = secret_of(listed->body);
  ASSERT_TRUE(is_token(secret)) << listed->body;
  EXPECT_EQ(listed->body, R"({"status":"listed","secret":")" + secret + R"(","every_s":10,"expires_s":30})");
  EXPECT_NE(secret, *token);

  now_ms_ += 4'000;
  const std::string port = std::to_string(game.port());
  EXPECT_EQ(get("/api/servers"),
            R"({"servers":[{"address":"127.0.0.1","port":)" + port +
                R"(,"name":"Ada's server","protocol":7,"version":"0.9.0","players":3,"capacity":256,)"
                R"("rooms":[{"name":"sprint 40","mode":"sprint","racers":2,"max_racers":8,"phase":"racing"}],)"
                R"("racing":true,"ladder":false,"web":"http://example.org:8080/","seen_s":4}]})");
  const std::string page = get("/");
  EXPECT_NE(page.find("Ada&#39;s server"), std::string::npos) << page;
  EXPECT_NE(page.find("127.0.0.1:" + port), std::string::npos) << page;

  // Renewed with the secret; a wrong one is refused; not renewed for 30 s, dropped.
  const httplib::Result renewed = post(body(game.port(), "", secret));
  ASSERT_TRUE(renewed);
  EXPECT_EQ(renewed->status, 200);
  const httplib::Result wrong = post(body(game.port(), "", std::string(32, '0')));
  ASSERT_TRUE(wrong);
  EXPECT_EQ(wrong->status, 403);
  now_ms_ += 29'999;
  EXPECT_EQ(metric("stackrace_hub_servers_listed"), 1);
  now_ms_ += 1;
  EXPECT_EQ(get("/api/servers"), R"({"servers":[]})");
  EXPECT_EQ(metric("stackrace_hub_servers_listed"), 0);
  EXPECT_EQ(metric(R"(stackrace_hub_registrations_total{outcome="listed"})"), 1);
  EXPECT_EQ(metric(R"(stackrace_hub_registrations_total{outcome="renewed"})"), 1);
  EXPECT_EQ(metric(R"(stackrace_hub_registrations_total{outcome="challenged"})"), 1);
  EXPECT_EQ(metric(R"(stackrace_hub_registrations_total{outcome="refused",reason="wrong_secret"})"), 1);
  EXPECT_EQ(metric(R"(stackrace_hub_requests_total{route="register"})"), 4);
}

TEST_F(HubHttpTest, AServerThatNeverAnswersIsNeverListed) {
  start();
  int port = 0;
  {
    FakeGameServer gone;  // a port where nothing listens once it is closed
    port = gone.port();
  }
  const httplib::Result challenged = post(body(port));
  ASSERT_TRUE(challenged);
  EXPECT_EQ(challenged->status, 202);
  // Guessing is refused while the challenge is open, and starts a new challenge once it has lapsed.
  const httplib::Result guessed = post(body(port, std::string(32, 'a')));
  ASSERT_TRUE(guessed);
  EXPECT_EQ(guessed->status, 403);
  now_ms_ += 10'000;
  const httplib::Result again = post(body(port, std::string(32, 'a')));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 202);
  EXPECT_EQ(get("/api/servers"), R"({"servers":[]})");
  EXPECT_EQ(metric("stackrace_hub_open_challenges"), 1);
  now_ms_ += 10'000;
  EXPECT_EQ(metric("stackrace_hub_open_challenges"), 0);
  EXPECT_EQ(metric("stackrace_hub_servers_listed"), 0);
}

TEST_F(HubHttpTest, AFloodFromOneAddressStaysBounded) {
  // The rate limit first: 10 at once, then 5 a second.
  start();
  int accepted = 0, limited = 0;
  for (int port = 20'000; port < 20'050; ++port) {
    const httplib::Result r = post(body(port));
    ASSERT_TRUE(r);
    accepted += r->status == 202;
    limited += r->status == 429;
  }
  EXPECT_EQ(accepted, 10);
  EXPECT_EQ(limited, 40);
  EXPECT_EQ(metric("stackrace_hub_open_challenges"), 10);
  EXPECT_EQ(metric(R"(stackrace_hub_registrations_total{outcome="refused",reason="rate_limited"})"), 40);
}

TEST_F(HubHttpTest, AFloodFromOneAddressWithoutARateLimitMeetsTheCaps) {
  HubLimits limits;
  limits.registrations_per_second = 100'000;
  limits.registration_burst = 100'000;
  start(limits);
  // Open challenges: 16 per address.
  int accepted = 0, refused = 0;
  for (int port = 20'000; port < 20'200; ++port) {
    const httplib::Result r = post(body(port));
    ASSERT_TRUE(r);
    accepted += r->status == 202;
    refused += r->status == 429;
  }
  EXPECT_EQ(accepted, 16);
  EXPECT_EQ(refused, 184);
  EXPECT_EQ(metric("stackrace_hub_open_challenges"), 16);
  now_ms_ += 10'000;  // they lapse

  // Listed servers: 8 per address, each proven by a fake game server of its own.
  std::vector<std::unique_ptr<FakeGameServer>> games;
  int listed = 0;
  for (int i = 0; i < 10; ++i) {
    games.push_back(std::make_unique<FakeGameServer>());
    FakeGameServer& g = *games.back();
    const httplib::Result c = post(body(g.port()));
    ASSERT_TRUE(c);
    if (c->status != 202) {
      EXPECT_EQ(c->status, 429);
      EXPECT_EQ(c->body, R"({"error":"127.0.0.1 has 8 servers listed, the most"})");
      continue;
    }
    const std::optional<std::string> token = g.receive_challenge();
    ASSERT_TRUE(token);
    const httplib::Result l = post(body(g.port(), *token));
    ASSERT_TRUE(l);
    listed += l->status == 200;
  }
  EXPECT_EQ(listed, 8);
  EXPECT_EQ(metric("stackrace_hub_servers_listed"), 8);
  EXPECT_EQ(metric("stackrace_hub_open_challenges"), 0);
}

// A TCP connection to the hub that sends the start of a request and then nothing more (a slow client, or one
// holding request threads on purpose).
int slow_connection(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  const std::string partial = "GET /api/servers HTTP/1.1\r\nHost: hub\r\n";
  EXPECT_EQ(::send(fd, partial.data(), partial.size(), MSG_NOSIGNAL), static_cast<ssize_t>(partial.size()));
  return fd;
}

// True once the hub has closed `fd` (end of stream or a reset), waiting at most `deadline_ms` (a deadline, not a
// sleep: the hub's own read timeout closes it).
bool closed_by_the_hub(int fd, int deadline_ms) {
  char buf[512];
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, deadline_ms) != 1) return false;
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return true;  // whatever it said first (nothing, or a 4xx), the connection ends
  }
}

// Slow clients hold the hub's request threads (2 here) only until its read timeout (1 s here) cuts them off: a
// list request queued behind them is answered, and the slow connections are closed.
TEST_F(HubHttpTest, SlowClientsAreCutOffAndTheListStaysAvailable) {
  start({}, 1);
  const int slow_a = slow_connection(hub_->port());
  const int slow_b = slow_connection(hub_->port());
  const httplib::Result list = client_->Get("/api/servers");
  ASSERT_TRUE(list);
  EXPECT_EQ(list->status, 200);
  EXPECT_EQ(list->body.rfind("{\"servers\":[", 0), 0u) << list->body;
  EXPECT_TRUE(closed_by_the_hub(slow_a, 30'000));
  EXPECT_TRUE(closed_by_the_hub(slow_b, 30'000));
  ::close(slow_a);
  ::close(slow_b);
}

TEST_F(HubHttpTest, BadRequestsGetASentence) {
  start();
  const httplib::Result bad = post("{\"port\":7777}");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 400);
  EXPECT_EQ(bad->body, R"({"error":"info is missing"})");
  const httplib::Result big = post(std::string(kMaxBodyBytes + 1, ' '));
  ASSERT_TRUE(big);
  EXPECT_EQ(big->status, 413);
  EXPECT_EQ(big->body, R"({"error":"the body is larger than 8 KiB"})");
  EXPECT_EQ(get("/nope", 404),
            R"({"error":"no such page: see /api/servers, /, /records, /api/records, /metrics, /healthz"})");
  EXPECT_EQ(get("/healthz"), "ok\n");
  EXPECT_EQ(metric(R"(stackrace_hub_registrations_total{outcome="refused",reason="bad_request"})"), 1);
  // The oversized registration is answered by its route (the server reads bodies up to a submission's size).
  EXPECT_EQ(metric(R"(stackrace_hub_requests_total{route="register"})"), 2);
  EXPECT_EQ(metric(R"(stackrace_hub_requests_total{route="other"})"), 1);
}

}  // namespace
}  // namespace sr::hub::test
