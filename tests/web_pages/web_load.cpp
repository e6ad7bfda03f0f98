// stackrace-webload: the web pages under load, beside a race (web/README.md, "Speed"; issue 27's figures). A real
// stackrace-server child with its web pages on; a room of racing bots (the abuse suite's honest side: relay delays
// measured to the moment a packet arrives) races a sprint alone, then another beside
//  - `--watchers` live pages (Server-Sent Events clients, 5 per address from 127.0.0.2 on) following that race, and
//  - `--hammers` clients (one per address from 127.0.1.1 on) asking the API and downloading replays as fast as the
//    server answers, over kept-alive connections.
// It prints the racers' relay delay p50/p99 alone and with the web load, whether anyone was removed, the watchers'
// delay (a racer's change leaving its bot to a watcher reading it) p50/p99, the hammers' answers by status, and the
// server's peak memory and CPU (in all, and its game loop thread alone), then `webload: PASS` or `webload: FAIL
// (...)` against the goals: relay p99 under 5 ms with the watchers, nobody removed, watchers' p99 under
// 500 ms, every watcher served to the end.
//   tests/bench/web/web_load.sh [--watchers 500] [--hammers 50] [--racers 8] [--lines 40]
// (web_load.sh builds it in build/abuse, the Release tree with the tests that the abuse suite uses.)
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/abuse/abuse_report.h"
#include "tests/abuse/honest_side.h"
#include "tests/abuse/server_process.h"
#include "tests/abuse/store_seed.h"

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

std::uint16_t free_tcp_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  (void)::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

// A TCP connection to the web port from `from`; blocking unless `nonblocking`. -1 on failure.
int connect_from(const std::string& from, std::uint16_t port, bool nonblocking) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in local{};
  local.sin_family = AF_INET;
  ::inet_pton(AF_INET, from.c_str(), &local.sin_addr);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0) {
    ::close(fd);
    return -1;
  }
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(port);
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval tv{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0) {
    ::close(fd);
    return -1;
  }
  if (nonblocking) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  return fd;
}

std::int64_t field(const std::string& text, const char* name) {
  const std::size_t at = text.find(name);
  return at == std::string::npos ? -1 : std::atoll(text.c_str() + at + std::strlen(name));
}

// ------------------------------------------------------------------------------------------------ watchers
struct Received {
  std::uint32_t race = 0, player = 0, first_seq = 0, count = 0;
  Clock::time_point at;
};

struct Watchers {
  std::vector<Received> received;
  int connected = 0;  // answered 200 with an event stream
  int refused = 0;    // answered otherwise, or never connected
  int dropped = 0;    // their stream ended before the race did
  std::uint64_t frames = 0;
  std::uint64_t bytes = 0;
};

// `count` live pages of room `room`, 5 per address, read on one thread until `stop`.
void watch(std::uint16_t port, std::uint32_t room, int count, std::atomic<bool>& ready, const std::atomic<bool>& stop,
           Watchers& out) {
  struct Conn {
    int fd = -1;
    std::string in;
    bool streaming = false;
    bool open = true;
  };
  std::vector<Conn> conns(static_cast<std::size_t>(count));
  const int ep = ::epoll_create1(EPOLL_CLOEXEC);
  const std::string request =
      "GET /api/v1/rooms/" + std::to_string(room) + "/live HTTP/1.1\r\nHost: load\r\nAccept: text/event-stream\r\n\r\n";
  for (int i = 0; i < count; ++i) {
    const std::string from = "127.0.0." + std::to_string(2 + i / 5);
    Conn& c = conns[static_cast<std::size_t>(i)];
    c.fd = connect_from(from, port, true);
    if (c.fd < 0 ||
        ::send(c.fd, request.data(), request.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(request.size())) {
      ++out.refused;
      c.open = false;
      continue;
    }
    epoll_event e{};
    e.events = EPOLLIN;
    e.data.u32 = static_cast<std::uint32_t>(i);
    ::epoll_ctl(ep, EPOLL_CTL_ADD, c.fd, &e);
  }
  std::vector<epoll_event> events(256);
  char buf[65536];
  while (!stop.load()) {
    const int n = ::epoll_wait(ep, events.data(), static_cast<int>(events.size()), 50);
    const auto now = Clock::now();
    for (int k = 0; k < n; ++k) {
      Conn& c = conns[events[static_cast<std::size_t>(k)].data.u32];
      for (;;) {
        const ssize_t got = ::recv(c.fd, buf, sizeof buf, 0);
        if (got <= 0) {
          if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
          if (c.streaming)
            ++out.dropped;
          else
            ++out.refused;
          c.open = false;
          ::epoll_ctl(ep, EPOLL_CTL_DEL, c.fd, nullptr);
          break;
        }
        out.bytes += static_cast<std::uint64_t>(got);
        c.in.append(buf, static_cast<std::size_t>(got));
        if (!c.streaming) {
          const std::size_t head = c.in.find("\r\n\r\n");
          if (head == std::string::npos) continue;
          if (c.in.rfind("HTTP/1.1 200", 0) != 0) {
            ++out.refused;
            c.open = false;
            ::epoll_ctl(ep, EPOLL_CTL_DEL, c.fd, nullptr);
            break;
          }
          c.streaming = true;
          ++out.connected;
          c.in.erase(0, head + 4);
        }
        std::size_t start = 0;
        for (std::size_t end; (end = c.in.find("\n\n", start)) != std::string::npos; start = end + 2) {
          ++out.frames;
          if (c.in.compare(start, 14, "event: inputs\n") != 0) continue;
          const std::string frame = c.in.substr(start, end - start);
          const std::size_t changes = frame.find("\"changes\":[");
          std::uint32_t count_changes = 0;
          if (changes != std::string::npos && frame.compare(changes + 11, 2, "[]") != 0) {
            count_changes = 1;
            for (std::size_t p = frame.find("],[", changes); p != std::string::npos; p = frame.find("],[", p + 3)) {
              ++count_changes;
            }
          }
          out.received.push_back(Received{static_cast<std::uint32_t>(field(frame, "\"race_id\":")),
                                          static_cast<std::uint32_t>(field(frame, "\"player_id\":")),
                                          static_cast<std::uint32_t>(field(frame, "\"first_seq\":")), count_changes,
                                          now});
        }
        c.in.erase(0, start);
      }
    }
    if (!ready.load() && out.connected + out.refused >= count) ready.store(true);
  }
  for (Conn& c : conns) {
    if (c.fd >= 0) ::close(c.fd);
  }
  ::close(ep);
}

// ------------------------------------------------------------------------------------------------ hammers
struct Hammered {
  std::map<int, std::uint64_t> by_status;  // HTTP status -> answers (0: no answer)
  std::uint64_t bytes = 0;
};

// `count` clients, one per address, each asking the next of `paths` as soon as its last answer is in.
void hammer(std::uint16_t port, int count, const std::vector<std::string>& paths, const std::atomic<bool>& stop,
            Hammered& out) {
  std::vector<int> fds(static_cast<std::size_t>(count), -1);
  std::size_t next = 0;
  char buf[65536];
  while (!stop.load()) {
    for (int i = 0; i < count && !stop.load(); ++i) {
      int& fd = fds[static_cast<std::size_t>(i)];
      if (fd < 0) fd = connect_from("127.0.1." + std::to_string(1 + i), port, false);
      if (fd < 0) {
        ++out.by_status[0];
        continue;
      }
      const std::string request = "GET " + paths[next++ % paths.size()] + " HTTP/1.1\r\nHost: load\r\n\r\n";
      std::string in;
      std::size_t want = 0;
      bool ok = ::send(fd, request.data(), request.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(request.size());
      while (ok) {
        const ssize_t got = ::recv(fd, buf, sizeof buf, 0);
        if (got <= 0) {
          ok = false;
          break;
        }
        in.append(buf, static_cast<std::size_t>(got));
        const std::size_t head = in.find("\r\n\r\n");
        if (head == std::string::npos) continue;
        if (want == 0)
          want = head + 4 + static_cast<std::size_t>(std::max<std::int64_t>(0, field(in, "Content-Length: ")));
        if (in.size() >= want) break;
      }
      if (!ok) {
        ++out.by_status[0];
        ::close(fd);
        fd = -1;
        continue;
      }
      out.bytes += in.size();
      ++out.by_status[static_cast<int>(field(in, "HTTP/1.1 "))];
      if (in.find("Connection: close") != std::string::npos) {
        ::close(fd);
        fd = -1;
      }
    }
  }
  for (int fd : fds) {
    if (fd >= 0) ::close(fd);
  }
}

// ------------------------------------------------------------------------------------------------ the server's CPU
struct CpuTimes {
  double process_s = 0;    // every thread
  double main_loop_s = 0;  // the main thread (the game loop)
};

double ticks_of(const std::string& stat_file) {
  std::ifstream in(stat_file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t close = text.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream rest(text.substr(close + 2));
  std::string skip;
  for (int i = 0; i < 11; ++i) rest >> skip;  // state .. cmajflt
  double utime = 0, stime = 0;
  rest >> utime >> stime;
  return (utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

CpuTimes cpu_of(pid_t pid) {
  const std::string dir = "/proc/" + std::to_string(pid);
  return CpuTimes{ticks_of(dir + "/stat"), ticks_of(dir + "/task/" + std::to_string(pid) + "/stat")};
}

std::string ms(std::int64_t us) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", static_cast<double>(us) / 1000.0);
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  int watchers = 500, hammers = 50, racers = 8, lines = 40, pps_milli = 3000;
  std::string server_bin = STACKRACE_SERVER_BIN;
  CLI::App app{"stackrace-webload: the web pages under load beside a race (web/README.md, \"Speed\")"};
  app.add_option("--watchers", watchers, "live pages following the race")->capture_default_str();
  app.add_option("--hammers", hammers, "clients asking the API and downloading replays")->capture_default_str();
  app.add_option("--racers", racers, "bots in the race")->capture_default_str();
  app.add_option("--lines", lines, "the sprint's length")->capture_default_str();
  app.add_option("--server", server_bin, "the stackrace-server to run")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("stackrace-webload-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::printf("seeding the replay store...\n");
  std::fflush(stdout);
  const auto seeded = sr::abuse::seed_store(dir / "data", sr::abuse::SeedPlan{60, 16 * 1024, 1});
  if (!seeded) {
    std::fprintf(stderr, "webload: %s\n", seeded.error().c_str());
    return 2;
  }
  const std::uint16_t web_port = free_tcp_port();
  sr::abuse::ServerProcess server;
  if (const auto started = server.start(server_bin, dir / "data", dir / "server.log", free_tcp_port(),
                                        {"--web-port", std::to_string(web_port), "--web-bind", "127.0.0.1"});
      !started) {
    std::fprintf(stderr, "webload: %s\n", started.error().c_str());
    return 2;
  }
  server.start_sampling();
  char game[17];
  std::snprintf(game, sizeof game, "%016llx", static_cast<unsigned long long>(seeded.value().oldest_game_id));
  const std::vector<std::string> paths = {"/api/v1/games?limit=20",
                                          "/api/v1/rooms",
                                          "/games/" + std::string(game) + ".srr",
                                          "/api/v1/server",
                                          "/api/v1/records",
                                          "/games/" + std::string(game) + ".json",
                                          "/",
                                          "/js/live.js"};

  // The race alone.
  sr::abuse::AttackOutcome alone;
  const auto cpu0 = cpu_of(server.pid());
  const auto t0 = Clock::now();
  {
    sr::abuse::HonestSide side(sr::abuse::HonestPlan{server.port(), 1, racers, 1, lines, pps_milli, 1, nullptr}, alone);
    if (!side.set_up(30s)) {
      std::fprintf(stderr, "webload: the racers could not set up: %s\n",
                   alone.problems.empty() ? "" : alone.problems[0].c_str());
      return 2;
    }
    side.race(180s);
    side.close();
  }
  const auto cpu1 = cpu_of(server.pid());
  const double alone_wall = std::chrono::duration<double>(Clock::now() - t0).count();

  // The race beside the watchers and the hammers.
  sr::abuse::AttackOutcome loaded;
  Watchers seen;
  Hammered hammered;
  std::vector<std::int64_t> watcher_delays;
  CpuTimes cpu2, cpu3;
  double loaded_wall = 0;
  {
    sr::abuse::HonestSide side(sr::abuse::HonestPlan{server.port(), 1, racers, 1, lines, pps_milli, 2, nullptr},
                               loaded);
    if (!side.set_up(30s)) {
      std::fprintf(stderr, "webload: the racers could not set up\n");
      return 2;
    }
    const std::uint32_t room = side.room_ids().at(0);
    std::atomic<bool> ready{false}, stop{false};
    std::thread w([&] { watch(web_port, room, watchers, ready, stop, seen); });
    const auto deadline = Clock::now() + 60s;
    while (!ready.load() && Clock::now() < deadline) side.idle_for(20ms);  // the bots keep talking meanwhile
    std::thread h([&] { hammer(web_port, hammers, paths, stop, hammered); });
    cpu2 = cpu_of(server.pid());
    const auto t2 = Clock::now();
    side.race(180s);
    loaded_wall = std::chrono::duration<double>(Clock::now() - t2).count();
    cpu3 = cpu_of(server.pid());
    side.idle_for(1s);  // the last frames reach the watchers
    stop.store(true);
    h.join();
    w.join();
    for (const Received& r : seen.received) {
      for (std::uint32_t i = 0; i < r.count; ++i) {
        if (const auto sent = side.relay().sent_at(r.race, r.player, r.first_seq + i)) {
          watcher_delays.push_back(std::chrono::duration_cast<std::chrono::microseconds>(r.at - *sent).count());
        }
      }
    }
    side.close();
  }
  const std::int64_t peak_kb = server.peak_kb();
  const bool died = server.exited();
  server.stop();

  using sr::abuse::percentile;
  const auto p = [](const std::vector<std::int64_t>& v, double q) { return percentile(v, q).value_or(-1); };
  std::printf(
      "race alone:         %d/%d races, %d removed, relay p50 %s ms, p99 %s ms (%zu delays); server CPU %.0f%% "
      "(game loop %.0f%%)\n",
      alone.races_finished, alone.races_planned, alone.removed, ms(p(alone.relay_delays_us, 0.5)).c_str(),
      ms(p(alone.relay_delays_us, 0.99)).c_str(), alone.relay_delays_us.size(),
      100 * (cpu1.process_s - cpu0.process_s) / alone_wall, 100 * (cpu1.main_loop_s - cpu0.main_loop_s) / alone_wall);
  std::printf(
      "race with web load: %d/%d races, %d removed, relay p50 %s ms, p99 %s ms (%zu delays); server CPU %.0f%% "
      "(game loop %.0f%%)\n",
      loaded.races_finished, loaded.races_planned, loaded.removed, ms(p(loaded.relay_delays_us, 0.5)).c_str(),
      ms(p(loaded.relay_delays_us, 0.99)).c_str(), loaded.relay_delays_us.size(),
      100 * (cpu3.process_s - cpu2.process_s) / loaded_wall, 100 * (cpu3.main_loop_s - cpu2.main_loop_s) / loaded_wall);
  std::printf(
      "watchers:           %d connected, %d refused, %d dropped; %llu frames, %.1f MB; delay p50 %s ms, p99 %s ms, "
      "max %s ms (%zu deliveries)\n",
      seen.connected, seen.refused, seen.dropped, static_cast<unsigned long long>(seen.frames),
      static_cast<double>(seen.bytes) / 1e6, ms(p(watcher_delays, 0.5)).c_str(), ms(p(watcher_delays, 0.99)).c_str(),
      ms(watcher_delays.empty() ? -1 : *std::max_element(watcher_delays.begin(), watcher_delays.end())).c_str(),
      watcher_delays.size());
  std::uint64_t answers = 0;
  std::string statuses;
  for (const auto& [status, n] : hammered.by_status) {
    answers += n;
    statuses += " " + (status == 0 ? std::string("none") : std::to_string(status)) + ":" + std::to_string(n);
  }
  std::printf("hammers:            %d clients, %llu requests in %.0f s (%.0f/s), %.1f MB; by status%s\n", hammers,
              static_cast<unsigned long long>(answers), loaded_wall, static_cast<double>(answers) / loaded_wall,
              static_cast<double>(hammered.bytes) / 1e6, statuses.c_str());
  std::printf("server:             peak RSS %.1f MB%s\n", static_cast<double>(peak_kb) / 1024.0, died ? " (DIED)" : "");

  std::vector<std::string> missed;
  if (died) missed.push_back("the server died");
  if (loaded.races_finished < loaded.races_planned || alone.races_finished < alone.races_planned)
    missed.push_back("a race did not finish");
  if (loaded.removed + alone.removed > 0) missed.push_back("a racer was removed");
  if (p(loaded.relay_delays_us, 0.99) >= 5000)
    missed.push_back("relay p99 with the watchers " + ms(p(loaded.relay_delays_us, 0.99)) + " ms");
  if (watcher_delays.empty() || p(watcher_delays, 0.99) >= 500'000)
    missed.push_back("watchers' p99 " + ms(p(watcher_delays, 0.99)) + " ms");
  if (seen.connected < watchers || seen.dropped > 0) missed.push_back("not every watcher was served to the end");
  std::string verdict;
  for (const auto& m : missed) verdict += (verdict.empty() ? "" : "; ") + m;
  std::printf("webload: %s\n", missed.empty() ? "PASS" : ("FAIL (" + verdict + ")").c_str());
  std::filesystem::remove_all(dir);
  return missed.empty() ? 0 : 1;
}
