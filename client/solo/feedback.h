// Short-lived visual feedback driven by the engine's events: lock flashes, hard-drop trails, cleared-row flashes
// and the names of clears ("T-spin double", "Back-to-back Tetris", "Perfect clear", "3 combo").
// Pure bookkeeping in wall-clock seconds; the renderer decides how an effect looks.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "common/engine/events.h"
#include "common/engine/pieces.h"

namespace sr::client {

// The lines naming one clear, most important first, e.g. {"Back-to-back T-spin double", "Perfect clear",
// "2 combo"}. Empty for a lock that cleared nothing and was no spin.
[[nodiscard]] std::vector<std::string> clear_names(const engine::Event& clear);

struct LockFlash {
  double at_s;
  engine::Piece piece;
  engine::PieceCells cells;  // absolute matrix cells
  int drop_rows;             // > 0 when the piece was hard dropped this far: draw a trail above it
};

struct RowFlash {
  double at_s;
  std::uint64_t rows_mask;  // rows (before the clear) that were cleared
};

struct ClearBanner {
  double at_s;
  std::vector<std::string> lines;
};

class Feedback {
 public:
  static constexpr double kLockFlashS = 0.18;
  static constexpr double kRowFlashS = 0.30;
  static constexpr double kBannerS = 1.6;

  // Digests one update()'s events, seen at wall time `now_s`.
  void on_events(std::span<const engine::Event> events, double now_s);
  // Drops effects older than their lifetime.
  void expire(double now_s);
  void clear();

  [[nodiscard]] const std::vector<LockFlash>& locks() const { return locks_; }
  [[nodiscard]] const std::vector<RowFlash>& rows() const { return rows_; }
  [[nodiscard]] const std::vector<ClearBanner>& banners() const { return banners_; }

 private:
  std::vector<LockFlash> locks_;
  std::vector<RowFlash> rows_;
  std::vector<ClearBanner> banners_;
  int pending_drop_rows_ = 0;
};

}  // namespace sr::client
