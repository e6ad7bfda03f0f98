#include "tests/abuse/abuse_run.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <random>
#include <thread>

#include "tests/abuse/metrics_text.h"
#include "tests/abuse/server_process.h"

namespace sr::abuse {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// Series that move in any run and say nothing of an attack by themselves.
const std::vector<std::string> kUninteresting{"stackrace_sent_bytes_total",
                                              "stackrace_received_bytes_total",
                                              "stackrace_sent_datagrams_total",
                                              "stackrace_received_datagrams_total",
                                              "stackrace_sent_messages_total",
                                              "stackrace_referee_cpu_seconds_total",
                                              "stackrace_inputs_total",
                                              "stackrace_uptime",
                                              "process_"};

// A free TCP port for the metrics endpoint (bound to 127.0.0.1:0, then released).
std::uint16_t free_tcp_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  std::uint16_t port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  ::close(fd);
  return port;
}

// A directory of its own for one run, removed at the end.
struct RunDir {
  std::filesystem::path path;
  RunDir() {
    std::random_device random;
    path = std::filesystem::temp_directory_path() / fmt::format("stackrace-abuse-{}-{:08x}", ::getpid(), random());
    std::filesystem::create_directories(path);
  }
  ~RunDir() {
    std::error_code error;
    std::filesystem::remove_all(path, error);
  }
};

std::vector<std::string> addresses(int count) {
  std::vector<std::string> out;
  for (int i = 0; i < count; ++i) out.push_back(fmt::format("127.0.0.{}", 2 + i));
  return out;
}

}  // namespace

AttackOutcome run_attack(const RunPlan& plan) {
  AttackOutcome out;
  out.attack = plan.name;
  out.addresses = plan.addresses;
  out.relay_p99_goal_us = plan.relay_p99_goal_us;
  const auto started = Clock::now();
  RunDir dir;
  std::error_code error;
  std::filesystem::copy(plan.seeded, dir.path / "store", std::filesystem::copy_options::recursive, error);
  if (error) {
    out.problems.push_back("cannot copy the seeded store: " + error.message());
    return out;
  }
  ServerProcess server;
  const std::uint16_t metrics_port = free_tcp_port();
  if (const auto s = server.start(plan.server, dir.path / "store", dir.path / "server.log", metrics_port); !s) {
    out.problems.push_back(s.error());
    return out;
  }
  server.start_sampling();
  const MetricValues before = parse_metrics(server.scrape(5s).value_or(""));

  HonestPlan honest_plan = plan.honest;
  honest_plan.port = server.port();
  const auto seen_seat = std::make_shared<SeenSeat>();
  honest_plan.seen_seat = seen_seat;
  HonestSide honest(honest_plan, out);
  if (honest.set_up(60s)) {
    AttackPlan attack_plan = plan.attack;
    attack_plan.kinds = plan.kinds;
    attack_plan.addresses = addresses(plan.addresses);
    attack_plan.port = server.port();
    // The spectators all crowd the first honest room, as in the issue: the others measure the harm done beside it.
    attack_plan.target_rooms = {honest.room_ids().front()};
    attack_plan.download_game_id = plan.seed_info.big_game_id;
    attack_plan.list_marker = plan.seed_info.oldest_game_id;
    attack_plan.seen_seat = seen_seat;
    Attacker attacker(attack_plan);
    if (const auto s = plan.kinds.empty() ? sr::Status<std::string>{} : attacker.start(); !s) {
      out.problems.push_back("the attack did not start: " + s.error());
    } else {
      // The memory guard: a server growing without bound would take the machine with it.
      std::atomic<bool> guard_stop{false};
      std::atomic<bool> guard_tripped{false};
      std::thread guard([&] {
        while (!guard_stop && !guard_tripped) {
          if (server.peak_kb() > plan.memory_guard_kb) {
            guard_tripped = true;
            (void)attacker.stop();  // main calls stop() again only after joining this thread
          }
          std::this_thread::sleep_for(50ms);  // the guard's sampling period
        }
      });
      honest.idle_for(plan.warm_up);
      honest.race(plan.race_timeout);
      const auto attack_until = started + plan.min_duration;
      while (Clock::now() < attack_until && !guard_tripped) honest.idle_for(100ms);
      guard_stop = true;
      guard.join();
      const AttackCounters counters = attacker.stop();
      out.attacker = plan.kinds.empty() ? std::string("none") : describe(counters);
      out.seats_taken = counters.seats_taken;
      out.memory_guard = guard_tripped;
      if (guard_tripped) {
        out.problems.push_back(
            fmt::format("the server passed {} MB: the attack was stopped there", plan.memory_guard_kb / 1024));
      }
    }
  }
  out.server_died = server.exited();
  if (!out.server_died) {
    const auto after = server.scrape(10s);
    if (after) {
      out.metrics_moved = metrics_moved(before, parse_metrics(*after), kUninteresting);
    } else {
      out.problems.push_back("the metrics endpoint did not answer after the attack");
    }
  }
  honest.close();
  out.peak_rss_kb = server.peak_kb();
  server.stop();
  out.wall_s = std::chrono::duration<double>(Clock::now() - started).count();
  return out;
}

}  // namespace sr::abuse
