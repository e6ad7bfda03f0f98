#include "tests/netsim/matrix_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <vector>

#include "bot/online_bot.h"
#include "common/bot/bot.h"
#include "common/engine/config.h"
#include "replays/store/replay_store.h"
#include "server/server.h"
#include "tests/netsim/impairment.h"
#include "tests/netsim/matrix_pump.h"
#include "tests/netsim/udp_proxy.h"
#include "tests/server/net_fixture.h"

namespace sr::netsim {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// Connecting, making the rooms and starting the countdowns each take a few round trips; the mobile profile's losses
// can stretch one to seconds.
constexpr auto kSetupTimeout = 60s;

// Every reconnect attempt (one every 2 s per racer while its link is dark) comes from a new socket, which the proxy
// counts as a new client; a 45 s blackout of 160 racers makes thousands.
constexpr std::size_t kMaxProxyClients = 1 << 16;

// One race: its bots (indices into the profile's bots) and what arrived about it.
struct RaceSlot {
  std::vector<std::size_t> bots;
  std::uint32_t room_id = 0;
  std::map<std::uint32_t, std::string> removals;  // player id -> the RacerEnded's reason
};

std::chrono::seconds automatic_race_timeout(const MatrixRun& run, const Profile& profile) {
  // The bots place about 2.5 pieces per line with lookahead 0; at "as fast as the keys allow" a piece takes well
  // under a second.
  const double pieces_per_s = run.pps_milli > 0 ? run.pps_milli / 1000.0 : 1.0;
  const auto game_s = static_cast<std::int64_t>(run.lines * 2.5 / pieces_per_s) + 1;
  TimeUs longest_blackout_us = 0;
  for (const Blackout& b : profile.blackouts) longest_blackout_us = std::max(longest_blackout_us, b.duration_us);
  return std::chrono::seconds(120 + 4 * game_s + longest_blackout_us / 1'000'000);
}

bot::BotSettings bot_settings(const MatrixRun& run, std::size_t index) {
  bot::BotSettings settings;
  settings.weights = *bot::weights_by_name("sprint");
  settings.pps_milli = run.pps_milli;
  settings.chooser.lookahead = 0;  // cheap: the matrix is about the network, not the bot's strength
  settings.timing_seed = run.seed * 1'000'003 + index + 1;  // each bot its own rhythm
  return settings;
}

std::string names_of(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < 5; ++i) out += (i == 0 ? "" : ", ") + names[i];
  if (names.size() > 5) out += fmt::format(" and {} more", names.size() - 5);
  return out;
}

const char* status_text(protocol::RacerStatus status) {
  switch (status) {
    case protocol::RacerStatus::kRacing: return "racing";
    case protocol::RacerStatus::kFinished: return "finished";
    case protocol::RacerStatus::kToppedOut: return "topped out";
    case protocol::RacerStatus::kDisconnected: return "disconnected (did not finish)";
    case protocol::RacerStatus::kRemoved: return "removed";
    case protocol::RacerStatus::kUnfinished: return "unfinished (the server's time cap)";
  }
  return "?";
}

class ProfileRunner {
 public:
  ProfileRunner(const MatrixRun& run, ProfileOutcome& out) : run_(run), out_(out) {}

  void run() {
    auto profile = profile_by_name(run_.profile);
    if (!profile) {
      out_.problems.push_back(profile.error());
      return;
    }
    server::ServerOptions options;
    // Every client reaches the server from 127.0.0.1 through the proxy.
    const auto clients = static_cast<std::size_t>(run_.races * run_.racers);
    options.lobby.max_players = std::max<std::size_t>(options.lobby.max_players, 2 * clients + 16);
    options.lobby.max_per_address = options.lobby.max_players;
    options.lobby.max_rooms = std::max<std::size_t>(options.lobby.max_rooms, static_cast<std::size_t>(run_.races));
    test::ServerFixture server(options);
    if (server.port() == 0) {
      out_.problems.push_back("the server did not start");
      return;
    }
    ProxyOptions proxy_options;
    proxy_options.target_port = server.port();
    proxy_options.profile = profile.value();
    proxy_options.seed = run_.seed;
    proxy_options.max_clients = kMaxProxyClients;
    auto proxy = UdpProxy::open(proxy_options);
    if (!proxy) {
      out_.problems.push_back("the proxy did not start: " + proxy.error());
      return;
    }
    proxy.value()->start();

    // A step that fails says why in the problems and ends the chain; the figures below count what got done.
    (void)(make_bots(proxy.value()->listen_port()) && connect() && make_rooms() && start_countdowns(*proxy.value()) &&
           race(race_timeout(profile.value())));
    collect_results();
    const server::ServerStats stats = server.stop();
    out_.desyncs = stats.rooms_total.desyncs;
    if (out_.removed == 0 && stats.rooms_total.racers_removed > 0) {
      out_.problems.push_back(fmt::format("the server removed {} racers", stats.rooms_total.racers_removed));
    }
    check_replays(server);
    proxy.value()->stop();
    out_.network = network_line(proxy.value()->counters());
  }

 private:
  [[nodiscard]] std::chrono::seconds race_timeout(const Profile& profile) const {
    return run_.race_timeout.count() > 0 ? run_.race_timeout : automatic_race_timeout(run_, profile);
  }

  bool make_bots(std::uint16_t port) {
    for (int r = 0; r < run_.races; ++r) {
      RaceSlot slot;
      for (int i = 0; i < run_.racers; ++i) {
        net::SessionOptions session;
        session.port = port;
        session.name = fmt::format("r{}-{}", r + 1, i + 1);
        session.client_version = "stackrace-netmatrix";
        slot.bots.push_back(bots_.size());
        bots_.push_back(std::make_unique<botcli::OnlineBot>(session, bot_settings(run_, bots_.size()), &probe_));
        race_of_.push_back(static_cast<std::size_t>(r));
        if (const auto error = bots_.back()->open()) {
          out_.problems.push_back(session.name + ": " + *error);
          return false;
        }
      }
      races_.push_back(std::move(slot));
    }
    std::vector<botcli::OnlineBot*> raw;
    for (const auto& b : bots_) raw.push_back(b.get());
    pump_ = std::make_unique<BotPump>(raw, [this](std::size_t bot, const protocol::Message& m) { on_message(bot, m); });
    return true;
  }

  void on_message(std::size_t bot, const protocol::Message& m) {
    if (const auto* notice = std::get_if<protocol::Notice>(&m);
        notice && notice->code == protocol::NoticeCode::kDesync) {
      ++out_.desync_notices;
      out_.problems.push_back(fmt::format("{}: desync notice: {}", bots_[bot]->name(), notice->text));
    } else if (const auto* ended = std::get_if<protocol::RacerEnded>(&m);
               ended && ended->status == protocol::RacerStatus::kRemoved) {
      races_[race_of_[bot]].removals[ended->player_id] = ended->reason;
    }
  }

  // Waits until `done` or the deadline; on timeout names the bots `stuck` picks out.
  bool wait(const char* what, const std::function<bool()>& done, std::chrono::seconds timeout,
            const std::function<bool(const botcli::OnlineBot&)>& stuck) {
    if (pump_->until(done, Clock::now() + timeout)) return true;
    std::vector<std::string> names;
    for (const auto& b : bots_) {
      if (stuck(*b)) {
        const std::string& reason = b->session().closed_reason();
        names.push_back(reason.empty() ? b->name() : b->name() + " (" + reason + ")");
      }
    }
    out_.problems.push_back(fmt::format("{} timed out after {} s: {}", what, timeout.count(), names_of(names)));
    return false;
  }

  bool connect() {
    const auto in_lobby = [](const botcli::OnlineBot& b) { return b.session().state() == net::Session::State::kLobby; };
    return wait(
        "connecting",
        [&] { return std::all_of(bots_.begin(), bots_.end(), [&](const auto& b) { return in_lobby(*b); }); },
        kSetupTimeout, [&](const botcli::OnlineBot& b) { return !in_lobby(b); });
  }

  bool make_rooms() {
    for (std::size_t r = 0; r < races_.size(); ++r) {
      protocol::RoomSettings settings;
      settings.name = fmt::format("netmatrix {}", r + 1);
      settings.config = engine::make_sprint(run_.lines);
      settings.max_racers = static_cast<std::uint8_t>(run_.racers);
      settings.auto_start = true;
      (void)bots_[races_[r].bots.front()]->session().create_room(settings);
    }
    const auto has_room = [](const botcli::OnlineBot& b) { return b.session().room().has_value(); };
    const auto leaders_have_rooms = [&] {
      return std::all_of(races_.begin(), races_.end(), [&](const RaceSlot& s) { return has_room(*bots_[s.bots[0]]); });
    };
    if (!wait("creating the rooms", leaders_have_rooms, kSetupTimeout,
              [&](const botcli::OnlineBot& b) { return !has_room(b) && b.name().ends_with("-1"); })) {
      return false;
    }
    for (RaceSlot& slot : races_) {
      slot.room_id = bots_[slot.bots[0]]->session().room()->room_id;
      for (std::size_t i = 1; i < slot.bots.size(); ++i) (void)bots_[slot.bots[i]]->session().join_room(slot.room_id);
    }
    return wait(
        "joining the rooms",
        [&] { return std::all_of(bots_.begin(), bots_.end(), [&](const auto& b) { return has_room(*b); }); },
        kSetupTimeout, [&](const botcli::OnlineBot& b) { return !has_room(b); });
  }

  bool start_countdowns(UdpProxy& proxy) {
    for (const auto& b : bots_) (void)b->session().set_ready(true);
    const auto counting = [](const botcli::OnlineBot& b) { return b.session().race() != nullptr; };
    const bool ok = wait(
        "starting the countdowns",
        [&] { return std::all_of(bots_.begin(), bots_.end(), [&](const auto& b) { return counting(*b); }); },
        kSetupTimeout, [&](const botcli::OnlineBot& b) { return !counting(b); });
    // Armed even when a room did not start, so that the others still meet the profile's event mid-race.
    proxy.arm();
    return ok;
  }

  bool race(std::chrono::seconds timeout) {
    // A bot is done when it has its race's results and the replay's id, or when its session closed (its room goes on
    // without it, and the results show it).
    const auto done = [](const botcli::OnlineBot& b) {
      const net::Session& s = b.session();
      return s.state() == net::Session::State::kClosed || (s.results() && s.stored_replay());
    };
    return wait(
        "racing", [&] { return std::all_of(bots_.begin(), bots_.end(), [&](const auto& b) { return done(*b); }); },
        timeout, [&](const botcli::OnlineBot& b) { return !done(b); });
  }

  void collect_results() {
    for (std::size_t r = 0; r < races_.size(); ++r) {
      const RaceSlot& slot = races_[r];
      const protocol::RaceResults* results = nullptr;
      for (std::size_t i : slot.bots) {
        if (const auto& got = bots_[i]->session().results(); got) results = &*got;
      }
      if (results == nullptr) continue;  // the wait that timed out said why
      ++out_.races;
      for (const protocol::RacerResult& rr : results->racers) {
        ++out_.racers;
        if (rr.status == protocol::RacerStatus::kFinished) {
          ++out_.finished;
        } else if (rr.status == protocol::RacerStatus::kRemoved) {
          ++out_.removed;
          const auto reason = slot.removals.find(rr.player_id);
          out_.problems.push_back(fmt::format("{} removed: {}", rr.name,
                                              reason == slot.removals.end() ? "(no reason seen)" : reason->second));
        } else {
          ++out_.other_endings;
          out_.problems.push_back(fmt::format("{} ended as {}", rr.name, status_text(rr.status)));
        }
        out_.unverified_sum_us += rr.unverified_us;
        out_.unverified_max_us = std::max(out_.unverified_max_us, rr.unverified_us);
      }
    }
    for (const auto& b : bots_) {
      const net::Session& s = b->session();
      out_.reconnects += s.reconnects();
      out_.resume_times_us.insert(out_.resume_times_us.end(), s.resume_times_us().begin(), s.resume_times_us().end());
      if (s.state() == net::Session::State::kClosed) out_.problems.push_back(b->name() + ": " + s.closed_reason());
    }
    out_.relay_delays_us = probe_.delays_us();
  }

  // Every file in the store, decoded and verified, and each racer's stored log against the one the racer's own
  // client kept: the replay holds their whole game, also what they played while their link was down.
  void check_replays(const test::ServerFixture& server) {
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(server.data_dir(), error)) {
      out_.replays_stored += entry.path().extension() == replay::ReplayStore::kExtension;
    }
    std::map<std::string, const botcli::OnlineBot*> by_name;
    for (const auto& b : bots_) by_name[b->name()] = b.get();
    for (const test::ServerFixture::StoredReplay& stored : server.stored_replays()) {
      if (stored.verified) {
        ++out_.replays_verified;
      } else {
        out_.problems.push_back(fmt::format("{} does not verify: {}", stored.file.filename().string(), stored.message));
      }
      for (const replay::Racer& racer : stored.replay.racers) {
        const auto bot = by_name.find(racer.name);
        if (bot == by_name.end()) continue;
        ++out_.logs_checked;
        const net::RaceView* view = bot->second->session().race();
        if (view != nullptr && view->mine() != nullptr && view->mine()->run.log() == racer.inputs) {
          ++out_.logs_whole;
        } else {
          out_.problems.push_back(fmt::format("{}: the replay holds {} changes, the racer's client logged {}",
                                              racer.name, racer.inputs.size(),
                                              view && view->mine() ? view->mine()->run.log().size() : 0));
        }
      }
    }
  }

  static std::string network_line(const ProxyCounters& c) {
    return fmt::format(
        "proxy: {} clients, {} address changes; up {} in, {} lost, {} blacked out; down {} in, {} lost, {} blacked "
        "out; {} duplicated, {} reordered",
        c.clients, c.address_changes, c.up.in, c.up.lost, c.up.blacked_out, c.down.in, c.down.lost, c.down.blacked_out,
        c.up.duplicated + c.down.duplicated, c.up.reordered + c.down.reordered);
  }

  const MatrixRun& run_;
  ProfileOutcome& out_;
  botcli::RelayProbe probe_;
  std::vector<std::unique_ptr<botcli::OnlineBot>> bots_;
  std::vector<std::size_t> race_of_;  // bot index -> race index
  std::vector<RaceSlot> races_;
  std::unique_ptr<BotPump> pump_;
};

}  // namespace

ProfileOutcome run_profile(const MatrixRun& run) {
  ProfileOutcome out;
  out.profile = run.profile;
  out.races_planned = run.races;
  out.racers_planned = run.races * run.racers;
  const auto started = Clock::now();
  ProfileRunner(run, out).run();
  out.wall_s = std::chrono::duration<double>(Clock::now() - started).count();
  return out;
}

}  // namespace sr::netsim
