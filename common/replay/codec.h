// Replay files: the binary format (magic "SRRP", format version, Cereal portable-binary body) and the JSON form.
// Layouts, schema and versioning policy: common/replay/FORMAT.md.
//
// # Hostile input
// The decoders accept any bytes. They never allocate more than the remaining input could justify (every count is
// checked against the bytes left before a resize), check every range, and return an Error naming what was wrong
// and where (field path, and for binary the byte offset). A decoded replay always passes check_replay().
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/replay/error.h"
#include "common/replay/replay.h"

namespace sr::replay {

inline constexpr char kMagic[4] = {'S', 'R', 'R', 'P'};
inline constexpr std::size_t kHeaderBytes = 6;  // magic, then the format version as uint16 little-endian
inline constexpr std::size_t kMaxJsonBytes = std::size_t{64} << 20;
inline constexpr int kMaxJsonDepth = 32;

// The file bytes of `replay`. Deterministic: the same replay always gives the same bytes.
// `replay` must be storable: check_replay(replay) is ok (asserted).
[[nodiscard]] std::vector<std::uint8_t> encode_binary(const Replay& replay);

// Reads a replay file. # Errors: kTruncated, kBadMagic, kNewerVersion (format or class version from a newer
// build), kBadValue, kTrailingBytes; each with the failing field and byte offset when known.
[[nodiscard]] Result<Replay> decode_binary(std::span<const std::uint8_t> bytes);

// The canonical bytes of one racer's run: what a player signs when their game ends (net/identity/run_signature.h) and
// what a records hub recomputes from a submitted replay to check that signature (common/protocol/RECORDS.md). The
// magic "SRRN", the run format version kRunFormatVersion (uint16 little-endian), then a Cereal portable-binary body,
// little-endian, of: the rules version (uint32), the shared config as a replay stores it (without handling), the
// racer's handling, the seed (uint64) and the input log, each in its replay layout and class version (FORMAT.md,
// "Run bytes"). Deterministic: the same run always gives the same bytes. `config` is the racer's (racer_config: the
// shared rules with their handling); `inputs` must pass check_input_log (asserted).
inline constexpr char kRunMagic[4] = {'S', 'R', 'R', 'N'};
inline constexpr std::uint16_t kRunFormatVersion = 1;
[[nodiscard]] std::vector<std::uint8_t> encode_run_binary(std::uint32_t rules_version, const engine::GameConfig& config,
                                                          std::uint64_t seed,
                                                          const std::vector<engine::InputChange>& inputs);

// The JSON form: every field, round-trip exact (decode_json(encode_json(r)) == r).
[[nodiscard]] std::string encode_json(const Replay& replay);

struct JsonOptions {
  // Hand-written replays may leave out a racer's "result" (then "end_time_us" may say when the game ends; default:
  // the last input's time) and "checkpoints". With this set the importer plays the inputs and records them, as a
  // recorder would (simulate.h, record_racer); without it a missing result is an error. Recording runs the engine,
  // so leave it off for untrusted input that is only being checked.
  bool record_missing = false;
};

// Reads the JSON form. # Errors: kBadJson (syntax, nesting deeper than kMaxJsonDepth, wrong JSON type, missing
// member), kBadValue, kNewerVersion; each naming the member path ("racers[0].handling.das_us").
[[nodiscard]] Result<Replay> decode_json(std::string_view text, const JsonOptions& options = {});

}  // namespace sr::replay
