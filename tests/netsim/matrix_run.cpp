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
#include "tests/netsim/udp_proxy.h"
#include "tests/server/net_fixture.h"

namespace sr::netsim {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// Connecting, making the rooms and starting the countdowns take a few round trips, but on the mobile profile an idle
// connection can drop (tests/netsim/README.md, "The network matrix"), and connecting again takes until the server has
// let go of the old one (its name is taken until then).
constexpr auto kSetupTimeout = 120s;
// A refused request (the room closed, or is full of a racer whose connection dropped) is asked again after this.
constexpr auto kRequestRetry = 1s;
// A bot whose connection dropped before its race connects again after this.
constexpr auto kReopenAfter = 1s;
// Once one racer of a race has its CountdownStart, the others have theirs within this.
constexpr auto kCountdownArrives = 10s;

// Every reconnect attempt (one every 2 s per racer while its link is dark) comes from a new socket, which the proxy
// counts as a new client; a 45 s blackout of 160 racers makes thousands.
constexpr std::size_t kMaxProxyClients = 1 << 16;

// One race: its bots (indices into the profile's bots) and what arrived about it.
struct RaceSlot {
  std::vector<std::size_t> bots;
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

// Where one bot is in getting to its race's countdown.
struct BotSetup {
  bool asked = false;              // asked to create or join its room, no answer yet
  bool dropped = false;            // its connection dropped before the race: a new bot takes its place at next_request
  Clock::time_point next_request;  // no request (or new connection) before this
};

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
    options.lobby.address.trusted = {"127.0.0.1"};  // their joins and rooms are not an attack
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
    port_ = proxy.value()->listen_port();
    (void)(make_bots() && set_up(*proxy.value()) && race(race_timeout(profile.value())));
    collect_results();
    const server::ServerStats stats = server.stop();
    out_.desyncs = stats.rooms_total.desyncs;
    if (out_.removed == 0 && stats.rooms_total.racers_removed > 0) {
      out_.problems.push_back(fmt::format("the server removed {} racers", stats.rooms_total.racers_removed));
    }
    check_replays(server);
    if (!setup_drops_.empty()) {
      out_.problems.push_back(fmt::format("{} connections dropped before their race, and the bots connected again: {}",
                                          setup_drops_.size(), names_of(setup_drops_)));
    }
    proxy.value()->stop();
    out_.network = network_line(proxy.value()->counters());
  }

 private:
  [[nodiscard]] std::chrono::seconds race_timeout(const Profile& profile) const {
    return run_.race_timeout.count() > 0 ? run_.race_timeout : automatic_race_timeout(run_, profile);
  }

  [[nodiscard]] net::SessionOptions session_options(std::size_t index) const {
    net::SessionOptions session;
    session.port = port_;
    session.name = fmt::format("r{}-{}", index / static_cast<std::size_t>(run_.racers) + 1,
                               index % static_cast<std::size_t>(run_.racers) + 1);
    session.client_version = "stackrace-netmatrix";
    return session;
  }

  // A new bot at `index` (its first, or the next after its connection dropped before its race), connecting.
  bool open_bot(std::size_t index) {
    auto bot = std::make_unique<botcli::OnlineBot>(session_options(index), bot_settings(run_, index), &probe_);
    if (const auto opened = bot->open(); !opened) {
      out_.problems.push_back(bot->name() + ": " + opened.error());
      return false;
    }
    bots_[index] = std::move(bot);
    setup_[index] = BotSetup{};
    return true;
  }

  bool make_bots() {
    const auto count = static_cast<std::size_t>(run_.races * run_.racers);
    bots_.resize(count);
    setup_.resize(count);
    for (int r = 0; r < run_.races; ++r) {
      RaceSlot slot;
      for (int i = 0; i < run_.racers; ++i) slot.bots.push_back(static_cast<std::size_t>(r * run_.racers + i));
      races_.push_back(std::move(slot));
    }
    for (std::size_t i = 0; i < count; ++i) {
      race_of_.push_back(i / static_cast<std::size_t>(run_.racers));
      if (!open_bot(i)) return false;
    }
    pump_ = std::make_unique<net::SessionPump>(
        botcli::pump_bots(bots_, [this](std::size_t bot, const protocol::Message& m) { on_message(bot, m); }));
    return true;
  }

  void on_message(std::size_t bot, const protocol::Message& m) {
    if (const auto* notice = std::get_if<protocol::Notice>(&m)) {
      if (notice->code == protocol::NoticeCode::kDesync) {
        ++out_.desync_notices;
        out_.problems.push_back(fmt::format("{}: desync notice: {}", bots_[bot]->name(), notice->text));
      } else if (notice->about == protocol::MessageId::kCreateRoom || notice->about == protocol::MessageId::kJoinRoom ||
                 notice->about == protocol::MessageId::kSetReady) {
        // Refused (the room closed, or is full of a racer whose connection dropped): asked again a little later.
        setup_[bot].asked = false;
        setup_[bot].next_request = Clock::now() + kRequestRetry;
      }
    } else if (const auto* ended = std::get_if<protocol::RacerEnded>(&m);
               ended && ended->status == protocol::RacerStatus::kRemoved) {
      races_[race_of_[bot]].removals[ended->player_id] = ended->reason;
    }
  }

  [[nodiscard]] bool started(const RaceSlot& slot) const {
    return std::any_of(slot.bots.begin(), slot.bots.end(), [&](std::size_t i) { return bots_[i]->session().race(); });
  }

  // Whether every racer in the room `info` is one of this race's bots on its current connection: then none is the
  // leftover of a connection that dropped, and the room may start.
  [[nodiscard]] bool room_is_complete(const RaceSlot& slot, const protocol::RoomInfo& info) const {
    int racers = 0;
    for (const protocol::RoomMember& m : info.members) {
      if (m.role != protocol::Role::kRacer) continue;
      ++racers;
      const bool live = std::any_of(slot.bots.begin(), slot.bots.end(), [&](std::size_t i) {
        const net::Session& s = bots_[i]->session();
        return s.state() == net::Session::State::kRoom && s.player_id() == m.player_id;
      });
      if (!live) return false;
    }
    return racers == run_.racers;
  }

  // One step of getting race `slot` to its countdown: each bot connects, the first in the lobby creates the room
  // (when no bot of the race is in one), the others join it, and once the room holds exactly this race's bots, each
  // says it is ready and the room starts by itself. A bot whose connection drops before then is replaced by a new
  // one, as a player would connect again.
  void step_setup(RaceSlot& slot) {
    const auto now = Clock::now();
    // The race's room is the one most of its bots are in: a drop at the wrong moment can leave two.
    std::map<std::uint32_t, int> in_room;
    bool asking = false;  // a bot in the lobby has asked to create or join a room and waits for the answer
    for (std::size_t i : slot.bots) {
      const net::Session& s = bots_[i]->session();
      if (s.state() == net::Session::State::kRoom && s.room()) ++in_room[s.room()->room_id];
      asking = asking || (s.state() == net::Session::State::kLobby && setup_[i].asked);
    }
    std::uint32_t room_id = 0;
    int most = 0;
    for (const auto& [id, count] : in_room) {
      if (count > most) std::tie(room_id, most) = std::pair(id, count);
    }
    for (std::size_t i : slot.bots) {
      net::Session& s = bots_[i]->session();
      BotSetup& setup = setup_[i];
      switch (s.state()) {
        case net::Session::State::kClosed:
          if (!setup.dropped) {
            setup.dropped = true;
            ++out_.setup_drops;
            setup_drops_.push_back(bots_[i]->name() + " (" + s.closed_reason() + ")");
            setup.next_request = now + kReopenAfter;
          } else if (now >= setup.next_request && !open_bot(i)) {
            setup.next_request = now + kReopenAfter;
          }
          break;
        case net::Session::State::kLobby:
          if (setup.asked || now < setup.next_request) break;
          if (room_id != 0) {
            (void)s.join_room(room_id);
          } else if (!asking) {
            asking = true;
            protocol::RoomSettings settings;
            settings.name = fmt::format("netmatrix {}", race_of_[i] + 1);
            settings.config = engine::make_sprint(run_.lines);
            settings.max_racers = static_cast<std::uint8_t>(run_.racers);
            settings.auto_start = true;
            (void)s.create_room(settings);
          } else {
            break;
          }
          setup.asked = true;
          break;
        case net::Session::State::kRoom: {
          setup.asked = false;  // a room it later leaves (its connection drops) is asked for again
          if (s.room()->room_id != room_id) {
            if (now >= setup.next_request) (void)s.leave_room();  // then joins the race's room from the lobby
            setup.next_request = now + kRequestRetry;
            break;
          }
          const protocol::RoomMember* me = nullptr;
          for (const auto& m : s.room()->members) me = m.player_id == s.player_id() ? &m : me;
          if (me != nullptr && !me->ready && now >= setup.next_request && room_is_complete(slot, *s.room())) {
            (void)s.set_ready(true);
            setup.next_request = now + kRequestRetry;  // until the room says so
          }
          break;
        }
        default: break;
      }
    }
  }

  bool set_up(UdpProxy& proxy) {
    const auto deadline = Clock::now() + kSetupTimeout;
    bool ok = true;
    while (!std::all_of(races_.begin(), races_.end(), [&](const RaceSlot& slot) { return started(slot); })) {
      if (Clock::now() >= deadline) {
        std::vector<std::string> names;
        for (std::size_t i = 0; i < bots_.size(); ++i) {
          if (!started(races_[race_of_[i]])) names.push_back(bots_[i]->name() + " (" + state_text(i) + ")");
        }
        out_.problems.push_back(
            fmt::format("starting the races timed out after {} s: {}", kSetupTimeout.count(), names_of(names)));
        ok = false;
        break;
      }
      for (RaceSlot& slot : races_) {
        if (!started(slot)) step_setup(slot);
      }
      pump_->once();
    }
    // Every bot of a started race gets its CountdownStart within a round trip or so.
    const auto has_race_or_closed = [&](std::size_t i) {
      const net::Session& s = bots_[i]->session();
      return !started(races_[race_of_[i]]) || s.race() || s.state() == net::Session::State::kClosed;
    };
    (void)pump_->until(
        [&] {
          for (std::size_t i = 0; i < bots_.size(); ++i) {
            if (!has_race_or_closed(i)) return false;
          }
          return true;
        },
        Clock::now() + kCountdownArrives);
    // Armed when the countdowns have started (also when a room did not start, so that the others still meet the
    // profile's event mid-race).
    proxy.arm();
    for (std::size_t i = 0; i < bots_.size(); ++i) {
      if (started(races_[race_of_[i]]) && !bots_[i]->session().race()) {
        out_.problems.push_back(bots_[i]->name() + " missed the start of its race (" + state_text(i) + ")");
      }
    }
    return ok;
  }

  [[nodiscard]] std::string state_text(std::size_t i) const {
    const net::Session& s = bots_[i]->session();
    switch (s.state()) {
      case net::Session::State::kIdle: return "idle";
      case net::Session::State::kConnecting: return "connecting";
      case net::Session::State::kLobby: return "in the lobby";
      case net::Session::State::kRoom: {
        int racers = 0, ready = 0;
        for (const protocol::RoomMember& m : s.room()->members) {
          racers += m.role == protocol::Role::kRacer;
          ready += m.ready;
        }
        return fmt::format("in room {} with {} racers, {} ready", s.room()->room_id, racers, ready);
      }
      case net::Session::State::kReconnecting: return "reconnecting";
      case net::Session::State::kClosed: return "closed: " + s.closed_reason();
    }
    return "?";
  }

  bool race(std::chrono::seconds timeout) {
    // A bot is done when it has its race's results and the replay's id, or when its session closed (its room goes on
    // without it, and the results show it), or when it never got into its race (set_up() said so).
    const auto done = [](const botcli::OnlineBot& b) {
      const net::Session& s = b.session();
      return s.state() == net::Session::State::kClosed || !s.race() || (s.results() && s.stored_replay());
    };
    if (pump_->until([&] { return std::all_of(bots_.begin(), bots_.end(), [&](const auto& b) { return done(*b); }); },
                     Clock::now() + timeout)) {
      return true;
    }
    std::vector<std::string> names;
    for (std::size_t i = 0; i < bots_.size(); ++i) {
      if (!done(*bots_[i])) names.push_back(bots_[i]->name() + " (" + state_text(i) + ")");
    }
    out_.problems.push_back(fmt::format("racing timed out after {} s: {}", timeout.count(), names_of(names)));
    return false;
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
        } else if (rr.status == protocol::RacerStatus::kToppedOut) {
          ++out_.topped_out;
          out_.problems.push_back(rr.name + " topped out (the bot's play; its game and the server's agree)");
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

  // Every file in the store, decoded and verified, and the stored log of each racer whose game ended by itself
  // against the one the racer's own client kept: the replay holds their whole game, also what they played while their
  // link was down.
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
        // A removed racer's log ends where the referee stopped taking it; only a game that ended by itself (finished,
        // topped out) must be whole.
        if (bot == by_name.end() || (racer.result.status != replay::ResultStatus::kFinished &&
                                     racer.result.status != replay::ResultStatus::kToppedOut)) {
          continue;
        }
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
  std::uint16_t port_ = 0;  // the proxy's
  std::vector<std::unique_ptr<botcli::OnlineBot>> bots_;
  std::vector<BotSetup> setup_;           // by bot index
  std::vector<std::string> setup_drops_;  // "name (why)" of each connection that dropped before its race
  std::vector<std::size_t> race_of_;      // bot index -> race index
  std::vector<RaceSlot> races_;
  std::unique_ptr<net::SessionPump> pump_;
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
