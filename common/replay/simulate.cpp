#include "common/replay/simulate.h"

#include <algorithm>
#include <cassert>

namespace sr::replay {
namespace {

const char* update_error_text(engine::UpdateError e) {
  switch (e) {
    case engine::UpdateError::kTimeInPast: return "its time is before the game's time";
    case engine::UpdateError::kInvalidButtons: return "it holds an unknown button bit";
    default: return "the engine refused it";
  }
}

}  // namespace

Simulation simulate(const engine::GameConfig& config, std::uint64_t seed, std::span<const engine::InputChange> inputs,
                    engine::TimeUs end_us, std::int32_t checkpoint_every,
                    const std::function<void(const engine::Event&)>& on_event) {
  assert(checkpoint_every >= 1);
  // The feeding of the header, straight into the Game: the calls, events and checkpoints of a
  // RacerRun(config, seed, checkpoint_every) pressed with each input and advanced to end_us, without the run's stream
  // bookkeeping (its own copy of the log, a digest and a record per lock), which re-simulation would throw away.
  Simulation sim{engine::Game(config, seed), {}, std::nullopt};
  // Locks are counted by the game's piece count (Stats::pieces, pieces locked); the events of a call are looked at
  // only when it passes a checkpoint, or when on_event wants them.
  std::int64_t pieces = 0;
  std::int64_t next_checkpoint = checkpoint_every;
  const auto feed = [&](engine::TimeUs t, std::optional<engine::Buttons> buttons) {
    const engine::UpdateResult r = sim.game.update(t, buttons);
    if (r.error != engine::UpdateError::kOk) return r.error;
    if (on_event) {
      for (const engine::Event& e : r.events) on_event(e);
    }
    const std::int64_t pieces_now = sim.game.stats().pieces;
    if (pieces_now >= next_checkpoint) {
      const std::size_t checkpoints_before = sim.checkpoints.size();
      for (const engine::Event& e : r.events) {
        if (e.kind == engine::EventKind::kLock && ++pieces % checkpoint_every == 0) {
          sim.checkpoints.push_back(engine::Checkpoint{e.time_us, 0});
        }
      }
      assert(pieces == pieces_now);  // one kLock event per piece locked
      next_checkpoint = (pieces_now / checkpoint_every + 1) * checkpoint_every;
      // The state once the whole call has run, whichever lock of the call a checkpoint is for (header).
      const std::uint64_t hash = sim.game.state_hash();
      for (std::size_t i = checkpoints_before; i < sim.checkpoints.size(); ++i) sim.checkpoints[i].state_hash = hash;
    }
    pieces = pieces_now;
    return engine::UpdateError::kOk;
  };
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    // As RacerRun::press: once the game is over a change is not applied, only its time counts. Game::update takes it
    // the same way then, except that it still refuses unknown bits, which the run never looks at.
    const engine::InputChange& c = inputs[i];
    engine::UpdateError e = feed(c.time_us, c.buttons);
    if (e == engine::UpdateError::kInvalidButtons && sim.game.over()) e = feed(c.time_us, std::nullopt);
    if (e != engine::UpdateError::kOk) {
      sim.feed_error = "inputs[" + std::to_string(i) + "]: " + update_error_text(e);
      return sim;
    }
  }
  if (feed(end_us, std::nullopt) != engine::UpdateError::kOk) {
    sim.feed_error = "the end time " + std::to_string(end_us) + " us is before the game's time " +
                     std::to_string(sim.game.now()) + " us (the last input)";
  }
  return sim;
}

void record_racer(Replay& replay, std::size_t racer, engine::TimeUs end_us, ResultStatus if_unfinished) {
  assert(if_unfinished == ResultStatus::kDisconnected || if_unfinished == ResultStatus::kForfeited ||
         if_unfinished == ResultStatus::kUnfinished);
  Racer& r = replay.racers.at(racer);
  engine::TimeUs end = std::max<engine::TimeUs>(end_us, 0);
  if (!r.inputs.empty()) end = std::max(end, r.inputs.back().time_us);
  Simulation sim = simulate(racer_config(replay, racer), replay.seed, r.inputs, end, replay.checkpoint_every);
  assert(!sim.feed_error);
  const engine::GameState& s = sim.game.state();
  RacerResult result;
  if (s.finished) {
    result.status = ResultStatus::kFinished;
  } else if (s.top_out != engine::TopOut::kNone) {
    result.status = ResultStatus::kToppedOut;
    result.top_out = s.top_out;
  } else {
    result.status = if_unfinished;
  }
  result.stats = s.stats;
  result.final_hash = sim.game.state_hash();
  // The live recorder's measurements stay. Late time past the end (a batch that vouched for game time beyond a finish
  // or top out) is not part of the game.
  result.unverified_us = std::clamp<engine::TimeUs>(r.result.unverified_us, 0, result.stats.time_us);
  result.reconnects = r.result.reconnects;
  r.result = result;
  r.checkpoints = std::move(sim.checkpoints);
}

Replay replay_of(const engine::GameConfig& config, std::uint64_t seed, const std::string& place,
                 std::int64_t created_unix_ms) {
  Replay r;
  r.created_unix_ms = std::clamp<std::int64_t>(created_unix_ms, 0, kMaxCreatedUnixMs);
  r.place = !place.empty() && valid_text(place, kMaxPlaceBytes) ? place : "local";
  r.config = config;
  r.config.handling = engine::Handling{};  // not stored: each racer carries theirs
  r.seed = seed;
  return r;
}

Racer racer_of(const engine::RacerRun& run, const std::string& name) {
  std::string cut = name.substr(0, kMaxNameBytes);
  // Back off to a character boundary: continuation bytes are 10xxxxxx.
  if (cut.size() < name.size()) {
    while (!cut.empty() && (static_cast<unsigned char>(name[cut.size()]) & 0xC0) == 0x80) cut.pop_back();
  }
  Racer racer;
  racer.name = !cut.empty() && valid_text(cut, kMaxNameBytes) ? cut : "player";
  racer.handling = run.game().config().handling;
  racer.inputs = run.log();
  return racer;
}

void add_racer(Replay& replay, const engine::RacerRun& run, const std::string& name, ResultStatus if_unfinished) {
  replay.racers.push_back(racer_of(run, name));
  record_racer(replay, replay.racers.size() - 1, run.now_us(), if_unfinished);
}

Result<engine::Game> game_at(const Replay& replay, std::size_t racer, ViewPoint at) {
  if (racer >= replay.racers.size()) {
    return Error{ErrorKind::kOutOfRange,
                 "racer " + std::to_string(racer) + " does not exist (the replay has " +
                     std::to_string(replay.racers.size()) + ")",
                 {},
                 -1};
  }
  const Racer& r = replay.racers[racer];
  const engine::TimeUs end_us = r.result.stats.time_us;
  engine::Game game(racer_config(replay, racer), replay.seed);
  using Kind = ViewPoint::Kind;

  if (at.kind != Kind::kPiece) {
    const engine::TimeUs until = at.kind == Kind::kEnd ? end_us : std::clamp<engine::TimeUs>(at.value, 0, end_us);
    for (const engine::InputChange& c : r.inputs) {
      if (c.time_us > until) break;
      (void)game.update(c.time_us, c.buttons);
    }
    (void)game.update(std::max(until, game.now()));
    return game;
  }

  const std::int64_t k = at.value;
  if (k < 0) return Error{ErrorKind::kOutOfRange, "piece numbers start at 0", {}, -1};
  // The first time at or before `t` (and after the game's time) when piece k has locked, if any: the game's piece
  // count only grows with time, so a binary search over copies of the game finds the exact microsecond.
  const auto advance_to_lock = [&](engine::TimeUs t) -> bool {
    engine::Game probe = game;
    (void)probe.update(t);
    if (probe.stats().pieces < k) return false;
    engine::TimeUs lo = game.now(), hi = t;  // pieces(lo) < k <= pieces(hi)
    while (hi - lo > 1) {
      const engine::TimeUs mid = lo + (hi - lo) / 2;
      engine::Game p = game;
      (void)p.update(mid);
      if (p.stats().pieces >= k) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    (void)game.update(hi);
    return true;
  };
  (void)game.update(0);
  if (game.stats().pieces >= k) return game;
  for (const engine::InputChange& c : r.inputs) {
    if (advance_to_lock(c.time_us)) return game;
    (void)game.update(c.time_us, c.buttons);
    if (game.stats().pieces >= k) return game;
  }
  if (end_us >= game.now() && advance_to_lock(end_us)) return game;
  return Error{ErrorKind::kOutOfRange,
               "racer " + std::to_string(racer) + " locked " + std::to_string(game.stats().pieces) + " pieces, not " +
                   std::to_string(k),
               {},
               -1};
}

}  // namespace sr::replay
