#include "bot/online_runner.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bot/external_player.h"
#include "bot/online_bot.h"

namespace sr::botcli {
namespace {

using Clock = std::chrono::steady_clock;

// A room the bots play in: the first bot creates or finds it, the others join.
struct Group {
  std::vector<OnlineBot*> bots;
  std::string room_name;
  std::uint32_t room_id = 0;
  int races_done = 0;
  std::uint32_t last_race = 0;     // race id whose results were printed with their replay
  std::uint32_t results_seen = 0;  // race id whose results were printed as they arrived
  bool waiting_for_replay = false;
};

std::string race_line(const Group& g, const protocol::RaceResults& results) {
  std::string line = fmt::format("race {} in '{}':", results.race_id, g.room_name);
  for (const auto& r : results.racers) {
    const char* status = r.status == protocol::RacerStatus::kFinished    ? ""
                         : r.status == protocol::RacerStatus::kToppedOut ? " topped out"
                         : r.status == protocol::RacerStatus::kRemoved   ? " removed"
                                                                         : " did not finish";
    std::string late = r.unverified_us > 0 ? " unverified " + race_time_text(r.unverified_us) : std::string();
    if (r.reconnects > 0) late += fmt::format(" resumed {}x", r.reconnects);
    line += fmt::format(" {}. {} {} {} lines {} pts {}.{:02} pps{}{} |",
                        r.place == 0 ? std::string("-") : std::to_string(r.place), r.name, race_time_text(r.time_us),
                        r.lines, r.score, r.pps_x100 / 100, r.pps_x100 % 100, status, late);
  }
  if (!line.empty() && line.back() == '|') line.pop_back();
  return line;
}

}  // namespace

double process_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

std::string race_time_text(engine::TimeUs t) { return fmt::format("{}.{:03}s", t / 1'000'000, (t / 1000) % 1000); }

double sorted_percentile_ms(const std::vector<std::int64_t>& sorted_us, double p) {
  if (sorted_us.empty()) return 0.0;
  const auto at = std::min(sorted_us.size() - 1, static_cast<std::size_t>(p * static_cast<double>(sorted_us.size())));
  return static_cast<double>(sorted_us[at]) / 1000.0;
}

net::PlayerKey bot_key(const OnlineOptions& options, const std::string& name) {
  if (!options.key) return net::PlayerKey::generate();
  return options.count == 1 ? *options.key : options.key->derived(name);
}

std::optional<HostPort> parse_host_port(const std::string& text) { return net::split_host_port(text, 7878); }

// Notices the server going away mid-run, so that the bots say so at once instead of waiting out --timeout: a bot
// whose session closed (the server shut down, or refused it), or every bot trying to resume for kGiveUpAfter with
// no answer (the server was killed, or the network to it is down).
class ServerWatch {
 public:
  static constexpr std::chrono::seconds kGiveUpAfter{15};

  std::optional<std::string> gone(const std::vector<std::unique_ptr<OnlineBot>>& bots, Clock::time_point now) {
    for (const auto& b : bots) {
      if (b->session().state() == net::Session::State::kClosed) {
        return fmt::format("{} lost the server: {}", b->name(), b->session().closed_reason());
      }
    }
    const bool all_away = std::all_of(bots.begin(), bots.end(), [](const auto& b) {
      return b->session().state() == net::Session::State::kReconnecting;
    });
    if (!all_away) {
      away_ = false;
      return std::nullopt;
    }
    if (!away_) {
      away_ = true;
      away_since_ = now;
      fmt::print(stderr, "stackrace-bot: every bot lost its connection; trying to resume for up to {} s\n",
                 kGiveUpAfter.count());
    }
    if (now - away_since_ < kGiveUpAfter) return std::nullopt;
    return fmt::format(
        "the server has not answered any bot for {} s since the connections dropped: it is gone or "
        "unreachable",
        kGiveUpAfter.count());
  }

 private:
  // (A flag and a time rather than an optional time: g++ -O3 takes the optional's time for uninitialised.)
  bool away_ = false;
  Clock::time_point away_since_{};
};

int run_online(const OnlineOptions& options) {
  const auto deadline = Clock::now() + std::chrono::seconds(options.timeout_s);
  const double cpu_start = process_cpu_seconds();
  const auto started = Clock::now();
  RelayProbe probe;
  std::vector<std::unique_ptr<OnlineBot>> bots;
  ExternalPlayer* external = nullptr;
  for (int i = 0; i < options.count; ++i) {
    net::SessionOptions session;
    session.host = options.host;
    session.port = options.port;
    session.name = fmt::format("{}{}", options.name_prefix, i + 1);
    session.client_version = "stackrace-bot 0.1.0";
    session.key = bot_key(options, session.name);
    bot::BotSettings settings = options.bot;
    settings.timing_seed = options.bot.timing_seed + static_cast<std::uint64_t>(i) + 1;  // each bot its own rhythm
    if (options.external) {
      assert(options.count == 1);
      auto player = std::make_unique<ExternalPlayer>(*options.external, settings, std::cerr);
      if (!player->open(options.create.value_or(engine::make_sprint()))) return 1;
      external = player.get();
      bots.push_back(std::make_unique<OnlineBot>(session, std::move(player), &probe));
    } else {
      bots.push_back(std::make_unique<OnlineBot>(session, settings, &probe));
    }
    if (const auto opened = bots.back()->open(); !opened) {
      fmt::print(stderr, "stackrace-bot: {}\n", opened.error());
      return 2;
    }
  }
  // With --poll-every-ms N a bot reads its socket only every N ms and when its own input is due, as a game reads the
  // network once per frame; else it reads traffic the moment it arrives, so relay delays are measured to then.
  net::SessionPump::Options pumping;
  if (options.poll_every_ms > 0) {
    pumping.idle_us = static_cast<std::int64_t>(options.poll_every_ms) * 1000;
    pumping.wake_on_traffic = false;
  }
  net::SessionPump pump = pump_bots(bots, {}, pumping);
  // Handshake.
  while (Clock::now() < deadline) {
    pump.once();
    const auto closed = std::find_if(
        bots.begin(), bots.end(), [](const auto& b) { return b->session().state() == net::Session::State::kClosed; });
    if (closed != bots.end()) {
      fmt::print(stderr, "stackrace-bot: {} could not join {}:{}: {}\n", (*closed)->name(), options.host, options.port,
                 (*closed)->session().closed_reason());
      return 2;
    }
    if (std::all_of(bots.begin(), bots.end(),
                    [](const auto& b) { return b->session().state() == net::Session::State::kLobby; })) {
      break;
    }
  }
  fmt::print("{} bots connected to {}:{}\n", bots.size(), options.host, options.port);
  std::fflush(stdout);  // progress lines reach a pipe (a script, a test) as they happen

  // Rooms.
  std::vector<Group> groups;
  const int size = options.room ? static_cast<int>(bots.size()) : options.room_size;
  for (std::size_t i = 0; i < bots.size(); i += static_cast<std::size_t>(size)) {
    Group g;
    for (std::size_t j = i; j < std::min(bots.size(), i + static_cast<std::size_t>(size)); ++j)
      g.bots.push_back(bots[j].get());
    g.room_name = options.room ? *options.room : fmt::format("{}-room-{}", options.name_prefix, groups.size() + 1);
    groups.push_back(std::move(g));
  }
  for (Group& g : groups) {
    OnlineBot& leader = *g.bots.front();
    if (options.room) {
      const std::uint64_t asked = leader.session().room_lists_received();
      leader.session().list_rooms();
      while (Clock::now() < deadline && leader.session().room_lists_received() == asked) pump.once();
      const auto& rooms = leader.session().room_list().rooms;
      const auto found = std::find_if(rooms.begin(), rooms.end(), [&](const auto& r) { return r.name == g.room_name; });
      if (found != rooms.end()) g.room_id = found->room_id;
    }
    if (g.room_id == 0) {
      if (!options.create) {
        fmt::print(stderr, "stackrace-bot: no room named '{}' on the server; add --create MODE to make one\n",
                   g.room_name);
        return 2;
      }
      protocol::RoomSettings settings;
      settings.name = g.room_name.substr(0, protocol::kMaxRoomNameBytes);
      settings.config = *options.create;
      settings.max_racers = static_cast<std::uint8_t>(std::min<std::size_t>(protocol::kMaxRacers, g.bots.size()));
      settings.auto_start = true;
      leader.session().create_room(settings);
    } else {
      leader.session().join_room(g.room_id);
    }
  }
  for (Group& g : groups) {
    while (Clock::now() < deadline && !g.bots.front()->session().room()) pump.once();
    if (!g.bots.front()->session().room()) {
      fmt::print(stderr, "stackrace-bot: {} could not create or join '{}'\n", g.bots.front()->name(), g.room_name);
      return 2;
    }
    g.room_id = g.bots.front()->session().room()->room_id;
    for (std::size_t i = 1; i < g.bots.size(); ++i) g.bots[i]->session().join_room(g.room_id);
  }
  for (Group& g : groups) {
    while (Clock::now() < deadline &&
           !std::all_of(g.bots.begin(), g.bots.end(), [](OnlineBot* b) { return b->session().room().has_value(); })) {
      pump.once();
    }
    // The lines to say go round the room's bots, so that none passes the server's chat rate.
    for (std::size_t i = 0; i < options.say.size(); ++i)
      (void)g.bots[i % g.bots.size()]->session().chat(options.say[i]);
    for (OnlineBot* b : g.bots) b->session().set_ready(true);
  }
  fmt::print("{} rooms ready; racing {} race(s) each\n", groups.size(), options.races);
  std::fflush(stdout);

  // Races.
  int finished_groups = 0;
  std::int64_t races = 0, finishers = 0, entries = 0;
  ServerWatch watch;
  // What follows looks at every bot and room: with thousands of racers it is done every 10 ms, not after each
  // serviced socket.
  constexpr auto kCheckEvery = std::chrono::milliseconds(10);
  Clock::time_point next_check = Clock::now();
  while (finished_groups < static_cast<int>(groups.size()) && Clock::now() < deadline) {
    pump.once();
    const Clock::time_point now = Clock::now();
    if (now < next_check) continue;
    next_check = now + kCheckEvery;
    if (const auto gone = watch.gone(bots, now)) {
      fmt::print(stderr, "stackrace-bot: {}\n", *gone);
      for (auto& b : bots) b->session().close();
      return 1;
    }
    if (external != nullptr && external->broken()) {
      fmt::print(stderr, "stackrace-bot: race abandoned: the external bot cannot play (see above)\n");
      for (auto& b : bots) b->session().close();
      return 1;
    }
    for (Group& g : groups) {
      if (g.races_done >= options.races) continue;
      const net::Session& s = g.bots.front()->session();
      if (!s.results() || s.results()->race_id == g.last_race) continue;
      if (s.results()->race_id != g.results_seen) {
        // The results as they arrive, before the replay's fate is known: tests/bench/kill_test.sh counts the races
        // whose results a player saw.
        g.results_seen = s.results()->race_id;
        fmt::print("{} | results\n", race_line(g, *s.results()));
        std::fflush(stdout);
      }
      // Print once the server has said where the replay is (stored, or not and why).
      if (!s.stored_replay() && !s.replay_not_stored()) continue;
      g.last_race = s.results()->race_id;
      ++g.races_done;
      ++races;
      for (const auto& r : s.results()->racers) {
        ++entries;
        finishers += r.status == protocol::RacerStatus::kFinished;
      }
      if (s.stored_replay()) {
        fmt::print("{} | replay {:016x}\n", race_line(g, *s.results()), *s.stored_replay());
      } else {
        fmt::print("{} | replay not stored: {}\n", race_line(g, *s.results()), *s.replay_not_stored());
      }
      if (external != nullptr && !external->race_note().empty()) {
        fmt::print("the external bot forfeited that race at {}\n", external->race_note());
      }
      std::fflush(stdout);
      if (g.races_done >= options.races) {
        ++finished_groups;
      } else {
        for (OnlineBot* b : g.bots) b->session().set_ready(true);
      }
    }
  }
  const bool all_done = finished_groups == static_cast<int>(groups.size());

  if (!options.delays_out.empty()) {
    std::FILE* out = std::fopen(options.delays_out.c_str(), "w");
    if (out == nullptr) {
      fmt::print(stderr, "stackrace-bot: cannot write {}: {}\n", options.delays_out, std::strerror(errno));
    } else {
      for (std::size_t i = 0; i < probe.delays_us().size(); ++i) {
        const double at = std::chrono::duration<double>(probe.measured_at()[i] - started).count();
        fmt::print(out, "{:.3f} {:.3f}\n", at, static_cast<double>(probe.delays_us()[i]) / 1000.0);
      }
      std::fclose(out);
    }
  }
  std::vector<std::int64_t> delays = probe.delays_us();
  std::sort(delays.begin(), delays.end());
  const auto pct = [&](double p) { return sorted_percentile_ms(delays, p); };
  std::int64_t decisions = 0;
  for (const auto& b : bots) decisions += b->decisions();
  fmt::print(
      "summary: {} races, {} of {} racers finished; relay delay median {:.2f} ms, p99 {:.2f} ms over {} inputs; "
      "bots used {:.1f} s CPU for {} decisions\n",
      races, finishers, entries, pct(0.5), pct(0.99), delays.size(), process_cpu_seconds() - cpu_start, decisions);
  if (external != nullptr) {
    fmt::print("{}\n", external->counters_text());
  }
  for (auto& b : bots) b->session().close();
  if (!all_done) {
    fmt::print(stderr, "stackrace-bot: timed out after {} s with {} of {} rooms done\n", options.timeout_s,
               finished_groups, groups.size());
    return 1;
  }
  return 0;
}

}  // namespace sr::botcli
