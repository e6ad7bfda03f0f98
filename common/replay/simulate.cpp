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

Simulation simulate(const engine::GameConfig& config, std::uint64_t seed, std::span<const InputChange> inputs,
                    engine::TimeUs end_us, std::int32_t checkpoint_every,
                    const std::function<void(const engine::Event&)>& on_event) {
  assert(checkpoint_every >= 1);
  Simulation sim{engine::Game(config, seed), {}, std::nullopt};
  engine::Game& game = sim.game;
  std::int64_t locks = 0;
  std::vector<engine::TimeUs> due;  // lock times of checkpoints reached in the current call

  const auto feed = [&](engine::TimeUs t, std::optional<engine::Buttons> buttons) -> engine::UpdateError {
    const engine::UpdateResult r = game.update(t, buttons);
    if (r.error != engine::UpdateError::kOk) return r.error;
    due.clear();
    for (const engine::Event& e : r.events) {
      if (on_event) on_event(e);
      if (e.kind == engine::EventKind::kLock && ++locks % checkpoint_every == 0) due.push_back(e.time_us);
    }
    if (!due.empty()) {
      const std::uint64_t hash = game.state_hash();
      for (engine::TimeUs lock_time : due) sim.checkpoints.push_back(Checkpoint{lock_time, hash});
    }
    return engine::UpdateError::kOk;
  };

  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const engine::UpdateError e = feed(inputs[i].time_us, inputs[i].buttons);
    if (e != engine::UpdateError::kOk) {
      sim.feed_error = "inputs[" + std::to_string(i) + "]: " + update_error_text(e);
      return sim;
    }
  }
  if (feed(end_us, std::nullopt) != engine::UpdateError::kOk) {
    sim.feed_error = "the end time " + std::to_string(end_us) + " us is before the game's time " +
                     std::to_string(game.now()) + " us (the last input)";
  }
  return sim;
}

void record_racer(Replay& replay, std::size_t racer, engine::TimeUs end_us, ResultStatus if_unfinished) {
  assert(if_unfinished == ResultStatus::kDisconnected || if_unfinished == ResultStatus::kForfeited);
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
  r.result = result;
  r.checkpoints = std::move(sim.checkpoints);
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
    for (const InputChange& c : r.inputs) {
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
  for (const InputChange& c : r.inputs) {
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
