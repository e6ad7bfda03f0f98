#include "tests/sync/synctest.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <variant>

#include "common/engine/racer_run.h"
#include "common/protocol/codec.h"
#include "net/race_view.h"
#include "server/racer_referee.h"

namespace sr::synctest {
namespace {

constexpr std::uint32_t kRaceId = 7;
constexpr std::uint32_t kRacer = 1;     // our racer's player id
constexpr std::uint32_t kOther = 2;     // a second racer, so that the race has more boards than ours
constexpr std::uint32_t kWatcher = 99;  // a room member who only watches
// Real time from the client's send to the server's receipt. Pace is not under test: any value does.
constexpr TimeUs kLatencyUs = 30'000;
// The room relays a racer's clock at least this often without inputs (server/room_race.cpp, kRelayHeartbeatUs).
constexpr TimeUs kRelayHeartbeatUs = 250'000;

std::string hex(std::uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) s[static_cast<std::size_t>(i)] = kDigits[v & 15];
  return s;
}

// Pace rules that never fire: the synctest is about what the referee computes, not about clocks.
server::PaceLimits no_pace_rules() {
  server::PaceLimits limits;
  limits.max_lag_us = 1'000'000'000'000;  // eleven days
  limits.max_lead_us = 1'000'000'000'000;
  limits.pace_grace_us = 0;
  limits.max_changes_per_second = std::numeric_limits<int>::max();
  return limits;
}

protocol::CountdownStart countdown_of(const SyncPlan& plan) {
  protocol::CountdownStart start;
  start.race_id = kRaceId;
  start.seed = plan.engine_seed;
  start.config = plan.config;
  start.config.handling = engine::Handling{};  // the room's rules; each racer brings their own handling
  start.racers = {{kRacer, "racer", plan.config.handling}, {kOther, "other", engine::Handling{}}};
  return start;
}

// Where two lists of lock records first differ, or nullopt.
std::optional<std::string> first_lock_difference(const std::vector<engine::LockRecord>& a,
                                                 const std::vector<engine::LockRecord>& b, const char* a_name,
                                                 const char* b_name) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i] == b[i]) continue;
    return "lock " + std::to_string(i + 1) + ": " + a_name + " at " + std::to_string(a[i].time_us) + " us digest " +
           hex(a[i].digest) + ", " + b_name + " at " + std::to_string(b[i].time_us) + " us digest " + hex(b[i].digest);
  }
  if (a.size() == b.size()) return std::nullopt;
  return std::string(a_name) + " has " + std::to_string(a.size()) + " locks, " + b_name + " has " +
         std::to_string(b.size());
}

std::optional<std::string> first_log_difference(const std::vector<engine::InputChange>& a,
                                                const std::vector<engine::InputChange>& b, const char* a_name,
                                                const char* b_name) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i] == b[i]) continue;
    return "input log entry " + std::to_string(i) + ": " + a_name + " (" + std::to_string(a[i].time_us) + " us, " +
           std::to_string(a[i].buttons) + "), " + b_name + " (" + std::to_string(b[i].time_us) + " us, " +
           std::to_string(b[i].buttons) + ")";
  }
  if (a.size() == b.size()) return std::nullopt;
  return std::string(a_name) + " logged " + std::to_string(a.size()) + " changes, " + b_name + " " +
         std::to_string(b.size());
}

// One game: the client, the wire, the referee (with the room's checks and relays) and a watcher.
class Match {
 public:
  explicit Match(const SyncPlan& plan)
      : plan_(plan),
        client_(countdown_of(plan), kRacer),
        watcher_(countdown_of(plan), kWatcher),
        referee_(plan.config, plan.engine_seed, no_pace_rules()) {
    result_.game_seed = plan.game_seed;
    result_.config = plan.config;
    result_.source = plan.source;
  }

  SyncResult run() {
    if (auto valid = engine::check_config(plan_.config); !valid) return fail("invalid config: " + valid.error());
    play_frames();
    if (result_.mismatch) return result_;
    finish();
    if (result_.mismatch) return result_;
    compare_ends();
    return result_;
  }

 private:
  const engine::RacerRun& mine() const { return client_.mine()->run; }

  SyncResult& fail(std::string what) {
    if (!result_.mismatch) {
      std::string where = "game seed " + std::to_string(plan_.game_seed) + " (" +
                          kInputSourceNames[static_cast<std::size_t>(plan_.source)] + " presses; " +
                          describe(plan_.config) + "; engine seed " + std::to_string(plan_.engine_seed);
      result_.mismatch = what + "\n  in " + where + ")";
    }
    return result_;
  }

  const Hold* hold_at(TimeUs t) const {
    for (const Hold& h : plan_.holds) {
      if (h.from_us <= t && t < h.until_us) return &h;
    }
    return nullptr;
  }

  void play_frames() {
    std::optional<TimeUs> over_at;
    TimeUs previous = -1;
    for (const TimeUs frame : plan_.frames) {
      if (over_at && frame > *over_at + plan_.linger_us) break;
      play_frame(frame, previous);
      if (result_.mismatch) return;
      previous = frame;
      if (!over_at && mine().game().over()) over_at = frame;
    }
    last_frame_us_ = previous;
  }

  // Presses every change stamped up to `frame`, then advances to it; sends what came out unless the network holds
  // it back.
  void play_frame(TimeUs frame, TimeUs previous) {
    ++result_.frames;
    if (previous >= 0 && frame - previous >= 1'000'000) ++result_.stalls;
    const std::size_t locks_before = mine().locks().size();
    std::vector<protocol::Message> out;
    for (; next_press_ < plan_.presses.size() && plan_.presses[next_press_].time_us <= frame; ++next_press_) {
      const engine::InputChange& p = plan_.presses[next_press_];
      client_.press(p.time_us, p.buttons, out);
    }
    client_.advance(frame, out);
    result_.most_locks_in_one_frame =
        std::max(result_.most_locks_in_one_frame, static_cast<std::int64_t>(mine().locks().size() - locks_before));
    const Hold* hold = hold_at(frame);
    for (auto& m : out) {
      if (hold != nullptr && hold->copies_pass && std::holds_alternative<protocol::RaceInputCopy>(m)) {
        deliver(m, frame + kLatencyUs);  // ahead of the held RaceInputs it repeats
        if (result_.mismatch) return;
        continue;
      }
      in_flight_.push_back(std::move(m));
    }
    if (hold != nullptr) {
      was_held_ = true;
      return;
    }
    deliver_all(frame + kLatencyUs);
    if (result_.mismatch) return;
    if (const server::Violation v = referee_.check_pace(frame + kLatencyUs); v != server::Violation::kNone) {
      fail(std::string("the referee's pace check reported a violation: ") + server::violation_text(v));
    }
  }

  void deliver_all(TimeUs real_us) {
    if (was_held_ && !in_flight_.empty()) {
      ++result_.bursts;
      result_.largest_burst = std::max(result_.largest_burst, static_cast<std::int64_t>(in_flight_.size()));
    }
    was_held_ = false;
    while (!in_flight_.empty() && !result_.mismatch) {
      const protocol::Message m = std::move(in_flight_.front());
      in_flight_.pop_front();
      deliver(m, real_us);
    }
  }

  // The wire, both ways: the message must be valid and decode to itself.
  std::optional<protocol::Message> through_the_wire(const protocol::Message& m) {
    if (const auto valid = protocol::validate(m); !valid) {
      fail("a message that may not be sent: " + valid.error().message);
      return std::nullopt;
    }
    const std::vector<std::uint8_t> bytes = protocol::encode(m);
    protocol::DecodeResult decoded = protocol::decode(bytes);
    if (!decoded) {
      fail("a message does not decode: " + decoded.error().message);
      return std::nullopt;
    }
    if (!(decoded.value() == m)) {
      fail("a message decodes to something else");
      return std::nullopt;
    }
    return std::move(decoded.value());
  }

  void deliver(const protocol::Message& sent, TimeUs real_us) {
    const std::optional<protocol::Message> m = through_the_wire(sent);
    if (!m) return;
    if (const auto* input = std::get_if<protocol::RaceInput>(&*m)) {
      return on_race_input({input->race_id, input->first_seq, input->now_us, input->changes, false}, real_us);
    }
    if (const auto* copy = std::get_if<protocol::RaceInputCopy>(&*m)) {
      return on_race_input({copy->race_id, copy->first_seq, copy->now_us, copy->changes, true}, real_us);
    }
    if (const auto* report = std::get_if<protocol::StateHashReport>(&*m)) return on_report(*report);
    fail("the client sent a message that is neither a RaceInput, a RaceInputCopy nor a StateHashReport (id " +
         std::to_string(sent.index()) + ")");
  }

  // What Room::on_race_input checks and does (server/room_race.cpp), with the referee's stream rules on top: a batch
  // may repeat what the referee has (a copy and its RaceInput), and must then repeat it exactly.
  void on_race_input(const server::InputBatch& m, TimeUs real_us) {
    const std::string at = std::string(m.copy ? " (RaceInputCopy" : " (RaceInput") + " first_seq " +
                           std::to_string(m.first_seq) + ", now_us " + std::to_string(m.now_us) + ")";
    if (m.race_id != kRaceId) return (void)fail("a RaceInput for race " + std::to_string(m.race_id) + at);
    if (referee_.status() != protocol::RacerStatus::kRacing) return;  // the room ignores a racer no longer racing
    const std::uint32_t next_seq = referee_.next_seq();
    if (m.first_seq > next_seq) {
      if (m.copy) return;  // the room ignores it: the held RaceInputs fill the gap
      return (void)fail("input sequence has a gap: the referee expects " + std::to_string(next_seq) + at);
    }
    const std::size_t known = next_seq - m.first_seq;
    const auto& log = referee_.log();
    for (std::size_t i = 0; i < std::min(known, m.changes.size()); ++i) {
      if (log.size() != next_seq || !(log[m.first_seq + i] == m.changes[i])) {
        return (void)fail("change " + std::to_string(m.first_seq + i) + " differs from the one sent before" + at);
      }
    }
    const bool ack_missed = m.copy && known > 0;
    const auto changes = m.changes.subspan(std::min(known, m.changes.size()));
    if (known > m.changes.size() || (changes.empty() && m.now_us <= referee_.clock_us())) {
      if (ack_missed) ack(next_seq);
      return;
    }
    TimeUs previous = referee_.clock_us();
    if (m.now_us < previous) {
      return (void)fail("the game time went back from " + std::to_string(previous) + " us" + at);
    }
    for (const engine::InputChange& c : changes) {
      if (c.time_us < previous || c.time_us > m.now_us) {
        return (void)fail("a change at " + std::to_string(c.time_us) + " us is out of the stream's order" + at);
      }
      previous = c.time_us;
    }
    const std::size_t logged_before = log.size();
    const server::Violation v = referee_.on_batch(real_us, changes, m.now_us);
    ++result_.batches;
    if (m.copy) ++result_.copies;
    if (v != server::Violation::kNone) {
      return (void)fail(std::string("the referee reported a violation: ") + server::violation_text(v) + at);
    }
    relay(logged_before, false);
    if (referee_.next_seq() > next_seq || ack_missed) ack(referee_.next_seq());
  }

  // The room's RaceInputAck, straight back to the client.
  void ack(std::uint32_t next_seq) {
    const std::optional<protocol::Message> m = through_the_wire(protocol::RaceInputAck{kRaceId, next_seq});
    if (m) client_.on_ack(std::get<protocol::RaceInputAck>(*m));
  }

  // The room relays what the referee logged, numbered by its log, and its clock at least every kRelayHeartbeatUs;
  // the watcher feeds them to its board of our racer.
  void relay(std::size_t logged_before, bool force) {
    const auto& log = referee_.log();
    const TimeUs clock = referee_.clock_us();
    if (!force && log.size() == logged_before && clock < relayed_now_us_ + kRelayHeartbeatUs) return;
    if (force && log.size() == logged_before && clock == relayed_now_us_) return;
    protocol::RacerInputs relayed;
    relayed.race_id = kRaceId;
    relayed.player_id = kRacer;
    relayed.first_seq = static_cast<std::uint32_t>(logged_before);
    relayed.now_us = clock;
    relayed.changes.assign(log.begin() + static_cast<std::ptrdiff_t>(logged_before), log.end());
    relayed_now_us_ = clock;
    const std::optional<protocol::Message> m = through_the_wire(relayed);
    if (!m) return;
    std::string error;
    if (!watcher_.on_inputs(std::get<protocol::RacerInputs>(*m), error)) fail("the watcher refused a relay: " + error);
  }

  // What Room::on_hash_report compares, plus the lock's time and the order of reports.
  void on_report(const protocol::StateHashReport& m) {
    const std::string what = "StateHashReport for piece " + std::to_string(m.pieces) + " (game time " +
                             std::to_string(m.time_us) + " us, digest " + hex(m.hash) + ")";
    if (m.race_id != kRaceId) return (void)fail(what + " for race " + std::to_string(m.race_id));
    if (m.pieces != last_report_pieces_ + net::RaceView::kReportEveryPieces) {
      return (void)fail(what + " follows the report for piece " + std::to_string(last_report_pieces_));
    }
    last_report_pieces_ = m.pieces;
    reports_.push_back(m);
    ++result_.reports_checked;
    const auto& locks = referee_.run().locks();
    if (m.pieces > static_cast<std::int64_t>(locks.size())) {
      return (void)fail(what + ": the referee has only " + std::to_string(locks.size()) + " locks (at game time " +
                        std::to_string(referee_.clock_us()) + " us)");
    }
    const engine::LockRecord& lock = locks[static_cast<std::size_t>(m.pieces - 1)];
    if (lock.digest != m.hash || lock.time_us != m.time_us) {
      fail(what + ": the referee's lock was at " + std::to_string(lock.time_us) + " us with digest " +
           hex(lock.digest));
    }
  }

  // One last heartbeat brings the referee to the client's game time; everything held is delivered.
  void finish() {
    result_.end_us = last_frame_us_ + net::RaceView::kHeartbeatUs;
    std::vector<protocol::Message> out;
    client_.advance(result_.end_us, out);
    for (auto& m : out) in_flight_.push_back(std::move(m));
    deliver_all(result_.end_us + kLatencyUs);
    if (result_.mismatch) return;
    relay(referee_.log().size(), true);
  }

  void compare_ends() {
    const engine::RacerRun& client = mine();
    result_.locks = static_cast<std::int64_t>(client.locks().size());
    result_.changes = static_cast<std::int64_t>(client.log().size());
    result_.game_over = client.game().over();
    result_.finished = client.game().state().finished;

    // The same presses, fed in one go: a press per change, then one advance to the end.
    engine::RacerRun direct(plan_.config, plan_.engine_seed);
    for (std::size_t i = 0; i < next_press_; ++i)
      (void)direct.press(plan_.presses[i].time_us, plan_.presses[i].buttons);
    (void)direct.advance(result_.end_us);

    const net::RacerBoard* watched = watcher_.board(kRacer);
    if (watched == nullptr) return (void)fail("the watcher has no board of our racer");
    const engine::RacerRun& seen = watched->run;

    if (referee_.status() == protocol::RacerStatus::kRemoved) return (void)fail("the referee removed the racer");
    if (client.game().over() != (referee_.status() != protocol::RacerStatus::kRacing)) {
      return (void)fail(std::string("the client's game is ") + (client.game().over() ? "over" : "on") +
                        ", the referee's status is " + std::to_string(static_cast<int>(referee_.status())));
    }
    if (!client.game().over() && referee_.clock_us() != result_.end_us) {
      return (void)fail("the referee reached game time " + std::to_string(referee_.clock_us()) + " us, the client " +
                        std::to_string(result_.end_us) + " us");
    }
    struct Other {
      const char* name;
      const engine::RacerRun& run;
    };
    for (const Other& other :
         {Other{"the referee", referee_.run()}, Other{"the one-go run", direct}, Other{"the watcher's board", seen}}) {
      if (auto d = first_log_difference(client.log(), other.run.log(), "the client", other.name)) return (void)fail(*d);
      if (auto d = first_lock_difference(client.locks(), other.run.locks(), "the client", other.name)) {
        return (void)fail(*d);
      }
      if (client.game().now() != other.run.game().now()) {
        return (void)fail("the client's game is at " + std::to_string(client.game().now()) + " us, " + other.name +
                          "'s at " + std::to_string(other.run.game().now()) + " us");
      }
      if (client.game().state_hash() != other.run.game().state_hash()) {
        return (void)fail("state_hash at " + std::to_string(client.game().now()) + " us: the client " +
                          hex(client.game().state_hash()) + ", " + other.name + " " +
                          hex(other.run.game().state_hash()));
      }
    }
    const std::int64_t due = result_.locks / net::RaceView::kReportEveryPieces * net::RaceView::kReportEveryPieces;
    if (last_report_pieces_ != due) {
      return (void)fail("the client locked " + std::to_string(result_.locks) + " pieces but its last report was for " +
                        std::to_string(last_report_pieces_));
    }
    for (const protocol::StateHashReport& r : reports_) {
      if (direct.digest_after(r.pieces) != r.hash) {
        return (void)fail("the report for piece " + std::to_string(r.pieces) + " disagrees with the one-go run");
      }
    }
  }

  const SyncPlan& plan_;
  net::RaceView client_;
  net::RaceView watcher_;
  server::RacerReferee referee_;
  SyncResult result_;
  std::size_t next_press_ = 0;
  TimeUs last_frame_us_ = -1;
  std::deque<protocol::Message> in_flight_;
  bool was_held_ = false;
  TimeUs relayed_now_us_ = -1;
  std::int64_t last_report_pieces_ = 0;
  std::vector<protocol::StateHashReport> reports_;
};

template <std::size_t N>
std::string counts(const char* title, const std::array<const char*, N>& names,
                   const std::array<std::int64_t, N>& values) {
  std::string s = std::string(title) + " {";
  for (std::size_t i = 0; i < N; ++i) s += (i ? ", " : "") + std::string(names[i]) + " " + std::to_string(values[i]);
  return s + "}";
}

}  // namespace

std::string describe(const SyncResult& r) {
  const auto n = [](std::int64_t v) { return std::to_string(v); };
  return "locks " + n(r.locks) + ", reports " + n(r.reports_checked) + ", batches " + n(r.batches) + " (copies " +
         n(r.copies) + "), frames " + n(r.frames) + ", stalls " + n(r.stalls) + ", bursts " + n(r.bursts) +
         " (largest " + n(r.largest_burst) + "), most locks in one frame " + n(r.most_locks_in_one_frame) +
         ", ended at " + n(r.end_us) + " us, " +
         (r.finished    ? "finished"
          : r.game_over ? "topped out"
                        : "still on");
}

SyncResult run_plan(const SyncPlan& plan) { return Match(plan).run(); }

SyncResult run_synctest_game(std::uint64_t game_seed, const PlanOptions& options) {
  return run_plan(make_plan(game_seed, options));
}

void SyncTally::add(const SyncResult& r) {
  ++games;
  locks += r.locks;
  reports += r.reports_checked;
  batches += r.batches;
  copies += r.copies;
  stalls += r.stalls;
  bursts += r.bursts;
  games_over += r.game_over ? 1 : 0;
  ++modes[static_cast<std::size_t>(r.config.mode)];
  ++rotations[static_cast<std::size_t>(r.config.rotation)];
  ++lock_downs[static_cast<std::size_t>(r.config.lock_down)];
  ++gravities[static_cast<std::size_t>(r.config.gravity)];
  ++generators[static_cast<std::size_t>(r.config.generator)];
  ++sources[static_cast<std::size_t>(r.source)];
  if (r.mismatch) {
    ++mismatches;
    if (first_mismatches.size() < kKeptMismatches) first_mismatches.push_back(*r.mismatch);
  }
}

void SyncTally::merge(const SyncTally& o) {
  games += o.games;
  locks += o.locks;
  reports += o.reports;
  batches += o.batches;
  copies += o.copies;
  stalls += o.stalls;
  bursts += o.bursts;
  games_over += o.games_over;
  mismatches += o.mismatches;
  const auto sum = [](auto& into, const auto& from) {
    for (std::size_t i = 0; i < into.size(); ++i) into[i] += from[i];
  };
  sum(modes, o.modes);
  sum(rotations, o.rotations);
  sum(lock_downs, o.lock_downs);
  sum(gravities, o.gravities);
  sum(generators, o.generators);
  sum(sources, o.sources);
  for (const std::string& m : o.first_mismatches) {
    if (first_mismatches.size() < kKeptMismatches) first_mismatches.push_back(m);
  }
}

std::string SyncTally::summary() const {
  std::string s = std::to_string(games) + " games, " + std::to_string(locks) + " locks, " + std::to_string(reports) +
                  " reports checked, " + std::to_string(mismatches) + " mismatches, ";
  s += counts("modes", kModeNames, modes) + ", " + counts("rotations", kRotationNames, rotations) + ", ";
  s += counts("lock down", kLockDownNames, lock_downs) + ", " + counts("gravity", kGravityNames, gravities) + ", ";
  s += counts("generators", kGeneratorNames, generators) + ", ";
  s += counts("inputs", kInputSourceNames, sources) + ", ";
  s += std::to_string(batches) + " batches (" + std::to_string(copies) + " by copy), " + std::to_string(stalls) +
       " stalls, " + std::to_string(bursts) + " late bursts, " + std::to_string(games_over) + " games over";
  return s;
}

}  // namespace sr::synctest
