#include "common/replay/civil_time.h"

#include "common/replay/replay.h"

namespace sr::replay {
namespace {

constexpr std::int64_t kSecondsPerDay = 86'400;
constexpr std::int64_t kDaysPerEra = 146'097;          // 400 Gregorian years
constexpr std::int64_t kDaysFrom0000To1970 = 719'468;  // from 0000-03-01, the start of era 0, to 1970-01-01

// Floor division for a positive divisor (C++ division truncates towards zero).
constexpr std::int64_t floor_div(std::int64_t a, std::int64_t b) { return (a >= 0 ? a : a - (b - 1)) / b; }

// value as decimal, zero-padded to width digits (negative values, outside every CivilTime field, print as 0).
void append_padded(std::string& out, std::int64_t value, int width) {
  if (value < 0) value = 0;
  char digits[20];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value > 0);
  for (int i = n; i < width; ++i) out += '0';
  while (n > 0) out += digits[--n];
}

}  // namespace

// Years start on March 1st, so the leap day is the last day of a year; an era is 400 years (146097 days).
std::int64_t days_from_civil(std::int64_t year, std::int32_t month, std::int32_t day) {
  const std::int64_t y = month <= 2 ? year - 1 : year;
  const std::int64_t era = floor_div(y, 400);
  const std::int64_t yoe = y - era * 400;                          // 0..399
  const std::int64_t mp = month > 2 ? month - 3 : month + 9;       // 0..11, March = 0
  const std::int64_t doy = (153 * mp + 2) / 5 + day - 1;           // 0..365
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;  // 0..146096
  return era * kDaysPerEra + doe - kDaysFrom0000To1970;
}

std::optional<CivilTime> civil_from_unix_ms(std::int64_t unix_ms) {
  if (unix_ms < 0 || unix_ms > kMaxCreatedUnixMs) return std::nullopt;
  const std::int64_t secs = unix_ms / 1000;
  const std::int64_t days = secs / kSecondsPerDay;
  const std::int64_t sod = secs % kSecondsPerDay;

  // Hinnant's civil_from_days; days >= 0 here, so every division below is of non-negative numbers.
  const std::int64_t z = days + kDaysFrom0000To1970;
  const std::int64_t era = z / kDaysPerEra;
  const std::int64_t doe = z - era * kDaysPerEra;                                  // 0..146096
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;  // 0..399
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);                // 0..365
  const std::int64_t mp = (5 * doy + 2) / 153;                                     // 0..11, March = 0
  const std::int64_t day = doy - (153 * mp + 2) / 5 + 1;                           // 1..31
  const std::int64_t month = mp < 10 ? mp + 3 : mp - 9;                            // 1..12
  const std::int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);

  CivilTime t;
  t.year = static_cast<std::int32_t>(year);
  t.month = static_cast<std::int32_t>(month);
  t.day = static_cast<std::int32_t>(day);
  t.hour = static_cast<std::int32_t>(sod / 3600);
  t.minute = static_cast<std::int32_t>(sod / 60 % 60);
  t.second = static_cast<std::int32_t>(sod % 60);
  return t;
}

std::string format_civil(const CivilTime& t) {
  std::string out;
  out.reserve(19);
  append_padded(out, t.year, 4);
  out += '-';
  append_padded(out, t.month, 2);
  out += '-';
  append_padded(out, t.day, 2);
  out += ' ';
  append_padded(out, t.hour, 2);
  out += ':';
  append_padded(out, t.minute, 2);
  out += ':';
  append_padded(out, t.second, 2);
  return out;
}

}  // namespace sr::replay
