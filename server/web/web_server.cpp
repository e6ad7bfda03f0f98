#include "server/web/web_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "replays/store/pg_db.h"
#include "server/metrics.h"
#include "server/web/api.h"
#include "server/web/http_request.h"
#include "server/web/http_response.h"
#include "server/web/live_rooms.h"
#include "server/web/routes.h"
#include "server/web/static_site.h"

namespace sr::server::web {
namespace {

constexpr std::uint64_t kListenId = 1;
constexpr std::uint64_t kTapId = 2;
constexpr std::uint64_t kWakeId = 3;
constexpr std::uint64_t kFirstConnId = 16;
constexpr std::size_t kStreamChunkBytes = 64u << 10;  // live frames written at once to one watcher
constexpr std::int64_t kSweepEveryUs = 500'000;

std::int64_t now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Names the calling thread (top -H, /proc/PID/task/TID/comm) and lowers its priority by `nice`.
void web_thread(const char* name, int nice) {
  ::pthread_setname_np(::pthread_self(), name);
  if (nice <= 0) return;
  // Linux: the niceness of one thread (its tid), not the whole process.
  const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
  const int current = ::getpriority(PRIO_PROCESS, tid);
  (void)::setpriority(PRIO_PROCESS, tid, current + nice);
}

std::string address_text(const sockaddr_storage& a) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (a.ss_family == AF_INET) {
    ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(a).sin_addr, buf, sizeof buf);
  } else if (a.ss_family == AF_INET6) {
    const auto& a6 = reinterpret_cast<const sockaddr_in6&>(a);
    if (IN6_IS_ADDR_V4MAPPED(&a6.sin6_addr)) {
      ::inet_ntop(AF_INET, &a6.sin6_addr.s6_addr[12], buf, sizeof buf);
    } else {
      ::inet_ntop(AF_INET6, &a6.sin6_addr, buf, sizeof buf);
    }
  }
  return buf;
}

bool accepts_gzip(const HttpRequest& req) {
  const auto ae = req.header("accept-encoding");
  return ae && ae->find("gzip") != std::string_view::npos;
}

// The client a request is from: the peer, or for a trusted reverse proxy the last address it put in
// X-Forwarded-For (the one it saw; earlier ones are the client's own claims).
std::string client_of(const HttpRequest& req, const std::string& peer, const AddressLimits& limits) {
  if (!limits.trusted(peer)) return peer;
  const auto xff = req.header("x-forwarded-for");
  if (!xff || xff->empty()) return peer;
  std::string_view last = *xff;
  if (const std::size_t comma = last.rfind(','); comma != std::string_view::npos) last = last.substr(comma + 1);
  while (!last.empty() && last.front() == ' ') last.remove_prefix(1);
  while (!last.empty() && last.back() == ' ') last.remove_suffix(1);
  if (last.empty() || last.size() > 64) return peer;
  return std::string(last);
}

}  // namespace

std::filesystem::path default_site_dir() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path built = exe.parent_path().parent_path() / "web" / "site";
    if (std::filesystem::is_directory(built, ec)) return built;
  }
  return "/usr/share/stackrace/web";
}

class WebServer::Loop {
 public:
  Loop(const WebOptions& options, LiveTap& tap, WebCounters& counters)
      : options_(options), tap_(tap), counters_(counters), limits_(options.limits), rooms_(options.limits) {}

  ~Loop() {
    stop();
    for (const int fd : {listen_fd_, epoll_fd_, wake_fd_}) {
      if (fd >= 0) ::close(fd);
    }
  }

  sr::Result<std::uint16_t, std::string> open() {
    if (auto loaded = site_.load(options_.site_dir); !loaded) return loaded.error();
    // Every stream is a file descriptor: take what the system allows.
    rlimit files{};
    if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
      files.rlim_cur = files.rlim_max;
      (void)::setrlimit(RLIMIT_NOFILE, &files);
    }
    // A browser that closes while a file is sent must not kill the server (sendfile has no MSG_NOSIGNAL).
    ::signal(SIGPIPE, SIG_IGN);

    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST;
    addrinfo* found = nullptr;
    const std::string port_text = std::to_string(options_.port);
    if (::getaddrinfo(options_.bind.c_str(), port_text.c_str(), &hints, &found) != 0 || found == nullptr) {
      return "cannot serve web pages on " + options_.bind + ": not a numeric address";
    }
    listen_fd_ = ::socket(found->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    const int one = 1;
    if (listen_fd_ >= 0) (void)::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    const bool bound =
        listen_fd_ >= 0 && ::bind(listen_fd_, found->ai_addr, found->ai_addrlen) == 0 && ::listen(listen_fd_, 512) == 0;
    ::freeaddrinfo(found);
    if (!bound) {
      return "cannot serve web pages on " + options_.bind + ":" + port_text + ": " + std::strerror(errno) +
             " (port in use or not permitted)";
    }
    sockaddr_storage local{};
    socklen_t len = sizeof local;
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&local), &len);
    const std::uint16_t port = local.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6&>(local).sin6_port)
                                                           : ntohs(reinterpret_cast<sockaddr_in&>(local).sin_port);
    epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
    wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (epoll_fd_ < 0 || wake_fd_ < 0) return std::string("cannot start the web server: ") + std::strerror(errno);
    watch_fd(listen_fd_, kListenId, EPOLLIN);
    watch_fd(wake_fd_, kWakeId, EPOLLIN);
    if (tap_.wake_fd() >= 0) watch_fd(tap_.wake_fd(), kTapId, EPOLLIN);
    return port;
  }

  void start_threads() {
    io_ = std::thread([this] { run(); });
    for (std::size_t i = 0; i < std::max<std::size_t>(1, options_.workers); ++i) {
      workers_.emplace_back([this] { work(); });
    }
  }

  void stop() {
    stopping_.store(true);
    wake();
    {
      const std::lock_guard lock(jobs_mutex_);
      jobs_cv_.notify_all();
    }
    if (io_.joinable()) io_.join();
    for (std::thread& t : workers_) {
      if (t.joinable()) t.join();
    }
    workers_.clear();
    while (!conns_.empty()) close_conn(conns_.begin()->first);
  }

  [[nodiscard]] bool has_engine() const { return site_.has_engine(); }

 private:
  struct Piece {
    std::shared_ptr<const std::string> data;
    std::size_t offset = 0;
  };
  enum class State : std::uint8_t { kReading, kWorking, kWriting, kStreaming };
  struct Conn {
    int fd = -1;
    std::string peer;
    std::string client;  // the address the request limits apply to (client_of)
    State state = State::kReading;
    std::string in;
    std::deque<Piece> out;
    int file_fd = -1;
    off_t file_offset = 0;
    std::uint64_t file_left = 0;
    bool keep_alive = true;
    bool close_after = false;
    bool epollout = false;
    std::int64_t state_since_us = 0;
    std::int64_t last_write_us = 0;
    std::uint64_t inflight_bytes = 0;  // a worker's response body being sent (counted in inflight_)
    std::optional<Watcher> watcher;
    std::uint32_t room = 0;
    std::string stream_client;  // set while a live stream is counted for this address
  };
  struct Job {
    std::uint64_t conn = 0;
    Route route;
    QueryParams params;
    bool head_only = false;
  };
  struct Done {
    std::uint64_t conn = 0;
    HttpResponse response;
    bool head_only = false;
  };

  void watch_fd(int fd, std::uint64_t id, std::uint32_t events) {
    epoll_event e{};
    e.events = events;
    e.data.u64 = id;
    (void)::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &e);
  }

  void wake() {
    if (wake_fd_ < 0) return;
    const std::uint64_t one = 1;
    (void)!::write(wake_fd_, &one, sizeof one);
  }

  // ---------------------------------------------------------------- the I/O thread
  void run() {
    web_thread("sr-web-io", options_.nice);
    std::vector<epoll_event> events(256);
    std::int64_t next_sweep = now_us() + kSweepEveryUs;
    while (!stopping_.load()) {
      const int n =
          ::epoll_wait(epoll_fd_, events.data(), static_cast<int>(events.size()), tap_.wake_fd() >= 0 ? 250 : 20);
      const std::int64_t now = now_us();
      for (int i = 0; i < n; ++i) {
        const std::uint64_t id = events[static_cast<std::size_t>(i)].data.u64;
        const std::uint32_t ev = events[static_cast<std::size_t>(i)].events;
        if (id == kListenId) {
          accept_all(now);
        } else if (id == kTapId) {
          take_live(now);
        } else if (id == kWakeId) {
          std::uint64_t count = 0;
          (void)!::read(wake_fd_, &count, sizeof count);
          take_done(now);
        } else {
          on_conn_event(id, ev, now);
        }
      }
      if (tap_.wake_fd() < 0) take_live(now);
      if (now >= next_sweep) {
        next_sweep = now + kSweepEveryUs;
        sweep(now);
      }
    }
  }

  void accept_all(std::int64_t now) {
    for (;;) {
      sockaddr_storage addr{};
      socklen_t len = sizeof addr;
      const int fd = ::accept4(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        if (errno == EINTR || errno == ECONNABORTED) continue;
        return;  // EAGAIN, or out of descriptors (the next sweep frees some)
      }
      const std::string peer = address_text(addr);
      if (const WebRefusal refused = limits_.open_connection(peer); refused != WebRefusal::kNone) {
        ++counters_.refused;
        const std::string answer = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: " +
                                   std::to_string(std::strlen(refusal_text(refused)) + 1) +
                                   "\r\nRetry-After: 5\r\nConnection: close\r\n\r\n" + refusal_text(refused) + "\n";
        (void)!::send(fd, answer.data(), answer.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        ::close(fd);
        continue;
      }
      const int one = 1;
      (void)::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      const std::uint64_t id = next_id_++;
      auto conn = std::make_unique<Conn>();
      conn->fd = fd;
      conn->peer = peer;
      conn->client = peer;
      conn->state_since_us = now;
      conn->last_write_us = now;
      watch_fd(fd, id, EPOLLIN | EPOLLRDHUP);
      conns_.emplace(id, std::move(conn));
      counters_.connections.store(conns_.size());
    }
  }

  Conn* find(std::uint64_t id) {
    const auto it = conns_.find(id);
    return it == conns_.end() ? nullptr : it->second.get();
  }

  void close_conn(std::uint64_t id) {
    const auto it = conns_.find(id);
    if (it == conns_.end()) return;
    Conn& c = *it->second;
    (void)::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, c.fd, nullptr);
    ::close(c.fd);
    if (c.file_fd >= 0) ::close(c.file_fd);
    inflight_ -= c.inflight_bytes;
    limits_.close_connection(c.peer);
    if (!c.stream_client.empty()) limits_.close_stream(c.stream_client);
    if (c.room != 0) {
      if (auto w = watchers_.find(c.room); w != watchers_.end()) {
        w->second.erase(id);
        if (w->second.empty()) watchers_.erase(w);
      }
    }
    conns_.erase(it);
    counters_.connections.store(conns_.size());
    counters_.streams.store(limits_.streams());
  }

  void on_conn_event(std::uint64_t id, std::uint32_t ev, std::int64_t now) {
    Conn* c = find(id);
    if (c == nullptr) return;
    if ((ev & (EPOLLERR | EPOLLHUP)) != 0) return close_conn(id);
    if ((ev & EPOLLOUT) != 0) {
      if (!flush(id, *c, now)) return;
      if (c->state == State::kReading && !c->in.empty()) {
        process(id, *c, now);
        c = find(id);
        if (c == nullptr) return;
      }
    }
    if ((ev & (EPOLLIN | EPOLLRDHUP)) != 0) read_from(id, *c, now);
  }

  void read_from(std::uint64_t id, Conn& c, std::int64_t now) {
    char buf[16384];
    for (;;) {
      const ssize_t n = ::recv(c.fd, buf, sizeof buf, 0);
      if (n == 0) return close_conn(id);  // the browser closed: nothing more to send it
      if (n < 0) {
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) break;
        return close_conn(id);
      }
      if (c.state == State::kStreaming) continue;  // a stream reads nothing: only noticing the close matters
      c.in.append(buf, static_cast<std::size_t>(n));
      if (c.in.size() > kMaxHeadBytes * 2) break;
    }
    if (c.state == State::kReading) process(id, c, now);
  }

  // Answers the requests waiting in c.in, one at a time, while the connection is free for the next one.
  void process(std::uint64_t id, Conn& c, std::int64_t now) {
    while (c.state == State::kReading && !c.in.empty()) {
      HttpRequest req;
      const ParseResult parsed = parse_request(c.in, req);
      switch (parsed.status) {
        case ParseStatus::kIncomplete: return;
        case ParseStatus::kBad: return refuse_and_close(id, c, 400, parsed.error, now);
        case ParseStatus::kTooLarge: return refuse_and_close(id, c, 431, parsed.error, now);
        case ParseStatus::kHasBody: return refuse_and_close(id, c, 413, parsed.error, now);
        case ParseStatus::kDone: break;
      }
      c.in.erase(0, parsed.consumed);
      c.keep_alive = req.keep_alive;
      ++counters_.requests;
      if (!handle(id, c, req, now)) return;  // the connection is gone
    }
  }

  void refuse_and_close(std::uint64_t id, Conn& c, int status, const std::string& why, std::int64_t now) {
    HttpResponse r = text_response(status, why + "\n");
    r.close = true;
    c.in.clear();
    send(id, c, std::move(r), false, now);
  }

  // False when the connection was closed.
  bool handle(std::uint64_t id, Conn& c, const HttpRequest& req, std::int64_t now) {
    c.client = client_of(req, c.peer, limits_);
    const bool head_only = req.method == "HEAD";
    if (const WebRefusal refused = limits_.allow_request(c.client, now); refused != WebRefusal::kNone) {
      ++counters_.refused;
      HttpResponse r = text_response(429, std::string(refusal_text(refused)) + "\n");
      r.headers.emplace_back("Retry-After", "1");
      return send(id, c, std::move(r), head_only, now);
    }
    if (req.method != "GET" && !head_only) {
      HttpResponse r = text_response(405, "only GET (and HEAD) requests are served here\n");
      r.headers.emplace_back("Allow", "GET, HEAD");
      return send(id, c, std::move(r), false, now);
    }
    const Route route = web::route(req.path, options_.metrics != nullptr);
    const LobbySnapshot* lobby = rooms_.lobby() ? &*rooms_.lobby() : nullptr;
    switch (route.kind) {
      case RouteKind::kNotFound: return send(id, c, text_response(404, "no such page\n"), head_only, now);
      case RouteKind::kApiNotFound:
        return send(id, c, json_error(404, "no such API address (see api/v1)"), head_only, now);
      case RouteKind::kFile: return send(id, c, file_response(req, route.file), head_only, now);
      case RouteKind::kApiIndex: return send(id, c, json_response(api_index_json()), head_only, now);
      case RouteKind::kApiServer:
        return send(id, c, json_response(server_json(lobby, site_.has_engine())), head_only, now);
      case RouteKind::kApiRooms: return send(id, c, json_response(rooms_json(lobby)), head_only, now);
      case RouteKind::kApiRoom: {
        auto json = room_json(lobby, route.room);
        return send(id, c, json ? json_response(std::move(*json)) : json_error(404, "no such public room"), head_only,
                    now);
      }
      case RouteKind::kApiLadder: {
        auto json = ladder_json(lobby);
        return send(id, c,
                    json ? json_response(std::move(*json)) : json_error(404, "this server runs no contest ladder"),
                    head_only, now);
      }
      case RouteKind::kApiLive: return start_stream(id, c, route.room, head_only, now);
      case RouteKind::kMetrics:
      case RouteKind::kHealth: return send(id, c, metrics_response(route.kind), head_only, now);
      case RouteKind::kReplayFile:
        // A folder store's file goes out from here (sendfile); a store in a database is read by a worker, never on
        // this thread.
        if (!replay::pg::is_locator(options_.data_dir.native())) {
          return send(id, c, replay_file(route.game_id), head_only, now);
        }
        [[fallthrough]];
      case RouteKind::kApiGames:
      case RouteKind::kApiGame:
      case RouteKind::kApiRecords:
      case RouteKind::kReplayJson: {
        auto params = parse_query(req.query);
        if (!params) return send(id, c, json_error(400, "bad percent escape in the query"), head_only, now);
        if (!queue_job(Job{id, route, std::move(*params), head_only})) {
          ++counters_.refused;
          HttpResponse r = json_error(503, "the server is busy; try again in a moment");
          r.headers.emplace_back("Retry-After", "1");
          return send(id, c, std::move(r), head_only, now);
        }
        c.state = State::kWorking;
        c.state_since_us = now;
        return true;
      }
    }
    return send(id, c, text_response(404, "no such page\n"), head_only, now);
  }

  HttpResponse file_response(const HttpRequest& req, const std::string& path) {
    const StaticFile* f = site_.find(path);
    if (f == nullptr) return text_response(404, "no such page\n");
    HttpResponse r;
    r.headers.emplace_back("ETag", f->etag);
    r.headers.emplace_back("Cache-Control", "no-cache");
    r.headers.emplace_back("Vary", "Accept-Encoding");
    if (const auto inm = req.header("if-none-match"); inm && *inm == f->etag) {
      r.status = 304;
      return r;
    }
    r.content_type = f->content_type;
    if (f->gzip && accepts_gzip(req)) {
      r.body = f->gzip;
      r.headers.emplace_back("Content-Encoding", "gzip");
    } else {
      r.body = f->body;
    }
    return r;
  }

  HttpResponse replay_file(const std::string& game_id) {
    const std::filesystem::path file = options_.data_dir / (game_id + replay::ReplayStore::kExtension);
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    struct stat st {};
    if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      if (fd >= 0) ::close(fd);
      return text_response(404, "no game " + game_id + " on this server\n");
    }
    HttpResponse r;
    r.content_type = "application/octet-stream";
    r.file_fd = fd;
    r.file_bytes = static_cast<std::uint64_t>(st.st_size);
    r.headers.emplace_back("Content-Disposition", "attachment; filename=\"" + game_id + ".srr\"");
    // A stored replay never changes: its id is a hash of its bytes.
    r.headers.emplace_back("Cache-Control", "public, max-age=31536000, immutable");
    r.headers.emplace_back("Access-Control-Allow-Origin", "*");
    return r;
  }

  HttpResponse metrics_response(RouteKind kind) {
    const std::optional<MetricsSnapshot> snapshot = options_.metrics->latest();
    if (kind == RouteKind::kMetrics) {
      if (!snapshot) return text_response(503, "the server has not started yet\n");
      HttpResponse r;
      r.content_type = "text/plain; version=0.0.4; charset=utf-8";
      r.body = std::make_shared<const std::string>(prometheus_text(*snapshot));
      return r;
    }
    if (snapshot && is_fresh(*snapshot, std::chrono::steady_clock::now())) return text_response(200, "ok\n");
    return text_response(503, !snapshot ? "starting\n" : snapshot->stopping ? "stopping\n" : "main loop stalled\n");
  }

  bool start_stream(std::uint64_t id, Conn& c, std::uint32_t room, bool head_only, std::int64_t now) {
    std::shared_ptr<RoomFeed> feed = rooms_.room(room);
    if (!feed) return send(id, c, json_error(404, "no such public room"), head_only, now);
    if (head_only) return send(id, c, json_response("{}"), true, now);
    if (const WebRefusal refused = limits_.open_stream(c.client); refused != WebRefusal::kNone) {
      ++counters_.refused;
      HttpResponse r = json_error(429, refusal_text(refused));
      r.headers.emplace_back("Retry-After", "5");
      return send(id, c, std::move(r), false, now);
    }
    c.stream_client = c.client;
    counters_.streams.store(limits_.streams());
    HttpResponse r;
    r.content_type = "text/event-stream; charset=utf-8";
    r.stream = true;
    r.headers.emplace_back("Cache-Control", "no-cache");
    r.headers.emplace_back("X-Accel-Buffering", "no");  // nginx: pass events on as they come
    r.body = std::make_shared<const std::string>("retry: 3000\n\n");
    c.watcher = LiveRooms::watch(std::move(feed));
    c.room = room;
    watchers_[room].insert(id);
    return send(id, c, std::move(r), false, now);
  }

  // Queues the response; false when the connection was closed.
  bool send(std::uint64_t id, Conn& c, HttpResponse r, bool head_only, std::int64_t now) {
    if (r.close) c.close_after = true;
    c.out.push_back(Piece{std::make_shared<const std::string>(response_head(r, c.keep_alive && !c.close_after)), 0});
    if (!head_only) {
      if (r.body) c.out.push_back(Piece{std::move(r.body), 0});
      if (r.file_fd >= 0) {
        c.file_fd = std::exchange(r.file_fd, -1);
        c.file_offset = 0;
        c.file_left = r.file_bytes;
      }
    }
    c.state = r.stream ? State::kStreaming : State::kWriting;
    c.state_since_us = now;
    c.last_write_us = now;
    return flush(id, c, now);
  }

  // Writes what it can without waiting; false when the connection was closed.
  bool flush(std::uint64_t id, Conn& c, std::int64_t now) {
    for (int round = 0; round < 4; ++round) {
      while (!c.out.empty()) {
        iovec iov[32];
        int count = 0;
        for (auto it = c.out.begin(); it != c.out.end() && count < 32; ++it, ++count) {
          iov[count].iov_base = const_cast<char*>(it->data->data() + it->offset);
          iov[count].iov_len = it->data->size() - it->offset;
        }
        msghdr msg{};
        msg.msg_iov = iov;
        msg.msg_iovlen = static_cast<std::size_t>(count);
        const ssize_t n = ::sendmsg(c.fd, &msg, MSG_NOSIGNAL);
        if (n < 0) {
          if (errno == EINTR) continue;
          if (errno == EAGAIN || errno == EWOULDBLOCK) return want_write(id, c, true);
          close_conn(id);
          return false;
        }
        counters_.bytes_sent += static_cast<std::uint64_t>(n);
        c.last_write_us = now;
        std::size_t left = static_cast<std::size_t>(n);
        while (left > 0 && !c.out.empty()) {
          Piece& p = c.out.front();
          const std::size_t rest = p.data->size() - p.offset;
          if (left >= rest) {
            left -= rest;
            c.out.pop_front();
          } else {
            p.offset += left;
            left = 0;
          }
        }
      }
      while (c.file_left > 0) {
        const ssize_t n = ::sendfile(c.fd, c.file_fd, &c.file_offset, std::min<std::uint64_t>(c.file_left, 1u << 20));
        if (n < 0) {
          if (errno == EINTR) continue;
          if (errno == EAGAIN || errno == EWOULDBLOCK) return want_write(id, c, true);
          close_conn(id);
          return false;
        }
        if (n == 0) {  // the file shrank: the response cannot be completed
          close_conn(id);
          return false;
        }
        counters_.bytes_sent += static_cast<std::uint64_t>(n);
        c.last_write_us = now;
        c.file_left -= static_cast<std::uint64_t>(n);
      }
      if (c.file_fd >= 0) {
        ::close(c.file_fd);
        c.file_fd = -1;
      }
      // Everything queued is written.
      if (c.state == State::kStreaming) {
        if (LiveRooms::finished(*c.watcher)) {
          close_conn(id);
          return false;
        }
        std::vector<Frame> frames;
        LiveRooms::next_frames(*c.watcher, frames, kStreamChunkBytes);
        if (frames.empty()) return want_write(id, c, false);
        for (Frame& f : frames) c.out.push_back(Piece{std::move(f), 0});
        continue;
      }
      if (c.state == State::kWriting) {
        inflight_ -= c.inflight_bytes;
        c.inflight_bytes = 0;
        if (c.close_after || !c.keep_alive) {
          close_conn(id);
          return false;
        }
        // Free for the next request: the caller answers any that is waiting in c.in (process()).
        c.state = State::kReading;
        c.state_since_us = now;
        return want_write(id, c, false);
      }
      return want_write(id, c, false);
    }
    // A fast reader of a busy stream: the rest goes out on the next EPOLLOUT, after the other connections' turn.
    return want_write(id, c, true);
  }

  bool want_write(std::uint64_t id, Conn& c, bool on) {
    if (c.epollout == on) return true;
    c.epollout = on;
    epoll_event e{};
    e.events = EPOLLIN | EPOLLRDHUP | (on ? EPOLLOUT : 0u);
    e.data.u64 = id;
    (void)::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, c.fd, &e);
    return true;
  }

  void pump_watchers(std::uint32_t room, std::int64_t now) {
    const auto it = watchers_.find(room);
    if (it == watchers_.end()) return;
    const std::vector<std::uint64_t> ids(it->second.begin(), it->second.end());
    for (const std::uint64_t id : ids) {
      Conn* c = find(id);
      if (c != nullptr && c->out.empty() && c->file_left == 0) (void)flush(id, *c, now);
    }
  }

  void take_live(std::int64_t now) {
    LiveTap::Batch batch = tap_.take();
    if (batch.messages.empty() && !batch.lobby && !batch.overflowed) return;
    for (const RoomId room : rooms_.apply(std::move(batch))) pump_watchers(room, now);
    counters_.feed_bytes.store(rooms_.bytes());
  }

  void sweep(std::int64_t now) {
    const WebLimits& l = options_.limits;
    std::vector<std::uint64_t> to_close;
    std::vector<std::uint64_t> to_ping;
    for (const auto& [id, conn] : conns_) {
      const Conn& c = *conn;
      switch (c.state) {
        case State::kReading:
          if (now - c.state_since_us > (c.in.empty() ? l.idle_timeout_us : l.head_timeout_us)) to_close.push_back(id);
          break;
        case State::kWorking: break;
        case State::kWriting:
          if (now - c.last_write_us > l.stall_timeout_us) to_close.push_back(id);
          break;
        case State::kStreaming:
          if ((!c.out.empty() || c.file_left > 0) && now - c.last_write_us > l.stall_timeout_us) {
            to_close.push_back(id);
          } else if (c.out.empty() && now - c.last_write_us > l.stream_ping_us) {
            to_ping.push_back(id);
          }
          break;
      }
    }
    for (const std::uint64_t id : to_close) close_conn(id);
    static const auto kPing = std::make_shared<const std::string>(": ping\n\n");
    for (const std::uint64_t id : to_ping) {
      Conn* c = find(id);
      if (c == nullptr) continue;
      c->out.push_back(Piece{kPing, 0});
      (void)flush(id, *c, now);
    }
    limits_.forget_idle(now);
  }

  // ---------------------------------------------------------------- workers
  bool queue_job(Job job) {
    const std::lock_guard lock(jobs_mutex_);
    if (jobs_.size() >= options_.limits.max_pending_jobs) return false;
    jobs_.push_back(std::move(job));
    jobs_cv_.notify_one();
    return true;
  }

  void work() {
    web_thread("sr-web-worker", options_.nice);
    StoreReader reader(options_.data_dir);
    for (;;) {
      Job job;
      {
        std::unique_lock lock(jobs_mutex_);
        jobs_cv_.wait(lock, [this] { return stopping_.load() || !jobs_.empty(); });
        if (stopping_.load()) return;
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      HttpResponse response;
      try {
        response = reader.answer(job.route, job.params);
      } catch (const std::exception& e) {  // the I/O edge: a store or file error must not end the thread
        response = json_error(500, std::string("internal error: ") + e.what());
      }
      {
        const std::lock_guard lock(done_mutex_);
        done_.push_back(Done{job.conn, std::move(response), job.head_only});
      }
      wake();
    }
  }

  void take_done(std::int64_t now) {
    std::vector<Done> done;
    {
      const std::lock_guard lock(done_mutex_);
      done.swap(done_);
    }
    for (Done& d : done) {
      Conn* c = find(d.conn);
      if (c == nullptr || c->state != State::kWorking) continue;
      const std::uint64_t bytes = d.response.body_bytes();
      if (inflight_ + bytes > options_.limits.max_response_bytes_in_flight) {
        ++counters_.refused;
        HttpResponse busy = json_error(503, "the server is busy; try again in a moment");
        busy.headers.emplace_back("Retry-After", "1");
        if (send(d.conn, *c, std::move(busy), d.head_only, now) && c->state == State::kReading) {
          process(d.conn, *c, now);
        }
        continue;
      }
      inflight_ += bytes;
      c->inflight_bytes = bytes;
      if (send(d.conn, *c, std::move(d.response), d.head_only, now) && c->state == State::kReading) {
        process(d.conn, *c, now);
      }
    }
  }

  const WebOptions& options_;
  LiveTap& tap_;
  WebCounters& counters_;
  AddressLimits limits_;
  LiveRooms rooms_;
  StaticSite site_;
  int listen_fd_ = -1;
  int epoll_fd_ = -1;
  int wake_fd_ = -1;  // workers' answers, and stop()
  std::atomic<bool> stopping_{false};
  std::thread io_;
  std::vector<std::thread> workers_;
  std::map<std::uint64_t, std::unique_ptr<Conn>> conns_;
  std::map<std::uint32_t, std::set<std::uint64_t>> watchers_;  // live streams by room
  std::uint64_t next_id_ = kFirstConnId;
  std::uint64_t inflight_ = 0;
  std::mutex jobs_mutex_;
  std::condition_variable jobs_cv_;
  std::deque<Job> jobs_;
  std::mutex done_mutex_;
  std::vector<Done> done_;
};

WebServer::WebServer(WebOptions options, LiveTap& tap) : options_(std::move(options)), tap_(tap) {}

WebServer::~WebServer() { stop(); }

sr::Status<std::string> WebServer::start() {
  loop_ = std::make_unique<Loop>(options_, tap_, counters_);
  auto opened = loop_->open();
  if (!opened) {
    loop_.reset();
    return opened.error();
  }
  port_ = opened.value();
  loop_->start_threads();
  return {};
}

void WebServer::stop() {
  if (loop_) loop_->stop();
  loop_.reset();
}

bool WebServer::has_engine() const { return loop_ && loop_->has_engine(); }

}  // namespace sr::server::web
