#include "common/replay/fumen.h"

#include <algorithm>
#include <array>
#include <tuple>
#include <utility>

#include "common/engine/pieces.h"
#include "common/replay/simulate.h"

namespace sr::replay {
namespace {

constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr int kFieldTop = 23;  // rows 0..22
constexpr int kWidth = 10;
constexpr int kBlocks = (kFieldTop + 1) * kWidth;  // plus the garbage row

// [y + 1][x] for y = -1 (garbage row) .. 22; values are fumen piece numbers.
using Field = std::array<std::array<int, kWidth>, kFieldTop + 1>;

int fumen_piece(engine::Piece p) {
  switch (p) {
    case engine::Piece::kI: return 1;
    case engine::Piece::kL: return 2;
    case engine::Piece::kO: return 3;
    case engine::Piece::kZ: return 4;
    case engine::Piece::kT: return 5;
    case engine::Piece::kJ: return 6;
    case engine::Piece::kS: return 7;
    case engine::Piece::kGarbage: return 8;
    default: return 0;
  }
}

// tetris-fumen's cells around the piece centre in spawn orientation (its getPieces).
std::array<engine::Cell, 4> fumen_spawn_cells(engine::Piece p) {
  switch (p) {
    case engine::Piece::kI: return {{{0, 0}, {-1, 0}, {1, 0}, {2, 0}}};
    case engine::Piece::kT: return {{{0, 0}, {-1, 0}, {1, 0}, {0, 1}}};
    case engine::Piece::kO: return {{{0, 0}, {1, 0}, {0, 1}, {1, 1}}};
    case engine::Piece::kL: return {{{0, 0}, {-1, 0}, {1, 0}, {1, 1}}};
    case engine::Piece::kJ: return {{{0, 0}, {-1, 0}, {1, 0}, {-1, 1}}};
    case engine::Piece::kS: return {{{0, 0}, {-1, 0}, {0, 1}, {1, 1}}};
    default: return {{{0, 0}, {1, 0}, {0, 1}, {-1, 1}}};  // Z
  }
}

// The encoded position of a placement: tetris-fumen's centre, then its encodePosition adjustments.
int fumen_position(const Placement& p) {
  int our_min_x = 99, our_min_y = 99, f_min_x = 99, f_min_y = 99;
  for (const engine::Cell c : engine::piece_cells(p.piece, p.rotation)) {
    our_min_x = std::min(our_min_x, p.x + c.x);
    our_min_y = std::min(our_min_y, p.y + c.y);
  }
  for (engine::Cell c : fumen_spawn_cells(p.piece)) {
    int x = c.x, y = c.y;
    switch (p.rotation) {
      case engine::Rotation::kEast: std::tie(x, y) = std::pair(y, -x); break;    // right
      case engine::Rotation::kWest: std::tie(x, y) = std::pair(-y, x); break;    // left
      case engine::Rotation::kSouth: std::tie(x, y) = std::pair(-x, -y); break;  // reverse
      default: break;
    }
    f_min_x = std::min(f_min_x, x);
    f_min_y = std::min(f_min_y, y);
  }
  int x = our_min_x - f_min_x;
  int y = our_min_y - f_min_y;
  using engine::Piece;
  using engine::Rotation;
  const Piece k = p.piece;
  const Rotation r = p.rotation;
  if (k == Piece::kO && r == Rotation::kWest) {
    x -= 1;
    y += 1;
  } else if (k == Piece::kO && r == Rotation::kSouth) {
    x -= 1;
  } else if (k == Piece::kO && r == Rotation::kNorth) {
    y += 1;
  } else if (k == Piece::kI && r == Rotation::kSouth) {
    x -= 1;
  } else if (k == Piece::kI && r == Rotation::kWest) {
    y += 1;
  } else if (k == Piece::kS && r == Rotation::kNorth) {
    y += 1;
  } else if (k == Piece::kS && r == Rotation::kEast) {
    x += 1;
  } else if (k == Piece::kZ && r == Rotation::kNorth) {
    y += 1;
  } else if (k == Piece::kZ && r == Rotation::kWest) {
    x -= 1;
  }
  return (kFieldTop - y - 1) * kWidth + x;
}

int fumen_rotation(engine::Rotation r) {
  switch (r) {
    case engine::Rotation::kSouth: return 0;
    case engine::Rotation::kEast: return 1;
    case engine::Rotation::kNorth: return 2;
    default: return 3;  // west
  }
}

bool fits_field(const Placement& p) {
  for (const engine::Cell c : engine::piece_cells(p.piece, p.rotation)) {
    const int x = p.x + c.x, y = p.y + c.y;
    if (x < 0 || x >= kWidth || y < 0 || y >= kFieldTop) return false;
  }
  return true;
}

void push(std::vector<int>& out, int value, int digits) {
  for (int i = 0; i < digits; ++i) {
    out.push_back(value % 64);
    value /= 64;
  }
}

// Runs of (current - previous + 8) over rows 22..0 then the garbage row. Returns whether anything differs.
bool encode_field(const Field& prev, const Field& cur, std::vector<int>& out) {
  const auto diff = [&](int index) {
    const int row = kFieldTop - index / kWidth;  // [y + 1] for y = 22 - index / 10
    const int x = index % kWidth;
    return cur[static_cast<std::size_t>(row)][static_cast<std::size_t>(x)] -
           prev[static_cast<std::size_t>(row)][static_cast<std::size_t>(x)] + 8;
  };
  bool changed = false;
  int run_value = diff(0);
  int run = -1;
  for (int i = 0; i < kBlocks; ++i) {
    const int d = diff(i);
    if (d != run_value) {
      push(out, run_value * kBlocks + run, 2);
      run = 0;
      run_value = d;
      changed = true;
    } else {
      ++run;
    }
  }
  push(out, run_value * kBlocks + run, 2);
  return changed;
}

void lock(Field& f, const Placement& p) {
  for (const engine::Cell c : engine::piece_cells(p.piece, p.rotation)) {
    f[static_cast<std::size_t>(p.y + c.y + 1)][static_cast<std::size_t>(p.x + c.x)] = fumen_piece(p.piece);
  }
  // Clear full rows of the 23-row field; the garbage row (index 0) is not part of it.
  std::size_t write = 1;
  for (std::size_t read = 1; read < f.size(); ++read) {
    const bool full = std::all_of(f[read].begin(), f[read].end(), [](int v) { return v != 0; });
    if (full) continue;
    f[write++] = f[read];
  }
  for (; write < f.size(); ++write) f[write].fill(0);
}

}  // namespace

Result<std::string> encode_fumen(const std::vector<engine::BoardRow>& initial_board,
                                 std::span<const std::optional<Placement>> pages) {
  Field first{};
  for (std::size_t y = 0; y < initial_board.size(); ++y) {
    for (std::size_t x = 0; x < initial_board[y].size() && x < static_cast<std::size_t>(kWidth); ++x) {
      const int v = fumen_piece(initial_board[y][x]);
      if (v == 0) continue;
      if (y >= static_cast<std::size_t>(kFieldTop)) {
        return Error{ErrorKind::kOutOfRange, "the initial board has blocks above fumen's 23 rows", {}, -1};
      }
      first[y + 1][x] = v;
    }
  }
  std::vector<int> digits;
  int repeat_at = -1;
  Field prev{};
  for (std::size_t i = 0; i < pages.size(); ++i) {
    Field cur = i == 0 ? first : prev;
    std::vector<int> field;
    if (encode_field(prev, cur, field)) {
      digits.insert(digits.end(), field.begin(), field.end());
      repeat_at = -1;
    } else if (repeat_at < 0 || digits[static_cast<std::size_t>(repeat_at)] == 63) {
      digits.insert(digits.end(), field.begin(), field.end());
      digits.push_back(0);
      repeat_at = static_cast<int>(digits.size()) - 1;
    } else {
      ++digits[static_cast<std::size_t>(repeat_at)];
    }

    const std::optional<Placement>& p = pages[i];
    if (p && !fits_field(*p)) {
      return Error{ErrorKind::kOutOfRange, "page " + std::to_string(i) + " has a block outside fumen's field", {}, -1};
    }
    const int piece = p ? fumen_piece(p->piece) : 0;
    const int rotation = p ? fumen_rotation(p->rotation) : 0;
    const int position = p ? fumen_position(*p) : 0;
    const int colorize = i == 0 ? 1 : 0;
    // lock = 1 (stored inverted), no comment, no mirror, no rise.
    int action = ((0 * 2 + 0) * 2 + colorize) * 2 * 2;
    action = ((action * kBlocks + position) * 4 + rotation) * 8 + piece;
    push(digits, action, 3);
    if (p) lock(cur, *p);
    prev = cur;
  }

  std::string data;
  for (int d : digits) data += kDigits[d];
  std::string out = "v115@";
  out.append(data, 0, 42);
  for (std::size_t i = 42; i < data.size(); i += 47) {
    out += '?';
    out.append(data, i, 47);
  }
  return out;
}

Result<FumenExport> replay_fumen(const Replay& replay, std::size_t racer) {
  if (racer >= replay.racers.size()) {
    return Error{ErrorKind::kOutOfRange, "racer " + std::to_string(racer) + " does not exist", {}, -1};
  }
  const Racer& r = replay.racers[racer];
  std::vector<std::optional<Placement>> pages;
  bool stopped = false;
  std::size_t locked = 0;
  const auto on_event = [&](const engine::Event& e) {
    if (e.kind != engine::EventKind::kLock) return;
    ++locked;
    const Placement p{e.piece, e.rotation, e.x, e.y};
    if (stopped || !fits_field(p)) {
      stopped = true;
      return;
    }
    pages.emplace_back(p);
  };
  (void)simulate(racer_config(replay, racer), replay.seed, r.inputs, r.result.stats.time_us, replay.checkpoint_every,
                 on_event);
  if (pages.empty()) pages.emplace_back(std::nullopt);  // a game without pieces still shows its board
  Result<std::string> fumen = encode_fumen(replay.config.initial_board, pages);
  if (!fumen.ok()) return fumen.error();
  return FumenExport{std::move(fumen).value(), pages.size(), locked};
}

}  // namespace sr::replay
