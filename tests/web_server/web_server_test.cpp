// The web pages' server on loopback (server/web/web_server.h): real sockets, a site and a store in temporary
// directories, and a LiveTap fed by the test as the game loop would. Every answer is checked byte for byte where it
// matters: security headers, methods, limits, downloads, the live stream.
#include "server/web/web_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>

#include "common/engine/config.h"
#include "replays/store/replay_store.h"
#include "server/metrics.h"
#include "server/web/http_response.h"
#include "tests/replays/test_support.h"

namespace sr::server::web {
namespace {

namespace rt = replay::testing;
using namespace std::chrono_literals;

// A blocking TCP client from `from` (any 127.x address) with a deadline on every read.
class Client {
 public:
  Client(std::uint16_t port, const char* from = "127.0.0.1") {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in local{};
    local.sin_family = AF_INET;
    ::inet_pton(AF_INET, from, &local.sin_addr);
    (void)::bind(fd_, reinterpret_cast<sockaddr*>(&local), sizeof local);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(port);
    ::inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&to), sizeof to) == 0;
  }
  ~Client() { ::close(fd_); }
  [[nodiscard]] bool connected() const { return connected_; }

  void send(const std::string& bytes) {
    ASSERT_EQ(::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL), static_cast<ssize_t>(bytes.size()));
  }

  // Reads until `done(received)` or the peer closes or 10 s pass; returns everything received.
  std::string read_until(const std::function<bool(const std::string&)>& done) {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!done(in_) && std::chrono::steady_clock::now() < deadline) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      char buf[65536];
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) {
        closed_ = true;
        break;
      }
      in_.append(buf, static_cast<std::size_t>(n));
    }
    return in_;
  }
  // One whole response (head and Content-Length bytes of body), removed from what was received.
  std::string response() {
    std::size_t total = 0;
    read_until([&total](const std::string& s) {
      const std::size_t end = s.find("\r\n\r\n");
      if (end == std::string::npos) return false;
      const std::size_t cl = s.find("Content-Length: ");
      const std::size_t length = cl < end ? std::stoul(s.substr(cl + 16)) : 0;
      total = end + 4 + length;
      return s.size() >= total;
    });
    if (total == 0 || total > in_.size()) total = in_.size();
    std::string r = in_.substr(0, total);
    in_.erase(0, total);
    return r;
  }
  // The head of a response that has no body whatever its Content-Length says (an answer to HEAD), removed from what
  // was received.
  std::string head_only() {
    read_until([](const std::string& s) { return s.find("\r\n\r\n") != std::string::npos; });
    const std::size_t end = in_.find("\r\n\r\n");
    const std::size_t total = end == std::string::npos ? in_.size() : end + 4;
    std::string r = in_.substr(0, total);
    in_.erase(0, total);
    return r;
  }
  [[nodiscard]] bool closed() {
    read_until([this](const std::string&) { return closed_; });
    return closed_;
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
  bool closed_ = false;
  std::string in_;
};

std::string get(const std::string& path, const std::string& extra = "") {
  return "GET " + path + " HTTP/1.1\r\nHost: test\r\n" + extra + "\r\n";
}

std::string body_of(const std::string& response) { return response.substr(response.find("\r\n\r\n") + 4); }

class WebServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::temp_directory_path() / ("sr-web-" + std::to_string(::getpid()) + "-" +
                                                      ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_ / "site" / "js");
    write(root_ / "site" / "index.html", "<!DOCTYPE html><title>front</title>");
    write(root_ / "site" / "live.html", "live page");
    write(root_ / "site" / "game.html", "game page");
    write(root_ / "site" / "js" / "a.js", "export const a = 1;\n");
    write(root_ / "site" / "js" / "a.js.gz", "GZIPPED");
    auto store = replay::ReplayStore::open(root_ / "data", true);
    ASSERT_TRUE(store.ok());
    game_ = store.value().add(rt::small_sprint(20, 3)).value();
  }
  void TearDown() override {
    if (server_) server_->stop();
    std::filesystem::remove_all(root_);
  }

  static void write(const std::filesystem::path& p, const std::string& text) { std::ofstream(p) << text; }

  std::uint16_t start(WebLimits limits = {}) {
    WebOptions o;
    o.bind = "127.0.0.1";
    o.site_dir = root_ / "site";
    o.data_dir = root_ / "data";
    o.limits = std::move(limits);
    o.nice = 0;
    server_ = std::make_unique<WebServer>(o, tap_);
    const auto started = server_->start();
    EXPECT_TRUE(started.ok()) << started.error();
    return server_->port();
  }

  std::filesystem::path root_;
  std::string game_;
  LiveTap tap_;
  std::unique_ptr<WebServer> server_;
};

TEST_F(WebServerTest, PagesCarryTheSecurityHeaders) {
  Client c(start());
  c.send(get("/"));
  const std::string r = c.response();
  EXPECT_EQ(r.rfind("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 35\r\n", 0), 0u) << r;
  EXPECT_NE(r.find(std::string("\r\nContent-Security-Policy: ") + kContentSecurityPolicy + "\r\n"), std::string::npos);
  EXPECT_NE(r.find("script-src 'self' 'wasm-unsafe-eval';"), std::string::npos);  // no 'unsafe-inline' anywhere
  EXPECT_EQ(r.find("unsafe-inline"), std::string::npos);
  EXPECT_NE(r.find("\r\nX-Content-Type-Options: nosniff\r\n"), std::string::npos);
  EXPECT_NE(r.find("\r\nX-Frame-Options: DENY\r\n"), std::string::npos);
  EXPECT_EQ(body_of(r), "<!DOCTYPE html><title>front</title>");
}

TEST_F(WebServerTest, KeptAliveConnectionsAnswerInOrderWithGzipAndEtags) {
  Client c(start());
  c.send(get("/js/a.js", "Accept-Encoding: gzip, deflate\r\n") + get("/js/a.js") + get("/live/12"));
  const std::string gz = c.response();
  EXPECT_NE(gz.find("\r\nContent-Encoding: gzip\r\n"), std::string::npos);
  EXPECT_EQ(body_of(gz), "GZIPPED");
  const std::string plain = c.response();
  EXPECT_EQ(body_of(plain), "export const a = 1;\n");
  EXPECT_NE(plain.find("Content-Type: text/javascript; charset=utf-8"), std::string::npos);
  const std::size_t e = plain.find("ETag: ");
  ASSERT_NE(e, std::string::npos);
  const std::string etag = plain.substr(e + 6, plain.find("\r\n", e) - e - 6);
  EXPECT_EQ(body_of(c.response()), "live page");
  c.send(get("/js/a.js", "If-None-Match: " + etag + "\r\n"));
  EXPECT_EQ(c.response().rfind("HTTP/1.1 304 Not Modified\r\n", 0), 0u);
}

TEST_F(WebServerTest, OnlyGetAndHead) {
  Client c(start());
  c.send("DELETE /api/v1/rooms/1 HTTP/1.1\r\n\r\n");
  const std::string r = c.response();
  EXPECT_EQ(r.rfind("HTTP/1.1 405 Method Not Allowed\r\n", 0), 0u) << r;
  EXPECT_NE(r.find("\r\nAllow: GET, HEAD\r\n"), std::string::npos);
  c.send("HEAD / HTTP/1.1\r\n\r\n");
  const std::string head = c.head_only();
  EXPECT_EQ(head.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << head;
  EXPECT_NE(head.find("Content-Length: 35\r\n"), std::string::npos);
  // No body: the next answer on the connection follows the head at once.
  c.send(get("/"));
  const std::string next = c.response();
  EXPECT_EQ(next.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << next;
  EXPECT_EQ(body_of(next), "<!DOCTYPE html><title>front</title>");
  Client post(server_->port());
  post.send("POST /api/v1/games HTTP/1.1\r\nContent-Length: 4\r\n\r\nabcd");
  EXPECT_EQ(post.response().rfind("HTTP/1.1 413 ", 0), 0u);
  EXPECT_TRUE(post.closed());
}

TEST_F(WebServerTest, BadRequestsAreRefusedAndClosed) {
  Client c(start());
  c.send("GET /../../etc/passwd HTTP/1.1\r\n\r\n");
  EXPECT_EQ(c.response().rfind("HTTP/1.1 400 Bad Request\r\n", 0), 0u);
  EXPECT_TRUE(c.closed());
  Client big(server_->port());
  big.send("GET /" + std::string(20000, 'a'));
  EXPECT_EQ(big.response().rfind("HTTP/1.1 431 ", 0), 0u);
  Client missing(server_->port());
  missing.send(get("/nothing-here"));
  EXPECT_EQ(missing.response().rfind("HTTP/1.1 404 Not Found\r\n", 0), 0u);
  missing.send(get("/api/v1/nothing"));
  const std::string api = missing.response();
  EXPECT_EQ(api.rfind("HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\n", 0), 0u);
  EXPECT_EQ(body_of(api), "{\"error\":\"no such API address (see api/v1)\"}");
}

TEST_F(WebServerTest, ReplaysDownloadAsStored) {
  Client c(start());
  c.send(get("/games/" + game_ + ".srr"));
  const std::string r = c.response();
  EXPECT_NE(r.find("Content-Disposition: attachment; filename=\"" + game_ + ".srr\""), std::string::npos);
  const auto stored = rt::read_bytes(root_ / "data" / (game_ + ".srr"));
  EXPECT_EQ(body_of(r), std::string(stored.begin(), stored.end()));
  c.send(get("/games/ffffffffffffffff.srr"));
  EXPECT_EQ(c.response().rfind("HTTP/1.1 404 ", 0), 0u);
  c.send(get("/api/v1/games?limit=5"));
  const std::string list = c.response();
  EXPECT_EQ(list.rfind("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n", 0), 0u) << list;
  EXPECT_NE(body_of(list).find("\"id\":\"" + game_ + "\""), std::string::npos);
  c.send(get("/api/v1/games?limit=0"));
  EXPECT_EQ(body_of(c.response()), "{\"error\":\"limit: 1..100\"}");
}

TEST_F(WebServerTest, TheLobbyApiComesFromTheGameLoopsSnapshot) {
  Client c(start());
  LobbySnapshot s;
  s.server_name = "snap";
  s.game_port = 7000;
  tap_.lobby(s);
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  std::string body;
  while (std::chrono::steady_clock::now() < deadline) {
    c.send(get("/api/v1/server"));
    body = body_of(c.response());
    if (body.find("\"name\":\"snap\"") != std::string::npos) break;
    std::this_thread::sleep_for(10ms);  // polling an outside thread's state with a deadline
  }
  EXPECT_NE(body.find("\"game_port\":7000"), std::string::npos) << body;
}

TEST_F(WebServerTest, ALiveStreamCatchesUpThenFollowsAndEndsWithTheRoom) {
  const std::uint16_t port = start();
  protocol::RoomInfo info;
  info.room_id = 9;
  info.settings.name = "nine";
  info.settings.config = engine::make_sprint();
  tap_.room_message(9, false, protocol::RoomUpdate{info});
  protocol::CountdownStart cs;
  cs.race_id = 1;
  cs.config = engine::make_sprint();
  cs.racers = {{1, "ann", {}}};
  tap_.room_message(9, false, cs);
  tap_.room_message(9, false, protocol::RacerInputs{1, 1, 0, 500, {{500, engine::button::kHardDrop}}});
  Client c(port);
  std::string got;
  // The web thread takes the tap's messages in a moment: polled with a deadline.
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (std::chrono::steady_clock::now() < deadline) {
    Client probe(port);
    probe.send(get("/api/v1/rooms/9/live", "Connection: close\r\n"));
    got = probe.read_until([](const std::string& s) { return s.find("event: inputs") != std::string::npos; });
    if (got.find("event: inputs") != std::string::npos) break;
    std::this_thread::sleep_for(20ms);
  }
  ASSERT_NE(got.find("event: inputs"), std::string::npos) << got;
  c.send(get("/api/v1/rooms/9/live"));
  const std::string head =
      c.read_until([](const std::string& s) { return s.find("event: inputs") != std::string::npos; });
  EXPECT_EQ(head.rfind("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n", 0), 0u) << head;
  EXPECT_NE(head.find("\r\n\r\nretry: 3000\n\nevent: room\ndata: {\"id\":9,\"name\":\"nine\""), std::string::npos)
      << head;
  EXPECT_LT(head.find("event: race"), head.find("event: inputs"));
  tap_.room_message(9, false, protocol::Chat{protocol::ChatScope::kRoom, 1, "ann", "<hi>"});
  const std::string chat =
      c.read_until([](const std::string& s) { return s.find("event: chat") != std::string::npos; });
  EXPECT_NE(chat.find("event: chat\ndata: {\"from\":\"ann\",\"text\":\"\\u003chi\\u003e\"}\n\n"), std::string::npos);
  tap_.room_message(9, true, protocol::Message{});  // the room turned private
  const std::string end =
      c.read_until([](const std::string& s) { return s.find("event: closed") != std::string::npos; });
  EXPECT_NE(end.find("event: closed\ndata: {\"reason\":\"this room is private now\"}\n\n"), std::string::npos);
  EXPECT_TRUE(c.closed());
  Client gone(port);
  gone.send(get("/api/v1/rooms/9/live"));
  EXPECT_EQ(gone.response().rfind("HTTP/1.1 404 ", 0), 0u);
}

TEST_F(WebServerTest, LimitsPerAddress) {
  WebLimits limits;
  limits.max_connections_per_address = 2;
  limits.requests_per_second = 1;
  limits.request_burst = 3;
  limits.max_streams_per_address = 1;
  const std::uint16_t port = start(limits);
  Client a(port, "127.0.0.2"), b(port, "127.0.0.2"), c(port, "127.0.0.2");
  ASSERT_TRUE(a.connected() && b.connected() && c.connected());
  // The third connection from one address is answered 503 and closed at once.
  const std::string refused = c.response();
  EXPECT_EQ(refused.rfind("HTTP/1.1 503 Service Unavailable\r\n", 0), 0u) << refused;
  EXPECT_NE(refused.find("too many connections from your address"), std::string::npos);
  for (int i = 0; i < 3; ++i) {
    a.send(get("/"));
    EXPECT_EQ(a.response().rfind("HTTP/1.1 200 ", 0), 0u) << i;
  }
  a.send(get("/"));
  const std::string limited = a.response();
  EXPECT_EQ(limited.rfind("HTTP/1.1 429 Too Many Requests\r\n", 0), 0u) << limited;
  EXPECT_NE(limited.find("\r\nRetry-After: 1\r\n"), std::string::npos);
  // Another address is not affected.
  Client other(port, "127.0.0.3");
  other.send(get("/"));
  EXPECT_EQ(other.response().rfind("HTTP/1.1 200 ", 0), 0u);
}

TEST_F(WebServerTest, MetricsShareThePortWhenAsked) {
  MetricsBoard board;
  WebOptions o;
  o.bind = "127.0.0.1";
  o.site_dir = root_ / "site";
  o.data_dir = root_ / "data";
  o.metrics = &board;
  WebServer s(o, tap_);
  ASSERT_TRUE(s.start().ok());
  Client c(s.port());
  c.send(get("/healthz"));
  EXPECT_EQ(c.response().rfind("HTTP/1.1 503 ", 0), 0u);  // no snapshot yet: starting
  MetricsSnapshot snapshot;
  snapshot.stats.players = 7;
  snapshot.taken = std::chrono::steady_clock::now();
  board.publish(snapshot);
  c.send(get("/healthz"));
  EXPECT_EQ(body_of(c.response()), "ok\n");
  c.send(get("/metrics"));
  const std::string metrics = c.response();
  EXPECT_NE(metrics.find("Content-Type: text/plain; version=0.0.4; charset=utf-8"), std::string::npos);
  EXPECT_NE(body_of(metrics).find("stackrace_players 7\n"), std::string::npos) << body_of(metrics);
  // Without a board they are not here.
  Client other(start());
  other.send(get("/metrics"));
  EXPECT_EQ(other.response().rfind("HTTP/1.1 404 ", 0), 0u);
}

TEST_F(WebServerTest, AStartWithoutASiteSaysWhy) {
  WebOptions o;
  o.bind = "127.0.0.1";
  o.site_dir = root_ / "no-site";
  WebServer s(o, tap_);
  const auto started = s.start();
  ASSERT_FALSE(started.ok());
  EXPECT_EQ(started.error(), "no web site directory " + (root_ / "no-site").string());
}

}  // namespace
}  // namespace sr::server::web
