#include "replays/cli/output.h"

#include <fmt/core.h>

#include "common/replay/civil_time.h"
#include "common/replay/names.h"
#include "replays/store/file_io.h"
#include "replays/store/pg_db.h"

namespace sr::replay::cli {

std::string format_date(std::int64_t unix_ms) {
  const std::optional<CivilTime> t = civil_from_unix_ms(unix_ms);
  if (!t) return std::to_string(unix_ms) + " ms";
  return format_civil(*t) + " UTC";
}

std::string format_seconds(engine::TimeUs t) {
  const engine::TimeUs ms = (t + 500) / 1000;
  return fmt::format("{}.{:03} s", ms / 1000, ms % 1000);
}

std::string mode_summary(const engine::GameConfig& c) {
  const std::string mode = names::name_of(names::kMode, c.mode);
  switch (c.limit) {
    case engine::LimitKind::kTime: return fmt::format("{} ({} s)", mode, c.limit_value);
    case engine::LimitKind::kLines: return fmt::format("{} ({} lines)", mode, c.limit_value);
    case engine::LimitKind::kPieces: return fmt::format("{} ({} pieces)", mode, c.limit_value);
    case engine::LimitKind::kLevel: return fmt::format("{} (to level {})", mode, c.limit_value);
    case engine::LimitKind::kScore: return fmt::format("{} ({} points)", mode, c.limit_value);
    default: return mode;
  }
}

std::string result_summary(const RacerResult& r, const engine::GameConfig& c) {
  const engine::Stats& s = r.stats;
  std::string how;
  switch (r.status) {
    case ResultStatus::kFinished: how = "finished at " + format_seconds(s.time_us); break;
    case ResultStatus::kToppedOut:
      how = fmt::format("topped out ({}) at {}", names::name_of(names::kTopOut, r.top_out), format_seconds(s.time_us));
      break;
    case ResultStatus::kDisconnected: how = "disconnected at " + format_seconds(s.time_us); break;
    case ResultStatus::kForfeited: how = "forfeited at " + format_seconds(s.time_us); break;
    case ResultStatus::kUnfinished: how = "unfinished at " + format_seconds(s.time_us); break;
  }
  const double seconds = static_cast<double>(s.time_us) / 1e6;
  const double pps = seconds > 0 ? static_cast<double>(s.pieces) / seconds : 0.0;
  std::string out =
      c.goal == engine::GoalKind::kScore
          ? fmt::format("{}, score {}, {} lines, {} pieces, {:.2f} pieces/s", how, s.score, s.lines, s.pieces, pps)
          : fmt::format("{}, {} lines, {} pieces, score {}, {:.2f} pieces/s", how, s.lines, s.pieces, s.score, pps);
  if (const std::string late = late_summary(r); !late.empty()) out += ", " + late;
  return out;
}

std::string late_summary(const RacerResult& r) {
  std::string out;
  if (r.unverified_us > 0) {
    // Any late time shows: "0.000 s" would read as a clean run.
    out = "unverified " + (r.unverified_us < 500 ? std::string("< 0.001 s") : format_seconds(r.unverified_us));
  }
  if (r.reconnects > 0) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{} reconnect{}", r.reconnects, r.reconnects == 1 ? "" : "s");
  }
  return out;
}

void report_error(const std::string& what, const Error& error) { report_error(what, error.describe()); }

void report_error(const std::string& what, const std::string& message) {
  fmt::print(stderr, "stackrace-replay: {}: {}\n", what, message);
}

std::string store_label(const std::string& locator) { return pg::is_locator(locator) ? "--store" : locator; }

std::optional<Replay> load_or_report(const std::string& file) {
  Result<Replay> r = load_replay_file(file);
  if (!r.ok()) {
    report_error(file, r.error());
    return std::nullopt;
  }
  return std::move(r.value());
}

}  // namespace sr::replay::cli
