#include "client/replay/plot_axis.h"

#include <algorithm>
#include <cassert>
#include <cstdio>

namespace sr::client {

std::vector<double> time_ticks(double end_s, int max_ticks) {
  static constexpr double kSteps[] = {1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600};
  std::vector<double> out{0.0};
  if (!(end_s > 0) || max_ticks < 1) return out;
  double step = kSteps[std::size(kSteps) - 1];
  for (double s : kSteps) {
    if (end_s / s <= max_ticks) {
      step = s;
      break;
    }
  }
  for (double t = step; t <= end_s + 1e-9; t += step) out.push_back(t);
  return out;
}

std::string tick_label(double s) {
  const long long whole = static_cast<long long>(s + 0.5);
  char buf[32];
  if (whole < 60) {
    std::snprintf(buf, sizeof buf, "%lld s", whole);
  } else {
    std::snprintf(buf, sizeof buf, "%lld:%02lld", whole / 60, whole % 60);
  }
  return buf;
}

std::size_t sample_at(engine::TimeUs t_us, engine::TimeUs end_us, std::size_t n) {
  assert(n > 0);
  if (end_us <= 0 || t_us <= 0) return 0;
  // Sample k (1-based) is at end * k / n: the nearest k is round(t * n / end).
  const auto k = static_cast<std::int64_t>(
      (static_cast<double>(t_us) * static_cast<double>(n)) / static_cast<double>(end_us) + 0.5);
  return static_cast<std::size_t>(std::clamp<std::int64_t>(k, 1, static_cast<std::int64_t>(n)) - 1);
}

}  // namespace sr::client
