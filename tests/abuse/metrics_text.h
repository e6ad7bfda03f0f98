// The server's Prometheus text (http://BIND:PORT/metrics) read as numbers, and what moved between two scrapes: what
// an operator watching the dashboards would have seen of an attack.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace sr::abuse {

// Series (the name with its labels, as written: `stackrace_rooms{state="waiting"}`) -> value. Comments (# HELP,
// # TYPE), blank lines and lines whose value is not a number are skipped.
using MetricValues = std::map<std::string, double>;
[[nodiscard]] MetricValues parse_metrics(std::string_view text);

// Every series whose value differs between `before` and `after` (a series only in one counts from 0), in name order,
// as "name +delta" for counters (_total) and "name a -> b" for gauges. `ignore` names series (by prefix) that always
// move and say nothing of an attack (bytes sent, the referee's CPU).
[[nodiscard]] std::vector<std::string> metrics_moved(const MetricValues& before, const MetricValues& after,
                                                     const std::vector<std::string>& ignore = {});

}  // namespace sr::abuse
