// The replay viewer's plots (PPS and lines over the game): where the time axis' ticks go and how they read, and
// which curve sample a time (the mouse over a plot) shows. Pure: no ImGui here.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "common/engine/types.h"

namespace sr::client {

// Tick positions in seconds over 0..end_s: 0 and every multiple of the smallest round step (1, 2, 5, 10, 15, 30 s,
// 1, 2, 5, 10, 15, 30 min, 1 h) that gives at most `max_ticks` steps. end_s <= 0 gives {0}.
[[nodiscard]] std::vector<double> time_ticks(double end_s, int max_ticks);

// A tick's label: "0 s", "45 s" below a minute; "1:30", "12:00" from a minute on.
[[nodiscard]] std::string tick_label(double s);

// The sample of a curve of `n` samples taken at end_us * k / n (k = 1..n) that shows time `t_us`: the nearest, clamped
// to 0..n-1. n must be > 0.
[[nodiscard]] std::size_t sample_at(engine::TimeUs t_us, engine::TimeUs end_us, std::size_t n);

}  // namespace sr::client
