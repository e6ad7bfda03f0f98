// A replay as a web page holds it: decoded from the bytes the page fetched (binary .srr or the JSON export),
// verified by the verifier `stackrace-replay verify` runs (common/replay/verify.h, so the verdict and its sentence
// are the same on every machine), and a cursor per racer for the viewer (racer_cursor.h).
//
// Pure: the engine and the replay library only. The same code runs natively (tests) and as WebAssembly (api.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/replay/codec.h"
#include "common/replay/replay.h"
#include "common/replay/verify.h"
#include "common/result.h"
#include "web/wasm/racer_cursor.h"

namespace sr::web {

enum class ReplayFormat : std::uint8_t { kBinary = 0, kJson = 1 };

// The rule replays/store's load_replay_file() applies: JSON when the first byte that is not white space is '{',
// otherwise the binary format (whose decoder then names what is wrong, e.g. a bad magic).
[[nodiscard]] ReplayFormat format_of(std::span<const std::uint8_t> bytes);

// Decodes `bytes` in the format format_of() finds. `json` applies to the JSON form only: leave record_missing off
// for files that are being checked (a hand-written file without results then fails to decode).
// # Errors: the decoders' (common/replay/codec.h).
[[nodiscard]] replay::Result<replay::Replay> decode_replay(std::span<const std::uint8_t> bytes,
                                                           const replay::JsonOptions& json = {});

// "verified", "mismatch", "unsupported_rules".
[[nodiscard]] const char* verdict_name(replay::Verdict verdict);

class ReplaySession {
 public:
  // Decodes `bytes` (decode_replay) and verifies the replay. # Errors: the decoder's error, describe()d
  // ("racers[0].inputs at byte 45: ...").
  [[nodiscard]] static sr::Result<std::unique_ptr<ReplaySession>, std::string> open(
      std::span<const std::uint8_t> bytes, const replay::JsonOptions& json = {});

  ReplaySession(const ReplaySession&) = delete;
  ReplaySession& operator=(const ReplaySession&) = delete;

  [[nodiscard]] const replay::Replay& replay() const { return replay_; }
  [[nodiscard]] ReplayFormat format() const { return format_; }
  // verify()'s report: verdict, the first disagreement of each racer that has one, and its one-line message.
  [[nodiscard]] const replay::VerifyReport& report() const { return report_; }
  [[nodiscard]] std::size_t racer_count() const { return replay_.racers.size(); }
  // The verifier's disagreement for racer `racer`, or nullptr when that racer verified (or the rules are not this
  // build's, see report()).
  [[nodiscard]] const replay::Disagreement* disagreement(std::size_t racer) const;
  // The latest recorded end of any racer: how long the whole replay plays.
  [[nodiscard]] engine::TimeUs end_us() const;

  // Racer `racer`'s cursor, made on first use (it plays that racer once). `racer` must be < racer_count().
  [[nodiscard]] RacerCursor& cursor(std::size_t racer);

 private:
  ReplaySession(replay::Replay replay, ReplayFormat format);

  replay::Replay replay_;
  ReplayFormat format_;
  replay::VerifyReport report_;
  std::vector<std::unique_ptr<RacerCursor>> cursors_;  // by racer; null until first asked for
};

}  // namespace sr::web
