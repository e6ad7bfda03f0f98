// Internal: Cereal entry points of every stored type for the JSON archives. Unversioned for Cereal: each object
// carries "cereal_class_version" itself (written always, optional on import: hand-written JSON may leave it out),
// and load() refuses versions newer than this build's. Only the JSON code includes this (and so RapidJSON).
#pragma once

#include <cereal/archives/json.hpp>
#include <cereal/cereal.hpp>
#include <cstdint>

#include "common/replay/detail/class_versions.h"
#include "common/replay/detail/json_visitors.h"
#include "common/replay/detail/schema.h"

namespace cereal {

#define SR_REPLAY_JSON(Type, Name)                                                                    \
  inline void save(JSONOutputArchive& ar, const Type& v) {                                            \
    sr::replay::detail::JsonWriter w(ar);                                                             \
    const std::uint32_t version = sr::replay::detail::current_version<Type>();                        \
    w.class_version(version);                                                                         \
    sr::replay::detail::schema(w, const_cast<Type&>(v), version);                                     \
  }                                                                                                   \
  inline void load(JSONInputArchive& ar, Type& v) {                                                   \
    sr::replay::detail::JsonReader r(ar);                                                             \
    const std::uint32_t version = r.class_version(Name, sr::replay::detail::current_version<Type>()); \
    sr::replay::detail::schema(r, v, version);                                                        \
  }

SR_REPLAY_JSON(sr::engine::Handling, "Handling")
SR_REPLAY_JSON(sr::engine::GameConfig, "GameConfig")
SR_REPLAY_JSON(sr::engine::Stats, "Stats")
SR_REPLAY_JSON(sr::replay::RacerResult, "RacerResult")
SR_REPLAY_JSON(sr::replay::Racer, "Racer")
SR_REPLAY_JSON(sr::replay::Replay, "Replay")

#undef SR_REPLAY_JSON

}  // namespace cereal
