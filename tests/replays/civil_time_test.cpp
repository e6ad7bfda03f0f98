#include "common/replay/civil_time.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "common/replay/replay.h"

namespace sr::replay {
namespace {

std::string text(std::int64_t unix_ms) {
  const std::optional<CivilTime> t = civil_from_unix_ms(unix_ms);
  return t ? format_civil(*t) : "out of range";
}

constexpr std::int64_t kMsPerDay = 86'400'000;

TEST(CivilTime, KnownInstants) {
  EXPECT_EQ(text(0), "1970-01-01 00:00:00");
  EXPECT_EQ(text(951'782'400'000), "2000-02-29 00:00:00");  // 2000 is a leap year (divisible by 400)
  EXPECT_EQ(text(4'102'444'800'000), "2100-01-01 00:00:00");
  EXPECT_EQ(text(kMaxCreatedUnixMs), "9999-12-31 23:59:59");
  EXPECT_EQ(text(253'402'300'799'999), "9999-12-31 23:59:59");
  EXPECT_EQ(text(1'234'567'890'123), "2009-02-13 23:31:30");  // milliseconds are dropped
}

TEST(CivilTime, NoLeapDayIn2100) {
  // 2100 is divisible by 100 but not by 400: February has 28 days.
  const std::int64_t feb28 = days_from_civil(2100, 2, 28) * kMsPerDay;
  EXPECT_EQ(text(feb28), "2100-02-28 00:00:00");
  EXPECT_EQ(text(feb28 + kMsPerDay - 1), "2100-02-28 23:59:59");
  EXPECT_EQ(text(feb28 + kMsPerDay), "2100-03-01 00:00:00");
  EXPECT_EQ(days_from_civil(2100, 3, 1) - days_from_civil(2100, 2, 28), 1);
  EXPECT_EQ(days_from_civil(2000, 3, 1) - days_from_civil(2000, 2, 28), 2);
  EXPECT_EQ(4'102'444'800'000 + 58 * kMsPerDay, feb28);  // Jan 1 + 31 + 27 days
}

TEST(CivilTime, DaysFromCivilIsTheInverse) {
  EXPECT_EQ(days_from_civil(1970, 1, 1), 0);
  EXPECT_EQ(days_from_civil(1969, 12, 31), -1);
  EXPECT_EQ(days_from_civil(2000, 2, 29) * kMsPerDay, 951'782'400'000);
  EXPECT_EQ(days_from_civil(2100, 1, 1) * kMsPerDay, 4'102'444'800'000);
  EXPECT_EQ((days_from_civil(10000, 1, 1)) * kMsPerDay - 1, kMaxCreatedUnixMs);
  // Every day from 1970 to 2500 and around 9999: the date comes back to the same day number.
  const auto round_trip = [](std::int64_t day) {
    const std::optional<CivilTime> t = civil_from_unix_ms(day * kMsPerDay);
    ASSERT_TRUE(t.has_value()) << day;
    EXPECT_EQ(days_from_civil(t->year, t->month, t->day), day);
    EXPECT_EQ(t->hour, 0);
  };
  for (std::int64_t day = 0; day < days_from_civil(2500, 1, 1); ++day) round_trip(day);
  for (std::int64_t day = days_from_civil(9990, 1, 1); day < days_from_civil(10000, 1, 1); ++day) round_trip(day);
}

TEST(CivilTime, OutOfRangeIsRefused) {
  EXPECT_FALSE(civil_from_unix_ms(-1).has_value());
  EXPECT_FALSE(civil_from_unix_ms(kMaxCreatedUnixMs + 1).has_value());
}

TEST(CivilTime, FormatPadsEveryField) { EXPECT_EQ(format_civil({987, 1, 2, 3, 4, 5}), "0987-01-02 03:04:05"); }

}  // namespace
}  // namespace sr::replay
