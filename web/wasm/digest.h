// A replay's digest: a text that holds everything the engine computes from a replay, line by line, so that two
// builds of the engine (native and WebAssembly) can be compared by comparing two texts. The equivalence test
// (tests/web, "WasmEngine.*") computes it for the same bytes natively and under node and names the first line that
// differs.
//
// # Lines
//   decode binary ok | decode json ok | decode error <the decoder's error>     (then nothing else)
//   verdict <verified|mismatch|unsupported_rules> <the verifier's message>
//   then per racer i:
//   r<i> recorded <status> <top_out> final_hash=<hex> <stat>=<value> ...     (what the file says)
//   r<i> c<k> t=<time_us> b=<buttons> h=<state hash after change k>            (every change, the canonical feeding)
//   r<i> end t=<end_us> h=<state hash at the end> <stat>=<value> ...           (the re-simulated result)
//   r<i> piece <k> at <changes>/<time_us> h=<hash>                              (seek_piece, every lock)
//   r<i> seek <what> at <changes>/<time_us> h=<hash>                            (backward seeks and steps)
//
// Pure, deterministic: the same bytes give the same text on every machine.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "common/replay/codec.h"

namespace sr::web {

[[nodiscard]] std::string replay_digest(std::span<const std::uint8_t> bytes, const replay::JsonOptions& json = {});

}  // namespace sr::web
