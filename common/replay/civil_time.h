// Calendar dates from unix time without time_t, <chrono> or the C library: integer arithmetic only, so a 32-bit
// build (whose time_t ends in 2038) shows the same dates as a 64-bit one. Proleptic Gregorian calendar, UTC.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace sr::replay {

struct CivilTime {
  std::int32_t year = 1970;  // 1970..9999
  std::int32_t month = 1;    // 1..12
  std::int32_t day = 1;      // 1..31
  std::int32_t hour = 0;     // 0..23
  std::int32_t minute = 0;   // 0..59
  std::int32_t second = 0;   // 0..59 (unix time has no leap seconds)
  bool operator==(const CivilTime&) const = default;
};

// Days since 1970-01-01 of a civil date (negative before it); Howard Hinnant's days_from_civil.
[[nodiscard]] std::int64_t days_from_civil(std::int64_t year, std::int32_t month, std::int32_t day);

// The UTC date and time of unix milliseconds 0..kMaxCreatedUnixMs (1970-01-01 00:00:00 .. 9999-12-31 23:59:59.999;
// milliseconds are dropped); nullopt outside that range.
[[nodiscard]] std::optional<CivilTime> civil_from_unix_ms(std::int64_t unix_ms);

// "YYYY-MM-DD HH:MM:SS", every field zero-padded.
[[nodiscard]] std::string format_civil(const CivilTime& t);

}  // namespace sr::replay
