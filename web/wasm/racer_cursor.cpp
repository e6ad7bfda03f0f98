#include "web/wasm/racer_cursor.h"

#include <algorithm>
#include <cassert>

#include "common/engine/pieces.h"

namespace sr::web {
namespace {

void note_locks(const engine::UpdateResult& r, std::vector<engine::TimeUs>& lock_times) {
  for (const engine::Event& e : r.events) {
    if (e.kind == engine::EventKind::kLock) lock_times.push_back(e.time_us);
  }
}

std::array<CellXY, 4> cells_at(engine::Piece piece, engine::Rotation rotation, int x, int y) {
  std::array<CellXY, 4> out;
  const engine::PieceCells& cells = engine::piece_cells(piece, rotation);
  for (std::size_t i = 0; i < cells.size(); ++i) out[i] = CellXY{x + cells[i].x, y + cells[i].y};
  return out;
}

}  // namespace

RacerCursor::RacerCursor(const replay::Replay& replay, std::size_t racer)
    : inputs_(replay.racers.at(racer).inputs),
      end_us_(replay.racers[racer].result.stats.time_us),
      game_(replay::racer_config(replay, racer), replay.seed) {
  // The canonical feeding (simulate.h): each input, then the recorded end. update(0) first puts the first piece out
  // for the start position; it changes nothing the first input's update would not do anyway.
  note_locks(game_.update(0), lock_times_);
  snapshots_.push_back(Snapshot{0, game_});
  change_hashes_.reserve(inputs_.size());
  for (std::size_t i = 0; i < inputs_.size(); ++i) {
    note_locks(game_.update(inputs_[i].time_us, inputs_[i].buttons), lock_times_);
    change_hashes_.push_back(game_.state_hash());
    if ((i + 1) % kSnapshotEvery == 0) snapshots_.push_back(Snapshot{i + 1, game_});
  }
  // A log that runs past its recorded end (which the verifier reports) has no end step.
  if (end_us_ >= game_.now()) note_locks(game_.update(end_us_), lock_times_);
  end_hash_ = game_.state_hash();
  game_ = snapshots_.front().game;
  position_ = Position{0, 0};
}

void RacerCursor::feed(std::size_t changes, engine::TimeUs time_us) {
  for (std::size_t c = position_.changes; c < changes; ++c) {
    (void)game_.update(inputs_[c].time_us, inputs_[c].buttons);
  }
  // Once the game is over its time stays put, so the target can lie past game_.now() but never before it.
  (void)game_.update(std::max(time_us, game_.now()));
  position_ = Position{changes, time_us};
}

void RacerCursor::move_to(Position to) {
  assert(to.changes <= inputs_.size());
  assert(to.changes == 0 || inputs_[to.changes - 1].time_us <= to.time_us);
  // The latest snapshot at or before the target; its time (its last input's) is at or before the target's.
  const Snapshot& snap = snapshots_[std::min(to.changes / kSnapshotEvery, snapshots_.size() - 1)];
  // Going on from the current game pays only when the target lies ahead of it and it is past that snapshot.
  const bool ahead = to.changes >= position_.changes && to.time_us >= position_.time_us;
  if (!ahead || position_.changes < snap.changes) {
    game_ = snap.game;
    position_ = Position{snap.changes, snap.changes == 0 ? 0 : inputs_[snap.changes - 1].time_us};
  }
  feed(to.changes, to.time_us);
}

void RacerCursor::seek_time(engine::TimeUs t) {
  t = std::clamp<engine::TimeUs>(t, 0, std::max<engine::TimeUs>(end_us_, 0));
  const auto after = std::upper_bound(inputs_.begin(), inputs_.end(), t,
                                      [](engine::TimeUs v, const engine::InputChange& c) { return v < c.time_us; });
  move_to(Position{static_cast<std::size_t>(after - inputs_.begin()), t});
}

bool RacerCursor::seek_piece(std::int64_t k) {
  if (k < 0 || k > piece_count()) return false;
  if (k == 0) {
    move_to(Position{0, 0});
    return true;
  }
  // Inputs only lock at their own time, and a lock timer never fires twice in one microsecond. So the k-th lock is
  // either in the timed events up to its time (every earlier input applied), or caused by an input at that time.
  const engine::TimeUs t = lock_time(k);
  const auto before = std::lower_bound(inputs_.begin(), inputs_.end(), t,
                                       [](const engine::InputChange& c, engine::TimeUs v) { return c.time_us < v; });
  move_to(Position{static_cast<std::size_t>(before - inputs_.begin()), t});
  while (game_.stats().pieces < k && position_.changes < inputs_.size() && inputs_[position_.changes].time_us == t) {
    feed(position_.changes + 1, t);
  }
  assert(game_.stats().pieces >= k);
  return true;
}

bool RacerCursor::seek_change(std::size_t c) {
  if (c > inputs_.size()) return false;
  move_to(Position{c, c == 0 ? 0 : inputs_[c - 1].time_us});
  return true;
}

bool RacerCursor::step_piece(int direction) {
  const std::int64_t pieces = game_.stats().pieces;
  if (direction > 0) return seek_piece(pieces + 1);
  // Back: to the moment the last locked piece locked, or, when already there, to the lock before it.
  const Position here = position_;
  if (!seek_piece(pieces)) return false;
  if (position_ != here) return true;
  if (pieces == 0 || !seek_piece(pieces - 1)) {
    move_to(here);
    return false;
  }
  return true;
}

bool RacerCursor::step_change(int direction) {
  if (direction > 0) return seek_change(position_.changes + 1);
  // Back from a point between two changes (a time seek) goes to the change before it.
  const bool on_change =
      position_.changes == 0 ? position_.time_us == 0 : position_.time_us == inputs_[position_.changes - 1].time_us;
  if (!on_change) return seek_change(position_.changes);
  if (position_.changes == 0) return false;
  return seek_change(position_.changes - 1);
}

engine::Buttons RacerCursor::buttons() const {
  return position_.changes == 0 ? engine::Buttons{0} : inputs_[position_.changes - 1].buttons;
}

std::optional<std::array<CellXY, 4>> active_cells_of(const engine::Game& game) {
  const auto a = game.active();
  if (!a) return std::nullopt;
  return cells_at(a->piece, a->rotation, a->x, a->y);
}

std::optional<std::array<CellXY, 4>> ghost_cells_of(const engine::Game& game) {
  const auto a = game.active();
  if (!a) return std::nullopt;
  return cells_at(a->piece, a->rotation, a->x, game.ghost_y());
}

std::optional<std::array<CellXY, 4>> RacerCursor::active_cells() const { return active_cells_of(game_); }

std::optional<std::array<CellXY, 4>> RacerCursor::ghost_cells() const { return ghost_cells_of(game_); }

}  // namespace sr::web
