// The compact coding of an input log (FORMAT.md, "Input log"): times as deltas in a per-log unit, each change as a
// context-coded button symbol plus an Exp-Golomb delta, packed at bit level.
//
// # Why bits and not one varint per change
// A player makes 5-6 changes per piece, so a 100-piece sprint holds ~550 changes; at 1 KB per racer a change may
// cost under 2 bytes including the header and results. Measured on a realistic log (tests/replays, FORMAT.md) this
// coding takes ~6 bytes per piece; one varint per change takes ~2 bytes per change, ~11 bytes per piece.
//
// # Lossless
// Any log that check_input_log() accepts round-trips exactly, whatever its time grid: the unit is the gcd of all
// deltas (the first delta is measured from time 0), so a log stamped on a 1 ms grid stores deltas in milliseconds
// and a log with one odd microsecond stores them in microseconds.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/replay/replay.h"
#include "common/result.h"

namespace sr::replay {

struct EncodedInputLog {
  std::uint64_t count = 0;         // number of changes
  std::uint64_t unit_us = 1;       // >= 1; every delta is a multiple of it
  std::uint8_t orders = 0;         // Exp-Golomb orders: low nibble for presses, high nibble for releases
  std::vector<std::uint8_t> bits;  // the change stream, zero-padded to whole bytes
};

// `inputs` must be a valid log (check_input_log(inputs) is ok).
[[nodiscard]] EncodedInputLog encode_input_log(std::span<const engine::InputChange> inputs);

// An EncodedInputLog as read in place: the stream is borrowed from the bytes it was read from (the binary decoder
// hands over the file's own bytes, so nothing is copied).
struct InputLogView {
  std::uint64_t count = 0;
  std::uint64_t unit_us = 1;
  std::uint8_t orders = 0;
  std::span<const std::uint8_t> bits;
};

// Decodes `log` into `out` (replacing its contents). Returns ok, or on failure a sentence naming the change index and
// what was wrong; `out` is then unspecified. Allocates at most 4 entries per stream byte (a change takes >= 2 bits),
// and no more than the stream has given before it fails beyond the first 65,536.
// Every change it gives changes the buttons, with known bits only, at a time no earlier than the one before.
[[nodiscard]] sr::Status<std::string> decode_input_log(const InputLogView& log, std::vector<engine::InputChange>& out);
[[nodiscard]] inline sr::Status<std::string> decode_input_log(const EncodedInputLog& log,
                                                              std::vector<engine::InputChange>& out) {
  return decode_input_log(InputLogView{log.count, log.unit_us, log.orders, log.bits}, out);
}

}  // namespace sr::replay
