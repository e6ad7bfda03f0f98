// The update loop, game end, and the state hash.
#include "common/engine/game.h"

#include <algorithm>
#include <array>
#include <cassert>

namespace sr::engine {
namespace {

constexpr std::uint64_t kFnvPrime = 0x100000001B3ull;

constexpr std::uint64_t fnv_prime_power(std::size_t n) {
  std::uint64_t p = 1;
  for (std::size_t i = 0; i < n; ++i) p *= kFnvPrime;
  return p;
}
// kFnvPrime^n: n zero bytes.
constexpr std::array<std::uint64_t, 9> kZeroBytes = [] {
  std::array<std::uint64_t, 9> t{};
  for (std::size_t n = 0; n < t.size(); ++n) t[n] = fnv_prime_power(n);
  return t;
}();
// kFnvPrime^(n * kMatrixWidth): n empty rows.
constexpr std::array<std::uint64_t, kMatrixHeight + 1> kEmptyRows = [] {
  std::array<std::uint64_t, kMatrixHeight + 1> t{};
  for (std::size_t n = 0; n < t.size(); ++n) t[n] = fnv_prime_power(n * kMatrixWidth);
  return t;
}();

// FNV-1a, 64 bit, over little-endian encodings of fixed-width integers. A zero byte only multiplies the hash by the
// prime, so a run of n zero bytes is one multiplication by prime^n: the zero high bytes of small numbers and the
// empty rows of the matrix cost no step each (the hash is the same as byte by byte; tests/engine/state_hash_test).
class Fnv1a {
 public:
  void u8(std::uint8_t v) {
    hash_ ^= v;
    hash_ *= kFnvPrime;
  }
  void u16(std::uint16_t v) { bytes(v, 2); }
  void u32(std::uint32_t v) { bytes(v, 4); }
  void u64(std::uint64_t v) { bytes(v, 8); }
  void i8(std::int8_t v) { u8(static_cast<std::uint8_t>(v)); }
  void i32(std::int32_t v) { u32(static_cast<std::uint32_t>(v)); }
  void i64(std::int64_t v) { u64(static_cast<std::uint64_t>(v)); }
  void flag(bool v) { u8(v ? 1 : 0); }
  // `rows` rows of the matrix with no block: kMatrixWidth zero bytes each (Piece::kNone is 0).
  void empty_rows(int rows) { hash_ *= kEmptyRows[static_cast<std::size_t>(rows)]; }
  [[nodiscard]] std::uint64_t value() const { return hash_; }

 private:
  // The n low bytes of v, lowest first: those up to its highest non-zero byte one by one, the zeros above at once.
  void bytes(std::uint64_t v, int n) {
    int taken = 0;
    for (; taken < n && v != 0; ++taken, v >>= 8) u8(static_cast<std::uint8_t>(v));
    hash_ *= kZeroBytes[static_cast<std::size_t>(n - taken)];
  }
  std::uint64_t hash_ = 0xCBF29CE484222325ull;
};

}  // namespace

Game::Game(GameConfig config, std::uint64_t seed) : config_(std::move(config)), seed_(seed) {
  assert(check_config(config_).ok());
  state_.generator = Generator(config_.generator, seed);
  for (auto& p : state_.queue) p = state_.generator.next(config_.fixed_sequence);
  for (std::size_t y = 0; y < config_.initial_board.size(); ++y) {
    for (int x = 0; x < kMatrixWidth; ++x) {
      const Piece p = config_.initial_board[y][static_cast<std::size_t>(x)];
      if (p != Piece::kNone) state_.matrix.set(x, static_cast<int>(y), p);
    }
  }
  state_.stats.level = config_.start_level;
  if (config_.limit == LimitKind::kTime) state_.end_at = config_.limit_value * 1'000'000;
  state_.spawn_at = config_.handling.are_us;  // the first piece, like every other, after the spawn delay
  events_.reserve(64);
}

inline TimeUs Game::ground_cap_at() const {
  if (config_.lock_down != LockDown::kTimer || state_.phase != Phase::kFalling || state_.ground_since == kNever) {
    return kNever;
  }
  return state_.ground_since + (config_.ground_time_cap_us - state_.ground_time_us);
}

inline TimeUs Game::next_event_at() const {
  const GameState& s = state_;
  TimeUs next = std::min(std::min(s.end_at, s.spawn_at), std::min(s.lock_timer_at, s.fall_at));
  if (!s.shift_blocked) next = std::min(next, s.shift_at);
  return config_.lock_down == LockDown::kTimer ? std::min(next, ground_cap_at()) : next;
}

UpdateResult Game::update(TimeUs time_us, std::optional<Buttons> buttons) {
  events_.clear();
  buttons_at_ = -1;
  if (time_us < state_.now_us) return {UpdateError::kTimeInPast, {}};
  if (buttons && (*buttons & ~button::kAll) != 0) return {UpdateError::kInvalidButtons, {}};
  if (state_.phase == Phase::kOver) return {UpdateError::kOk, {}};
  // Most updates have no event due: the check is made here, so that they cost no call to run_events().
  if (next_event_at() <= time_us) run_events(time_us);
  if (state_.phase != Phase::kOver) {
    state_.now_us = time_us;
    state_.stats.time_us = time_us;
    if (buttons && *buttons != state_.held) {
      // Releasing only buttons that act when pressed (rotations, hold, hard drop: about half of all changes)
      // changes nothing but the held buttons, so no event can fall due.
      constexpr Buttons kActOnRelease = button::kMoveLeft | button::kMoveRight | button::kSoftDrop;
      const Buttons pressed = static_cast<Buttons>(*buttons & ~state_.held);
      const Buttons released = static_cast<Buttons>(state_.held & ~*buttons);
      if (pressed == 0 && (released & kActOnRelease) == 0) {
        state_.held = *buttons;
      } else {
        buttons_at_ = time_us;
        apply_buttons(time_us, *buttons);
        if (state_.phase != Phase::kOver && next_event_at() <= time_us) run_events(time_us);
      }
    }
  }
  return {UpdateError::kOk, events_};
}

void Game::run_events(TimeUs until) {
  // Each pass handles the earliest pending event.
  while (state_.phase != Phase::kOver) {
    const TimeUs next = next_event_at();
    if (next > until) break;
    run_event(next);
  }
}

void Game::run_event(TimeUs next) {
  // Ties go by the fixed order below.
  state_.now_us = next;
  state_.stats.time_us = next;
  if (state_.end_at == next) {
    finish(next);
  } else if (state_.spawn_at == next) {
    state_.spawn_at = kNever;
    state_.hold_used = false;
    spawn(next, pop_queue(), false);
  } else if (ground_cap_at() == next) {
    lock(next);
  } else if (state_.lock_timer_at == next) {
    on_lock_timer(next);
  } else if (state_.fall_at == next) {
    on_fall_timer(next);
  } else {
    on_shift_timer(next);
  }
}

void Game::finish(TimeUs t) {
  state_.finished = true;
  end_game(t, EventKind::kFinished, TopOut::kNone);
}

void Game::top_out(TimeUs t, TopOut reason) {
  state_.top_out = reason;
  end_game(t, EventKind::kGameOver, reason);
}

void Game::end_game(TimeUs t, EventKind kind, TopOut reason) {
  state_.phase = Phase::kOver;
  state_.now_us = t;
  state_.stats.time_us = t;
  state_.end_at = state_.spawn_at = state_.fall_at = state_.shift_at = state_.lock_timer_at = kNever;
  Event e;
  e.time_us = t;
  e.kind = kind;
  e.top_out = reason;
  emit(e);
}

std::optional<ActivePiece> Game::active() const {
  if (state_.phase != Phase::kFalling) return std::nullopt;
  return state_.active;
}

int Game::ghost_y() const {
  const ActivePiece& a = state_.active;
  if (state_.phase != Phase::kFalling) return a.y;
  return a.y - state_.matrix.drop_distance(a.piece, a.rotation, a.x, a.y);
}

std::span<const Piece> Game::preview() const { return std::span<const Piece>(state_.queue).first(config_.preview); }

std::int64_t Game::lines_left() const {
  if (config_.limit != LimitKind::kLines) return 0;
  return std::max<std::int64_t>(0, config_.limit_value - state_.stats.lines);
}

// Canonical encoding, in this order (integers little-endian, bools one byte, enums their underlying value):
// now_us, phase, matrix cells (row 0 first, x 0..9), generator (kind, 4 rng words, bag, bag position, 7 recency
// counters, fixed position), queue, active (piece, rotation, x, y), hold, hold_used, held, das_dir, das_charged,
// pending_initial, end_at, spawn_at, fall_at, shift_at, lock_timer_at, shift_blocked, lowest_y, lock_started,
// lock_on_landing, lock_resets, ground_since, ground_time_us, last_rotated, last_kick, combo, b2b_chain, tetrs_b2b,
// level_lines, stats (in declaration order), top_out, finished.
std::uint64_t Game::state_hash() const {
  const GameState& s = state_;
  Fnv1a h;
  h.i64(s.now_us);
  h.u8(static_cast<std::uint8_t>(s.phase));
  s.matrix.hash_into(h);
  s.generator.hash_into(h);
  for (Piece p : s.queue) h.u8(static_cast<std::uint8_t>(p));
  h.u8(static_cast<std::uint8_t>(s.active.piece));
  h.u8(static_cast<std::uint8_t>(s.active.rotation));
  h.i8(s.active.x);
  h.i8(s.active.y);
  h.u8(static_cast<std::uint8_t>(s.hold));
  h.flag(s.hold_used);
  h.u16(s.held);
  h.i8(s.das_dir);
  h.flag(s.das_charged);
  h.u16(s.pending_initial);
  for (TimeUs t : {s.end_at, s.spawn_at, s.fall_at, s.shift_at, s.lock_timer_at}) h.i64(t);
  h.flag(s.shift_blocked);
  h.i8(s.lowest_y);
  h.flag(s.lock_started);
  h.flag(s.lock_on_landing);
  h.i32(s.lock_resets);
  h.i64(s.ground_since);
  h.i64(s.ground_time_us);
  h.flag(s.last_rotated);
  h.i8(s.last_kick);
  h.i32(s.combo);
  h.i32(s.b2b_chain);
  h.i32(s.tetrs_b2b);
  h.i32(s.level_lines);
  const Stats& st = s.stats;
  h.i64(st.time_us);
  for (std::int64_t v : {st.pieces, st.lines, st.score}) h.i64(v);
  h.i32(st.level);
  for (std::int64_t v :
       {st.key_presses, st.holds, st.singles, st.doubles, st.triples, st.tetrises, st.tspins, st.tspin_singles,
        st.tspin_doubles, st.tspin_triples, st.minis, st.mini_singles, st.mini_doubles, st.perfect_clears}) {
    h.i64(v);
  }
  h.i32(st.max_combo);
  h.i32(st.max_b2b);
  h.u8(static_cast<std::uint8_t>(s.top_out));
  h.flag(s.finished);
  return h.value();
}

}  // namespace sr::engine
