// The web API: plain C functions over the replay sessions (replay_session.h), the one door between JavaScript and
// the engine compiled to WebAssembly. web/js/engine.js wraps them; pages use that wrapper (web/README.md, "The
// JavaScript API"), not these functions.
//
// # Conventions
// - A replay is a handle: an int32 > 0 from sr_open, valid until sr_close; handles are never reused. A racer is its
//   index in the replay (0-based).
// - Text (JSON, hashes, messages) is returned as a pointer to a NUL-terminated UTF-8 buffer that stays valid until
//   the next call that returns text; the caller copies it at once.
// - Game times are microseconds in doubles (exact below 2^53 us, about 285 years); pieces and changes are int32.
// - Nothing here throws or aborts on bad input: a bad handle, racer or argument gives 0, -1 or an empty text, as
//   each function says. Bytes are copied before sr_open/sr_verify/sr_digest return.
//
// Natively these are ordinary functions (tests/web/api_test.cpp calls them); in the WebAssembly build each is
// exported under its own name with a leading underscore (`_sr_open`).
#pragma once

#include <cstdint>

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define SR_WEB_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define SR_WEB_EXPORT
#endif

extern "C" {

// Memory for the bytes of a replay: JavaScript copies them in, calls sr_open (or sr_verify, sr_digest), then frees.
SR_WEB_EXPORT std::uint8_t* sr_alloc(std::uint32_t size);
SR_WEB_EXPORT void sr_free(std::uint8_t* bytes);

// {"rules_version", "oldest_rules_version", "format_version", "snapshot_every"} of this build.
SR_WEB_EXPORT const char* sr_engine_info();

// Opens a replay (binary or JSON; flags bit 0: record missing results of a hand-written JSON file) and verifies it.
// The handle, or 0 when the bytes do not decode: sr_message() then holds the decoder's error.
SR_WEB_EXPORT std::int32_t sr_open(const std::uint8_t* bytes, std::uint32_t size, std::int32_t flags);
// Forgets a replay; a bad handle is ignored.
SR_WEB_EXPORT void sr_close(std::int32_t replay);
// The message of the last sr_open, sr_verify or sr_summary: the decoder's error, or the verifier's sentence.
SR_WEB_EXPORT const char* sr_message();
// Decodes and verifies without keeping anything: 0 verified, 1 mismatch, 2 rules this build does not play, -1 the
// bytes do not decode. sr_message() holds the sentence.
SR_WEB_EXPORT std::int32_t sr_verify(const std::uint8_t* bytes, std::uint32_t size, std::int32_t flags);
// The replay's digest (digest.h): what the equivalence test compares between builds.
SR_WEB_EXPORT const char* sr_digest(const std::uint8_t* bytes, std::uint32_t size, std::int32_t flags);

// The replay as JSON (json_views.h, summary_json), "" for a bad handle.
SR_WEB_EXPORT const char* sr_summary(std::int32_t replay);
// Racer `racer` at its cursor (frame_json), "" for a bad handle or racer.
SR_WEB_EXPORT const char* sr_frame(std::int32_t replay, std::int32_t racer);
// Racer `racer`'s whole recording (track_json), "" for a bad handle or racer.
SR_WEB_EXPORT const char* sr_track(std::int32_t replay, std::int32_t racer);

// Cursor moves (racer_cursor.h). 1 when the cursor moved there, 0 when it did not (a piece or change the racer does
// not have, either end of a step, a bad handle or racer).
SR_WEB_EXPORT std::int32_t sr_seek_time(std::int32_t replay, std::int32_t racer, double time_us);
SR_WEB_EXPORT std::int32_t sr_seek_piece(std::int32_t replay, std::int32_t racer, std::int32_t piece);
SR_WEB_EXPORT std::int32_t sr_seek_change(std::int32_t replay, std::int32_t racer, std::int32_t change);
SR_WEB_EXPORT std::int32_t sr_step_piece(std::int32_t replay, std::int32_t racer, std::int32_t direction);
SR_WEB_EXPORT std::int32_t sr_step_change(std::int32_t replay, std::int32_t racer, std::int32_t direction);

// Where the cursor is, cheaply (for playback loops): its game time and the changes applied; -1 for a bad handle.
SR_WEB_EXPORT double sr_time_us(std::int32_t replay, std::int32_t racer);
SR_WEB_EXPORT std::int32_t sr_changes(std::int32_t replay, std::int32_t racer);
// The racer's recorded end (-1 for a bad handle or racer), and the replay's (the latest of its racers').
SR_WEB_EXPORT double sr_end_us(std::int32_t replay, std::int32_t racer);
SR_WEB_EXPORT double sr_replay_end_us(std::int32_t replay);

// ---------------------------------------------------------------- Live races (live_race.h)
// A live race is a handle of its own kind (> 0, never reused, valid until sr_live_close), opened from the race's
// start: a replay in its JSON form with no input yet. 0 when it does not decode (sr_message() says why).
SR_WEB_EXPORT std::int32_t sr_live_open(const std::uint8_t* bytes, std::uint32_t size);
SR_WEB_EXPORT void sr_live_close(std::int32_t race);
// Racer `racer`'s changes numbered from first_seq: `count` pairs (time_us, buttons) of doubles at `pairs`, then the
// game fed up to now_us. 1 when taken, 0 when refused (a gap, a time that goes back, unknown buttons, a bad handle
// or racer; sr_message() says which).
SR_WEB_EXPORT std::int32_t sr_live_push(std::int32_t race, std::int32_t racer, double first_seq, double now_us,
                                        const double* pairs, std::int32_t count);
// The racer's game ended at time_us: fed up to it. 1, or 0 for a bad handle or racer.
SR_WEB_EXPORT std::int32_t sr_live_end(std::int32_t race, std::int32_t racer, double time_us);
// The racer's game now (frame_json), "" for a bad handle or racer.
SR_WEB_EXPORT const char* sr_live_frame(std::int32_t race, std::int32_t racer);
// Changes the racer's game has had (the next sequence number it takes); -1 for a bad handle or racer.
SR_WEB_EXPORT std::int32_t sr_live_changes(std::int32_t race, std::int32_t racer);

}  // extern "C"
