// Internal: Cereal entry points of every stored type for writing the portable binary body. Cereal writes each type's
// class version (class_versions.h) the first time the type appears in a file. Reading does not go through Cereal
// (binary_reader.h). Kept apart from the JSON half so that binary code never includes RapidJSON.
#pragma once

#include <cereal/archives/portable_binary.hpp>
#include <cereal/cereal.hpp>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/replay/detail/binary_visitors.h"
#include "common/replay/detail/class_versions.h"
#include "common/replay/detail/schema.h"

namespace sr::replay::detail {

template <class A>
concept BinaryOut = std::is_same_v<A, cereal::PortableBinaryOutputArchive>;

// The input log's own layout: count; if count > 0: unit_us, orders (1 byte), stream length, stream bytes.
void save_input_log(BinaryWriter<cereal::PortableBinaryOutputArchive>& w, cereal::PortableBinaryOutputArchive& ar,
                    const std::vector<engine::InputChange>& changes);
// Checkpoints: count, then per checkpoint the time since the previous one (varint) and the hash (8 bytes).
void save_checkpoints(BinaryWriter<cereal::PortableBinaryOutputArchive>& w, cereal::PortableBinaryOutputArchive& ar,
                      const std::vector<engine::Checkpoint>& list);

}  // namespace sr::replay::detail

// Cereal looks these up by unqualified name; namespace cereal keeps them out of the engine's namespace.
namespace cereal {

#define SR_REPLAY_BINARY(Type)                                    \
  template <sr::replay::detail::BinaryOut A>                      \
  void save(A& ar, const Type& v, std::uint32_t version) {        \
    sr::replay::detail::BinaryWriter<A> w(ar);                    \
    sr::replay::detail::schema(w, const_cast<Type&>(v), version); \
  }

SR_REPLAY_BINARY(sr::engine::Handling)
SR_REPLAY_BINARY(sr::engine::GameConfig)
SR_REPLAY_BINARY(sr::engine::Stats)
SR_REPLAY_BINARY(sr::replay::RacerResult)
SR_REPLAY_BINARY(sr::replay::Racer)
SR_REPLAY_BINARY(sr::replay::Replay)

#undef SR_REPLAY_BINARY

template <sr::replay::detail::BinaryOut A>
void save(A& ar, const sr::replay::detail::InputLogRef& v, std::uint32_t) {
  sr::replay::detail::BinaryWriter<A> w(ar);
  sr::replay::detail::save_input_log(w, ar, *v.changes);
}
template <sr::replay::detail::BinaryOut A>
void save(A& ar, const sr::replay::detail::CheckpointsRef& v, std::uint32_t) {
  sr::replay::detail::BinaryWriter<A> w(ar);
  sr::replay::detail::save_checkpoints(w, ar, *v.list);
}

}  // namespace cereal
