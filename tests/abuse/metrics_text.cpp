#include "tests/abuse/metrics_text.h"

#include <fmt/format.h>

#include <cstdlib>
#include <set>

namespace sr::abuse {
namespace {

std::string number_text(double v) {
  // Counters and gauges of the server are whole numbers except the CPU seconds.
  if (v == static_cast<double>(static_cast<long long>(v))) return fmt::format("{}", static_cast<long long>(v));
  return fmt::format("{:.3f}", v);
}

bool is_counter(const std::string& series) {
  const std::size_t brace = series.find('{');
  const std::string name = series.substr(0, brace);
  return name.size() > 6 && name.compare(name.size() - 6, 6, "_total") == 0;
}

}  // namespace

MetricValues parse_metrics(std::string_view text) {
  MetricValues out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string line(text.substr(at, end - at));
    at = end + 1;
    if (line.empty() || line[0] == '#') continue;
    // The value follows the last space (label values may hold spaces, numbers never do).
    const std::size_t space = line.rfind(' ');
    if (space == std::string::npos || space == 0) continue;
    const std::string value = line.substr(space + 1);
    char* stop = nullptr;
    const double v = std::strtod(value.c_str(), &stop);
    if (stop == value.c_str() || *stop != '\0') continue;
    out[line.substr(0, space)] = v;
  }
  return out;
}

std::vector<std::string> metrics_moved(const MetricValues& before, const MetricValues& after,
                                       const std::vector<std::string>& ignore) {
  std::set<std::string> names;
  for (const auto& [name, v] : before) names.insert(name);
  for (const auto& [name, v] : after) names.insert(name);
  std::vector<std::string> out;
  for (const std::string& name : names) {
    bool skip = false;
    for (const std::string& prefix : ignore) skip = skip || name.rfind(prefix, 0) == 0;
    if (skip) continue;
    const auto b = before.find(name);
    const auto a = after.find(name);
    const double from = b == before.end() ? 0.0 : b->second;
    const double to = a == after.end() ? 0.0 : a->second;
    if (from == to) continue;
    out.push_back(is_counter(name) ? fmt::format("{} +{}", name, number_text(to - from))
                                   : fmt::format("{} {} -> {}", name, number_text(from), number_text(to)));
  }
  return out;
}

}  // namespace sr::abuse
