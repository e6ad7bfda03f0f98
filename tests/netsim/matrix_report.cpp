#include "tests/netsim/matrix_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstddef>

namespace sr::netsim {
namespace {

constexpr std::size_t kColumns = 16;
using Row = std::array<std::string, kColumns>;

// The table's columns. "races" and "racers" are got/planned, "replays ok" verified/stored, "whole" the racers whose
// game ended by itself (finished, topped out) and whose stored input log equals the one their client kept, out of
// those in the stored replays.
constexpr std::array<const char*, kColumns> kHeaders = {
    "profile",   "races",     "racers",     "finished",       "topped out",
    "removed",   "other",     "desyncs",    "replays ok",     "whole",
    "relay p50", "relay p99", "reconnects", "resume p50/max", "unverified sum/max",
    "wall"};
// The CSV's columns: plain numbers, the unit in the name, empty where nothing was measured.
constexpr const char* kCsvHeader =
    "profile,races,races_planned,racers,racers_planned,finished,topped_out,removed,other,desyncs,desync_notices,"
    "replays_stored,"
    "replays_verified,logs_checked,logs_whole,relay_samples,relay_p50_ms,relay_p99_ms,reconnects,resume_p50_s,"
    "resume_max_s,unverified_sum_s,unverified_max_s,wall_s,setup_drops";

std::string ms(std::optional<std::int64_t> us) {
  return us ? fmt::format("{:.1f} ms", static_cast<double>(*us) / 1000.0) : std::string("-");
}

std::string seconds(std::int64_t us) { return fmt::format("{:.1f}", static_cast<double>(us) / 1e6); }

std::optional<std::int64_t> max_of(const std::vector<std::int64_t>& v) {
  if (v.empty()) return std::nullopt;
  return *std::max_element(v.begin(), v.end());
}

Row table_row(const ProfileOutcome& o) {
  const auto resume_p50 = percentile(o.resume_times_us, 0.5);
  const auto resume_max = max_of(o.resume_times_us);
  return {o.profile, fmt::format("{}/{}", o.races, o.races_planned), fmt::format("{}/{}", o.racers, o.racers_planned),
          std::to_string(o.finished), std::to_string(o.topped_out), std::to_string(o.removed),
          std::to_string(o.other_endings),
          // The server counts every desync; a bot's notice can be lost with its connection.
          std::to_string(std::max(o.desyncs, o.desync_notices)),
          fmt::format("{}/{}", o.replays_verified, o.replays_stored),
          fmt::format("{}/{}", o.logs_whole, o.logs_checked), ms(percentile(o.relay_delays_us, 0.5)),
          ms(percentile(o.relay_delays_us, 0.99)), std::to_string(o.reconnects),
          resume_p50 ? fmt::format("{} / {} s", seconds(*resume_p50), seconds(*resume_max)) : std::string("-"),
          fmt::format("{} / {} s", seconds(o.unverified_sum_us), seconds(o.unverified_max_us)),
          fmt::format("{:.0f} s", o.wall_s)};
}

}  // namespace

std::optional<std::int64_t> percentile(std::vector<std::int64_t> samples, double fraction) {
  if (samples.empty()) return std::nullopt;
  std::sort(samples.begin(), samples.end());
  const auto index = static_cast<std::size_t>(std::clamp(fraction, 0.0, 1.0) * static_cast<double>(samples.size()));
  return samples[std::min(samples.size() - 1, index)];
}

bool expects_resume(const std::string& profile) { return profile == "blackout45" || profile == "address-change"; }

std::vector<std::string> judge(const ProfileOutcome& o) {
  std::vector<std::string> why;
  if (o.races < o.races_planned)
    why.push_back(fmt::format("{} of {} races without results", o.races_planned - o.races, o.races_planned));
  // A top-out is the bot's play, not the network's doing: the server's simulation of the racer's own inputs ended
  // the game, and the whole-log and desync checks below hold for it as for a finish.
  if (o.finished + o.topped_out < o.racers_planned) {
    why.push_back(fmt::format("{} of {} racers finished", o.finished + o.topped_out, o.racers_planned));
  }
  if (o.removed > 0) why.push_back(fmt::format("{} removed", o.removed));
  if (o.other_endings > 0) why.push_back(fmt::format("{} did not finish", o.other_endings));
  if (o.replays_stored < o.races_planned) {
    why.push_back(fmt::format("{} replays stored for {} races", o.replays_stored, o.races_planned));
  }
  if (o.replays_verified < o.replays_stored) {
    why.push_back(
        fmt::format("{} of {} replays do not verify", o.replays_stored - o.replays_verified, o.replays_stored));
  }
  if (o.logs_whole < o.logs_checked) {
    why.push_back(
        fmt::format("{} of {} racers' replays miss part of their game", o.logs_checked - o.logs_whole, o.logs_checked));
  }
  if (expects_resume(o.profile)) {
    if (o.reconnects == 0) why.push_back("no reconnect");
  } else if (o.desyncs > 0 || o.desync_notices > 0) {
    why.push_back(fmt::format("{} desyncs", std::max(o.desyncs, o.desync_notices)));
  }
  return why;
}

std::string align_columns(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width;
  for (const auto& r : rows) {
    width.resize(std::max(width.size(), r.size()), 0);
    for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  }
  std::string out;
  for (const auto& r : rows) {
    for (std::size_t c = 0; c < r.size(); ++c) {
      out += c == 0 ? fmt::format("{:<{}}", r[c], width[c]) : fmt::format("  {:>{}}", r[c], width[c]);
    }
    out += "\n";
  }
  return out;
}

std::string format_table(const std::vector<ProfileOutcome>& outcomes) {
  std::vector<std::vector<std::string>> rows{{kHeaders.begin(), kHeaders.end()}};
  for (const ProfileOutcome& o : outcomes) {
    const Row row = table_row(o);
    rows.emplace_back(row.begin(), row.end());
  }
  return align_columns(rows);
}

std::string format_csv(const std::vector<ProfileOutcome>& outcomes) {
  const auto plain_ms = [](std::optional<std::int64_t> us) {
    return us ? fmt::format("{:.3f}", static_cast<double>(*us) / 1000.0) : std::string();
  };
  const auto plain_s = [](std::optional<std::int64_t> us) {
    return us ? fmt::format("{:.3f}", static_cast<double>(*us) / 1e6) : std::string();
  };
  std::string out = std::string(kCsvHeader) + "\n";
  for (const ProfileOutcome& o : outcomes) {
    out +=
        fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},", o.profile, o.races, o.races_planned, o.racers,
                    o.racers_planned, o.finished, o.topped_out, o.removed, o.other_endings, o.desyncs, o.desync_notices,
                    o.replays_stored, o.replays_verified, o.logs_checked, o.logs_whole, o.relay_delays_us.size());
    out += fmt::format("{},{},{},{},{},{},{},{:.3f},{}\n", plain_ms(percentile(o.relay_delays_us, 0.5)),
                       plain_ms(percentile(o.relay_delays_us, 0.99)), o.reconnects,
                       plain_s(percentile(o.resume_times_us, 0.5)), plain_s(max_of(o.resume_times_us)),
                       plain_s(o.unverified_sum_us), plain_s(o.unverified_max_us), o.wall_s, o.setup_drops);
  }
  return out;
}

std::string format_verdict(const std::vector<ProfileOutcome>& outcomes) {
  std::string failures;
  for (const ProfileOutcome& o : outcomes) {
    const std::vector<std::string> why = judge(o);
    if (why.empty()) continue;
    std::string reasons;
    for (const std::string& w : why) reasons += (reasons.empty() ? "" : ", ") + w;
    failures += (failures.empty() ? "" : "; ") + o.profile + ": " + reasons;
  }
  if (outcomes.empty()) return "netmatrix: FAIL (no profile ran)";
  return failures.empty() ? "netmatrix: PASS" : "netmatrix: FAIL (" + failures + ")";
}

}  // namespace sr::netsim
