// The replay viewer's plots: time ticks in round seconds or minutes, their labels, and the sample under the mouse.
#include "client/replay/plot_axis.h"

#include <gtest/gtest.h>

namespace sr::client {
namespace {

TEST(PlotAxis, TicksAreRoundSteps) {
  EXPECT_EQ(time_ticks(42.5, 6), (std::vector<double>{0, 10, 20, 30, 40}));
  EXPECT_EQ(time_ticks(9.0, 6), (std::vector<double>{0, 2, 4, 6, 8}));
  EXPECT_EQ(time_ticks(4.0, 6), (std::vector<double>{0, 1, 2, 3, 4}));
  EXPECT_EQ(time_ticks(180.0, 6), (std::vector<double>{0, 30, 60, 90, 120, 150, 180}));
  EXPECT_EQ(time_ticks(1000.0, 6), (std::vector<double>{0, 300, 600, 900}));
  EXPECT_EQ(time_ticks(0.0, 6), (std::vector<double>{0}));
  EXPECT_EQ(time_ticks(-3.0, 6), (std::vector<double>{0}));
}

TEST(PlotAxis, LabelsInSecondsThenMinutes) {
  EXPECT_EQ(tick_label(0), "0 s");
  EXPECT_EQ(tick_label(45), "45 s");
  EXPECT_EQ(tick_label(60), "1:00");
  EXPECT_EQ(tick_label(90), "1:30");
  EXPECT_EQ(tick_label(720), "12:00");
}

TEST(PlotAxis, TheSampleUnderATime) {
  // 100 samples over 50 s: sample k-1 is at k * 0.5 s.
  EXPECT_EQ(sample_at(0, 50'000'000, 100), 0u);
  EXPECT_EQ(sample_at(500'000, 50'000'000, 100), 0u);
  EXPECT_EQ(sample_at(1'000'000, 50'000'000, 100), 1u);
  EXPECT_EQ(sample_at(1'240'000, 50'000'000, 100), 1u);
  EXPECT_EQ(sample_at(25'000'000, 50'000'000, 100), 49u);
  EXPECT_EQ(sample_at(50'000'000, 50'000'000, 100), 99u);
  EXPECT_EQ(sample_at(90'000'000, 50'000'000, 100), 99u);
  EXPECT_EQ(sample_at(5, 0, 100), 0u);
}

}  // namespace
}  // namespace sr::client
