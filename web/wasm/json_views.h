// The JSON texts the web API hands to JavaScript: what a page shows of a replay and of one racer at the cursor.
// Their members are the contract with the pages, documented in web/README.md ("The JavaScript API"): add members,
// never rename or remove one.
//
// 64-bit hashes and seeds are strings of hex or decimal digits (JS numbers are exact only below 2^53); game times
// are integers of microseconds; pieces are letters ("I", "J", "L", "O", "S", "T", "Z", "G" for garbage) or null.
#pragma once

#include <string>

#include "web/wasm/racer_cursor.h"
#include "web/wasm/replay_session.h"

namespace sr::web {

// The engine this build carries: {"rules_version", "oldest_rules_version", "format_version", "snapshot_every"}.
[[nodiscard]] std::string engine_info_json();

// The whole replay: format, rules, place, seed, config, the verdict and its message, and per racer the recorded
// result, whether the verifier agreed with it, and its log's size.
[[nodiscard]] std::string summary_json(const ReplaySession& session);

// One racer at the cursor: position, phase, the board (40 rows of 10 letters, bottom row first, '.' empty), the
// active piece and its ghost (cells in matrix coordinates), hold, the next queue, the buttons held, live stats and
// the state hash.
[[nodiscard]] std::string frame_json(const RacerCursor& cursor);
// The same for any game: fed `at.changes` changes up to `at.time_us`, the player holding `buttons`.
[[nodiscard]] std::string frame_json(const engine::Game& game, Position at, engine::Buttons buttons);

// One racer's whole recording, for timelines: every change (time, buttons, state hash after it), every lock's
// time, and the end (time and state hash).
[[nodiscard]] std::string track_json(const RacerCursor& cursor);

}  // namespace sr::web
