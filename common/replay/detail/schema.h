// Internal: the one description of every stored type, walked by four visitors (binary and JSON, each writing and
// reading; binary_visitors.h, json_visitors.h). Field order here is the binary field order; names are the JSON
// member names (FORMAT.md lists both). A change to a stored type bumps its class version (class_versions.h) and
// reads the old layout under `if (version < N)` (RacerResult below). Writers always get the current version.
//
// Ranges: fields are read with their type's range only; engine::check_config() and check_replay() then check the
// meaning (codec_binary.cpp, codec_json.cpp), so the engine stays the one owner of its ranges.
#pragma once

#include <cstdint>
#include <limits>

#include "common/engine/config.h"
#include "common/engine/stats.h"
#include "common/replay/names.h"
#include "common/replay/replay.h"

namespace sr::replay::detail {

// Whether a JSON member may be left out (it then keeps its default). Binary fields are always present.
enum class Need : std::uint8_t { kRequired, kOptional };
inline constexpr Need kReq = Need::kRequired;
inline constexpr Need kOpt = Need::kOptional;

// The largest value a stored integer of type I may hold.
template <class I>
constexpr std::uint64_t type_max() {
  return static_cast<std::uint64_t>(std::numeric_limits<I>::max());
}

// A config's defaults come from its mode's preset, so that hand-written JSON names only what differs.
[[nodiscard]] engine::GameConfig preset_for(engine::ModeKind mode);

template <class V>
void schema(V& v, engine::Handling& h, std::uint32_t /*version*/) {
  v.number("das_us", h.das_us, kOpt);
  v.number("arr_us", h.arr_us, kOpt);
  v.number("sdf", h.sdf, kOpt);
  v.number("dcd_us", h.dcd_us, kOpt);
  v.number("are_us", h.are_us, kOpt);
  v.number("line_clear_delay_us", h.line_clear_delay_us, kOpt);
  v.flag("irs", h.irs, kOpt);
  v.flag("ihs", h.ihs, kOpt);
}

// GameConfig::handling is not part of it: each racer stores their own.
template <class V>
void schema(V& v, engine::GameConfig& c, std::uint32_t /*version*/) {
  v.choice("mode", c.mode, names::kMode, kReq);
  if constexpr (V::kLoading) c = preset_for(c.mode);
  v.choice("limit", c.limit, names::kLimit, kOpt);
  v.number("limit_value", c.limit_value, kOpt);
  v.choice("goal", c.goal, names::kGoal, kOpt);
  v.choice("rotation", c.rotation, names::kRotation, kOpt);
  v.flag("allow_180", c.allow_180, kOpt);
  v.choice("generator", c.generator, names::kGenerator, kOpt);
  v.pieces("fixed_sequence", c.fixed_sequence, kOpt);
  v.board("initial_board", c.initial_board, kOpt);
  v.flag("hold_enabled", c.hold_enabled, kOpt);
  v.number("preview", c.preview, kOpt);
  v.choice("gravity", c.gravity, names::kGravity, kOpt);
  v.number("start_level", c.start_level, kOpt);
  v.flag("level_up", c.level_up, kOpt);
  v.choice("goal_system", c.goal_system, names::kGoalSystem, kOpt);
  v.choice("lock_down", c.lock_down, names::kLockDown, kOpt);
  v.number("lock_delay_us", c.lock_delay_us, kOpt);
  v.number("max_lock_resets", c.max_lock_resets, kOpt);
  v.number("ground_time_cap_us", c.ground_time_cap_us, kOpt);
  v.choice("scoring", c.scoring, names::kScoring, kOpt);
  v.flag("all_spin", c.all_spin, kOpt);
}

template <class V>
void schema(V& v, engine::Stats& s, std::uint32_t /*version*/) {
  v.number("time_us", s.time_us, kReq);
  v.number("pieces", s.pieces, kReq);
  v.number("lines", s.lines, kReq);
  v.number("score", s.score, kReq);
  v.number("level", s.level, kReq);
  v.number("key_presses", s.key_presses, kReq);
  v.number("holds", s.holds, kReq);
  v.number("singles", s.singles, kReq);
  v.number("doubles", s.doubles, kReq);
  v.number("triples", s.triples, kReq);
  v.number("tetrises", s.tetrises, kReq);
  v.number("tspins", s.tspins, kReq);
  v.number("tspin_singles", s.tspin_singles, kReq);
  v.number("tspin_doubles", s.tspin_doubles, kReq);
  v.number("tspin_triples", s.tspin_triples, kReq);
  v.number("minis", s.minis, kReq);
  v.number("mini_singles", s.mini_singles, kReq);
  v.number("mini_doubles", s.mini_doubles, kReq);
  v.number("perfect_clears", s.perfect_clears, kReq);
  v.number("max_combo", s.max_combo, kReq);
  v.number("max_b2b", s.max_b2b, kReq);
}

template <class V>
void schema(V& v, RacerResult& r, std::uint32_t version) {
  v.choice("status", r.status, names::kStatus, kReq);
  v.choice("top_out", r.top_out, names::kTopOut, kOpt);
  v.hash("final_hash", r.final_hash);
  v.object("stats", r.stats, kReq);
  if (version < 2) {
    // Written before the server measured these: nothing was recorded, read as a clean run. (A version 1 JSON object
    // that names them anyway is refused before this: json_shape.h.)
    if constexpr (V::kLoading) {
      r.unverified_us = 0;
      r.reconnects = 0;
    }
    return;
  }
  v.number("unverified_us", r.unverified_us, kOpt);
  v.number("reconnects", r.reconnects, kOpt);
}

template <class V>
void schema(V& v, Racer& r, std::uint32_t version) {
  v.text("name", r.name, kMaxNameBytes, kReq);
  v.object("handling", r.handling, kOpt);
  v.inputs("inputs", r.inputs);
  const bool has_result = v.object("result", r.result, kOpt);
  const bool has_checkpoints = v.checkpoints("checkpoints", r.checkpoints, kOpt);
  v.recording(has_result, has_checkpoints);
  if (version < 2) {
    // Written before the server recorded keys: nobody's key is known.
    if constexpr (V::kLoading) r.key.reset();
    return;
  }
  v.key("key", r.key);
}

template <class V>
void schema(V& v, Replay& r, std::uint32_t /*version*/) {
  v.number("rules_version", r.rules_version, kReq);
  v.number("created_unix_ms", r.created_unix_ms, kOpt);
  v.text("place", r.place, kMaxPlaceBytes, kOpt);
  v.object("config", r.config, kReq);
  v.fixed64("seed", r.seed, kOpt);
  v.number("checkpoint_every", r.checkpoint_every, kOpt);
  // A racer takes at least 40 bytes in binary, in every class version: name 2, handling 8, log 1, result 10 (12 from
  // RacerResult version 2) + 21 stats, checkpoints 1 (and the key's flag from Racer version 2).
  v.objects("racers", r.racers, kMaxReplayRacers, 40);
}

}  // namespace sr::replay::detail
