// Shared text output of stackrace-replay: dates, durations, result summaries, and error reporting.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/replay/error.h"
#include "common/replay/replay.h"

namespace sr::replay::cli {

// "2025-01-01 00:00:00 UTC" for a Unix time in milliseconds 0..kMaxCreatedUnixMs (else "<unix_ms> ms").
[[nodiscard]] std::string format_date(std::int64_t unix_ms);
// "35.540 s", rounded to milliseconds, for game times.
[[nodiscard]] std::string format_seconds(engine::TimeUs t);
// "finished in 35.540 s, 40 lines, 102 pieces, score 9876" (what counts for the mode first), then late_summary() when
// it is not empty.
[[nodiscard]] std::string result_summary(const RacerResult& result, const engine::GameConfig& config);
// What the server recorded against the real clock, when not a clean run: "unverified 2.250 s, 1 reconnect"; "" when
// both are 0. Re-simulation cannot check these (FORMAT.md, "Re-simulation, results and checkpoints").
[[nodiscard]] std::string late_summary(const RacerResult& result);
// "sprint (40 lines)", "ultra (30 s)", "endless".
[[nodiscard]] std::string mode_summary(const engine::GameConfig& config);
// Prints "stackrace-replay: <what>: <error>" on stderr.
void report_error(const std::string& what, const Error& error);
void report_error(const std::string& what, const std::string& message);
// What to call a --store locator in a message: the folder as given, or "--store" for a database URI (which may hold
// a password: the store's own messages name HOST:PORT/DB instead).
[[nodiscard]] std::string store_label(const std::string& locator);
// The replay in `file`, or nullopt once report_error has said why it cannot be read.
[[nodiscard]] std::optional<Replay> load_or_report(const std::string& file);

}  // namespace sr::replay::cli
