#include "tests/abuse/honest_side.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/bot/bot.h"
#include "common/engine/config.h"

namespace sr::abuse {
namespace {

using namespace std::chrono_literals;

// Each stage of the probe (Welcome, then RoomJoined) may take this long before it counts as refused.
constexpr auto kProbeStage = 10s;
// The probe is a newcomer: it connects from an address of its own, neither the honest racers' (127.0.0.1, whose rooms
// a room share counts) nor an attacker's (127.0.0.2 on).
constexpr const char* kProbeAddress = "127.0.1.1";

bot::BotSettings bot_settings(const HonestPlan& plan, std::size_t index) {
  bot::BotSettings settings;
  settings.weights = *bot::weights_by_name("sprint");
  settings.pps_milli = plan.pps_milli;
  settings.chooser.lookahead = 0;  // cheap: the harness measures the server, not the bot
  settings.timing_seed = plan.seed * 1'000'003 + index + 1;
  return settings;
}

const char* ending_text(protocol::RacerStatus status) {
  switch (status) {
    case protocol::RacerStatus::kRacing: return "racing";
    case protocol::RacerStatus::kFinished: return "finished";
    case protocol::RacerStatus::kToppedOut: return "topped out";
    case protocol::RacerStatus::kDisconnected: return "disconnected";
    case protocol::RacerStatus::kRemoved: return "removed";
    case protocol::RacerStatus::kUnfinished: return "unfinished";
  }
  return "?";
}

}  // namespace

// A player arriving while the attack runs: connects (Hello -> Welcome), creates a room, leaves it, and joins the
// first honest race as a spectator (its catch-up).
struct HonestSide::Probe {
  net::Session session;
  Clock::time_point started;
  Clock::time_point stage_deadline;
  Clock::time_point joined_at;
  bool asked_room = false;
  bool left_own = false;
  bool asked_watch = false;
  bool done = false;
};

// A player in the lobby who asks for the room list once a second while the races run.
struct HonestSide::Bystander {
  net::Session session;
  Clock::time_point next_ask;
  bool asking = true;
};

HonestSide::HonestSide(HonestPlan plan, AttackOutcome& out) : plan_(plan), out_(out) {}

HonestSide::~HonestSide() { close(); }

void HonestSide::close() {
  for (auto& b : bots_) b->session().close();
  if (probe_) probe_->session.close();
  if (bystander_) bystander_->session.close();
}

bool HonestSide::set_up(std::chrono::seconds timeout) {
  const auto deadline = Clock::now() + timeout;
  const auto count = static_cast<std::size_t>(plan_.rooms * plan_.racers);
  for (std::size_t i = 0; i < count; ++i) {
    net::SessionOptions session;
    session.port = plan_.port;
    session.name = fmt::format("h{}-{}", i / static_cast<std::size_t>(plan_.racers) + 1,
                               i % static_cast<std::size_t>(plan_.racers) + 1);
    session.client_version = "stackrace-abuse";
    bots_.push_back(std::make_unique<botcli::OnlineBot>(session, bot_settings(plan_, i), &relay_));
    if (const auto opened = bots_.back()->open(); !opened) {
      out_.problems.push_back(session.name + ": " + opened.error());
      return false;
    }
  }
  pump_ = std::make_unique<net::SessionPump>(
      botcli::pump_bots(bots_, [this](std::size_t bot, const protocol::Message& m) { on_message(bot, m); }));
  const auto all = [&](auto pred) {
    return std::all_of(bots_.begin(), bots_.end(), [&](const auto& b) { return pred(b->session()); });
  };
  if (!pump_->until([&] { return all([](const net::Session& s) { return s.state() == net::Session::State::kLobby; }); },
                    deadline)) {
    out_.problems.push_back("the honest bots could not all connect before the attack");
    return false;
  }
  room_ids_.assign(static_cast<std::size_t>(plan_.rooms), 0);
  last_race_.assign(static_cast<std::size_t>(plan_.rooms), 0);
  for (std::size_t r = 0; r < room_ids_.size(); ++r) {
    protocol::RoomSettings settings;
    settings.name = fmt::format("honest {}", r + 1);
    settings.config = engine::make_sprint(plan_.lines);
    settings.max_racers = static_cast<std::uint8_t>(plan_.racers);
    settings.auto_start = true;
    (void)bots_[leader(r)]->session().create_room(settings);
  }
  if (!pump_->until(
          [&] {
            for (std::size_t r = 0; r < room_ids_.size(); ++r) {
              if (!bots_[leader(r)]->session().room()) return false;
            }
            return true;
          },
          deadline)) {
    out_.problems.push_back("the honest rooms could not be created before the attack");
    return false;
  }
  for (std::size_t i = 0; i < bots_.size(); ++i) {
    const std::size_t r = i / static_cast<std::size_t>(plan_.racers);
    room_ids_[r] = bots_[leader(r)]->session().room()->room_id;
    if (i != leader(r)) (void)bots_[i]->session().join_room(room_ids_[r]);
  }
  if (!pump_->until([&] { return all([](const net::Session& s) { return s.room().has_value(); }); }, deadline)) {
    out_.problems.push_back("the honest racers could not all join their rooms before the attack");
    return false;
  }
  return true;
}

std::vector<std::uint32_t> HonestSide::room_ids() const { return room_ids_; }

void HonestSide::idle_for(Clock::duration how_long) {
  const auto until = Clock::now() + how_long;
  while (Clock::now() < until) once();
}

void HonestSide::on_message(std::size_t bot, const protocol::Message& m) {
  if (const auto* seat = std::get_if<protocol::RaceSeat>(&m); seat && bot == 0 && plan_.seen_seat) {
    plan_.seen_seat->publish(seat->race_id, seat->token_hi, seat->token_lo);
  }
  if (const auto* ended = std::get_if<protocol::RacerEnded>(&m);
      ended && ended->status == protocol::RacerStatus::kRemoved) {
    removal_reasons_[ended->player_id] = ended->reason;
  }
}

void HonestSide::once() {
  pump_->once();
  if (probe_ && !probe_->done) probe_once();
  if (bystander_) bystander_once();
}

void HonestSide::probe_once() {
  Probe& p = *probe_;
  ProbeOutcome& o = out_.probe;
  const auto now = Clock::now();
  for (const protocol::Message& m : p.session.poll(0)) {
    if (const auto* notice = std::get_if<protocol::Notice>(&m);
        notice && notice->about == protocol::MessageId::kCreateRoom) {
      o.failure = "CreateRoom refused: " + notice->text;
      p.done = true;
    } else if (notice && notice->about == protocol::MessageId::kJoinRoom &&
               notice->code != protocol::NoticeCode::kInfo) {
      o.failure = "JoinRoom refused: " + notice->text;
      p.done = true;
    } else if (std::holds_alternative<protocol::CatchUpEnd>(m) && p.asked_watch) {
      o.watched = true;
      o.catch_up_us = std::chrono::duration_cast<std::chrono::microseconds>(now - p.joined_at).count();
      p.done = true;
    }
  }
  if (p.done) {
    // Answered.
  } else if (p.session.state() == net::Session::State::kClosed) {
    o.failure = "connection closed: " + p.session.closed_reason();
    p.done = true;
  } else if (p.session.state() == net::Session::State::kLobby && !p.asked_room) {
    o.connected = true;
    o.connect_us = std::chrono::duration_cast<std::chrono::microseconds>(now - p.started).count();
    protocol::RoomSettings settings;
    settings.name = "probe room";
    settings.config = engine::make_sprint(40);
    (void)p.session.create_room(settings);
    p.asked_room = true;
    p.stage_deadline = now + kProbeStage;
  } else if (p.session.state() == net::Session::State::kRoom && !p.left_own) {
    o.created = true;
    (void)p.session.leave_room();
    p.left_own = true;
    p.stage_deadline = now + kProbeStage;
  } else if (p.session.state() == net::Session::State::kLobby && p.left_own && !p.asked_watch) {
    (void)p.session.join_room(room_ids_.front(), protocol::Role::kSpectator);
    p.asked_watch = true;
    p.joined_at = now;
    p.stage_deadline = now + kProbeStage;
  } else if (now >= p.stage_deadline) {
    o.failure = p.asked_watch  ? "no catch-up of the first honest race within 10 s of joining it"
                : p.left_own   ? "the probe's room was not left within 10 s"
                : p.asked_room ? "no answer to CreateRoom within 10 s"
                               : "no Welcome within 10 s";
    p.done = true;
  }
  if (p.done) p.session.close();
}

void HonestSide::bystander_once() {
  Bystander& b = *bystander_;
  for (const protocol::Message& m : b.session.poll(0)) {
    if (std::holds_alternative<protocol::RoomList>(m)) {
      ++out_.bystander_answered;
    } else if (const auto* notice = std::get_if<protocol::Notice>(&m);
               notice && notice->about == protocol::MessageId::kListRooms) {
      ++out_.bystander_refused;
    }
  }
  const auto now = Clock::now();
  if (b.asking && b.session.state() == net::Session::State::kLobby && now >= b.next_ask) {
    if (b.session.list_rooms()) ++out_.bystander_asked;
    b.next_ask = now + 1s;
  }
}

void HonestSide::collect(std::size_t room, const protocol::RaceResults& results) {
  ++out_.races_finished;
  for (const protocol::RacerResult& r : results.racers) {
    if (r.status == protocol::RacerStatus::kFinished) {
      ++out_.racers_finished;
      continue;
    }
    if (r.status == protocol::RacerStatus::kRemoved) {
      ++out_.removed;
    } else {
      ++out_.other_endings;
    }
    const auto reason = removal_reasons_.find(r.player_id);
    out_.problems.push_back(fmt::format("room {}: {} {}{}", room + 1, r.name, ending_text(r.status),
                                        reason == removal_reasons_.end() ? "" : " (" + reason->second + ")"));
  }
}

void HonestSide::race(std::chrono::seconds race_timeout) {
  out_.races_planned = plan_.rooms * plan_.sprints;
  out_.racers_planned = out_.races_planned * plan_.racers;
  for (int sprint = 0; sprint < plan_.sprints; ++sprint) {
    for (auto& b : bots_) (void)b->session().set_ready(true);
    if (sprint == 0) {
      probe_ = std::make_unique<Probe>();
      probe_->started = Clock::now();
      probe_->stage_deadline = probe_->started + kProbeStage;
      out_.probe.tried = true;
      net::SessionOptions session;
      session.port = plan_.port;
      session.name = "probe";
      session.client_version = "stackrace-abuse";
      session.local_host = kProbeAddress;
      if (const auto opened = probe_->session.open(session); !opened) {
        out_.probe.failure = opened.error();
        probe_->done = true;
      }
      bystander_ = std::make_unique<Bystander>();
      session.name = "bystander";
      session.local_host.clear();
      if (const auto opened = bystander_->session.open(session); !opened) {
        out_.problems.push_back("bystander: " + opened.error());
        bystander_.reset();
      }
    }
    // A room's race is over when any of its bots has the race's results (one whose connection dropped may not).
    const auto results_of = [&](std::size_t r) -> const protocol::RaceResults* {
      for (int i = 0; i < plan_.racers; ++i) {
        const auto& got = bots_[leader(r) + static_cast<std::size_t>(i)]->session().results();
        if (got && got->race_id != last_race_[r]) return &*got;
      }
      return nullptr;
    };
    std::vector<bool> done(room_ids_.size(), false);
    const auto deadline = Clock::now() + race_timeout;
    while (Clock::now() < deadline && std::find(done.begin(), done.end(), false) != done.end()) {
      once();
      for (std::size_t r = 0; r < done.size(); ++r) {
        if (done[r]) continue;
        if (const protocol::RaceResults* results = results_of(r)) {
          last_race_[r] = results->race_id;
          collect(r, *results);
          done[r] = true;
        }
      }
    }
    for (std::size_t r = 0; r < done.size(); ++r) {
      if (!done[r])
        out_.problems.push_back(
            fmt::format("room {}: sprint {} had no results within {} s", r + 1, sprint + 1, race_timeout.count()));
    }
  }
  // The probe gets its full time even when the races were quick; the bystander's last question its answer (2 s).
  if (bystander_) bystander_->asking = false;
  const auto grace = Clock::now() + 2s;
  while ((probe_ && !probe_->done) || (bystander_ && Clock::now() < grace &&
                                       out_.bystander_answered + out_.bystander_refused < out_.bystander_asked)) {
    once();
  }
  out_.relay_delays_us = relay_.delays_us();
  // A racer whose connection was lost before a race (a stalled server times it out) is not in its results at all.
  for (const auto& b : bots_) {
    if (b->session().state() == net::Session::State::kClosed) {
      out_.problems.push_back(b->name() + ": connection closed: " + b->session().closed_reason());
    }
  }
}

}  // namespace sr::abuse
