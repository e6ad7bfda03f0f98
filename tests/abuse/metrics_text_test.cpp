#include "tests/abuse/metrics_text.h"

#include <gtest/gtest.h>

namespace sr::abuse {
namespace {

constexpr const char* kBefore =
    "# HELP stackrace_players Players connected now.\n"
    "# TYPE stackrace_players gauge\n"
    "stackrace_players 8\n"
    "stackrace_rooms{state=\"waiting\"} 2\n"
    "stackrace_racers_removed_total{reason=\"slow clock\"} 0\n"
    "stackrace_sent_bytes_total 1000\n";

constexpr const char* kAfter =
    "stackrace_players 72\n"
    "stackrace_rooms{state=\"waiting\"} 2\n"
    "stackrace_racers_removed_total{reason=\"slow clock\"} 3\n"
    "stackrace_sent_bytes_total 90000\n"
    "stackrace_refused_total{what=\"list\"} 12\n";

TEST(MetricsText, ReadsEverySeriesWithItsLabelsAndSkipsComments) {
  const MetricValues v = parse_metrics(kBefore);
  const MetricValues expected{{"stackrace_players", 8},
                              {"stackrace_rooms{state=\"waiting\"}", 2},
                              {"stackrace_racers_removed_total{reason=\"slow clock\"}", 0},
                              {"stackrace_sent_bytes_total", 1000}};
  EXPECT_EQ(v, expected);
}

TEST(MetricsText, ALineWithoutANumberIsSkipped) {
  EXPECT_EQ(parse_metrics("broken\nx abc\ny 1.5\n\n"), (MetricValues{{"y", 1.5}}));
}

TEST(MetricsText, CountersMoveByTheirDeltaGaugesFromTo) {
  const std::vector<std::string> expected{"stackrace_players 8 -> 72",
                                          "stackrace_racers_removed_total{reason=\"slow clock\"} +3",
                                          "stackrace_refused_total{what=\"list\"} +12"};
  EXPECT_EQ(metrics_moved(parse_metrics(kBefore), parse_metrics(kAfter), {"stackrace_sent_bytes"}), expected);
}

TEST(MetricsText, NothingMovedIsAnEmptyList) {
  EXPECT_TRUE(metrics_moved(parse_metrics(kBefore), parse_metrics(kBefore)).empty());
}

}  // namespace
}  // namespace sr::abuse
