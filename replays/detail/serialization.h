// Internal: Cereal entry points for every stored type. Binary archives get Cereal-versioned save/load (the class
// version is written once per type and file); JSON archives get unversioned save/load that write
// "cereal_class_version" into every object and accept it missing on import. Both run the same schema (schema.h).
//
// Class versions: bump one when its type's stored layout changes, keep reading the old one (FORMAT.md,
// "Versioning").
#pragma once

#include <cstdint>
#include <type_traits>

#include <cereal/archives/json.hpp>
#include <cereal/archives/portable_binary.hpp>
#include <cereal/cereal.hpp>

#include "replays/detail/binary_visitors.h"
#include "replays/detail/json_visitors.h"
#include "replays/detail/schema.h"

CEREAL_CLASS_VERSION(sr::engine::Handling, 1)
CEREAL_CLASS_VERSION(sr::engine::GameConfig, 1)
CEREAL_CLASS_VERSION(sr::engine::Stats, 1)
CEREAL_CLASS_VERSION(sr::replay::RacerResult, 1)
CEREAL_CLASS_VERSION(sr::replay::Racer, 1)
CEREAL_CLASS_VERSION(sr::replay::Replay, 1)
CEREAL_CLASS_VERSION(sr::replay::detail::InputLogRef, 1)
CEREAL_CLASS_VERSION(sr::replay::detail::CheckpointsRef, 1)

namespace sr::replay::detail {

template <class A>
concept BinaryOut = std::is_same_v<A, cereal::PortableBinaryOutputArchive>;
template <class A>
concept BinaryIn = std::is_same_v<A, cereal::PortableBinaryInputArchive>;

template <class T>
constexpr std::uint32_t current_version() {
  return cereal::detail::Version<T>::version;
}

template <class T>
void check_version(std::uint32_t version, const char* type) {
  if (version > current_version<T>()) {
    fail(ErrorKind::kNewerVersion, std::string(type) + " has class version " + std::to_string(version) +
                                       ", this build reads up to " + std::to_string(current_version<T>()));
  }
}

// The input log's own layout: count; if count > 0: unit_us, orders (1 byte), stream length, stream bytes.
void save_input_log(BinaryWriter<cereal::PortableBinaryOutputArchive>& w, cereal::PortableBinaryOutputArchive& ar,
                    const std::vector<InputChange>& changes);
void load_input_log(BinaryReader<cereal::PortableBinaryInputArchive>& r, cereal::PortableBinaryInputArchive& ar,
                    std::vector<InputChange>& changes);
// Checkpoints: count, then per checkpoint the time since the previous one (varint) and the hash (8 bytes).
void save_checkpoints(BinaryWriter<cereal::PortableBinaryOutputArchive>& w, cereal::PortableBinaryOutputArchive& ar,
                      const std::vector<Checkpoint>& list);
void load_checkpoints(BinaryReader<cereal::PortableBinaryInputArchive>& r, cereal::PortableBinaryInputArchive& ar,
                      std::vector<Checkpoint>& list);

}  // namespace sr::replay::detail

// Cereal looks these up by unqualified name; namespace cereal keeps them out of the engine's namespace.
namespace cereal {

#define SR_REPLAY_SERIALIZE(Type, Name)                                                                \
  template <sr::replay::detail::BinaryOut A>                                                           \
  void save(A& ar, const Type& v, std::uint32_t version) {                                             \
    sr::replay::detail::BinaryWriter<A> w(ar);                                                         \
    sr::replay::detail::schema(w, const_cast<Type&>(v), version);                                      \
  }                                                                                                    \
  template <sr::replay::detail::BinaryIn A>                                                            \
  void load(A& ar, Type& v, std::uint32_t version) {                                                   \
    sr::replay::detail::check_version<Type>(version, Name);                                            \
    sr::replay::detail::BinaryReader<A> r(ar);                                                         \
    sr::replay::detail::schema(r, v, version);                                                         \
  }                                                                                                    \
  inline void save(JSONOutputArchive& ar, const Type& v) {                                             \
    sr::replay::detail::JsonWriter w(ar);                                                              \
    const std::uint32_t version = sr::replay::detail::current_version<Type>();                         \
    w.class_version(version);                                                                          \
    sr::replay::detail::schema(w, const_cast<Type&>(v), version);                                      \
  }                                                                                                    \
  inline void load(JSONInputArchive& ar, Type& v) {                                                    \
    sr::replay::detail::JsonReader r(ar);                                                              \
    const std::uint32_t version = r.class_version(Name, sr::replay::detail::current_version<Type>());  \
    sr::replay::detail::schema(r, v, version);                                                         \
  }

SR_REPLAY_SERIALIZE(sr::engine::Handling, "Handling")
SR_REPLAY_SERIALIZE(sr::engine::GameConfig, "GameConfig")
SR_REPLAY_SERIALIZE(sr::engine::Stats, "Stats")
SR_REPLAY_SERIALIZE(sr::replay::RacerResult, "RacerResult")
SR_REPLAY_SERIALIZE(sr::replay::Racer, "Racer")
SR_REPLAY_SERIALIZE(sr::replay::Replay, "Replay")

#undef SR_REPLAY_SERIALIZE

template <sr::replay::detail::BinaryOut A>
void save(A& ar, const sr::replay::detail::InputLogRef& v, std::uint32_t) {
  sr::replay::detail::BinaryWriter<A> w(ar);
  sr::replay::detail::save_input_log(w, ar, *v.changes);
}
template <sr::replay::detail::BinaryIn A>
void load(A& ar, sr::replay::detail::InputLogRef& v, std::uint32_t version) {
  sr::replay::detail::check_version<sr::replay::detail::InputLogRef>(version, "InputLog");
  sr::replay::detail::BinaryReader<A> r(ar);
  sr::replay::detail::load_input_log(r, ar, *v.changes);
}
template <sr::replay::detail::BinaryOut A>
void save(A& ar, const sr::replay::detail::CheckpointsRef& v, std::uint32_t) {
  sr::replay::detail::BinaryWriter<A> w(ar);
  sr::replay::detail::save_checkpoints(w, ar, *v.list);
}
template <sr::replay::detail::BinaryIn A>
void load(A& ar, sr::replay::detail::CheckpointsRef& v, std::uint32_t version) {
  sr::replay::detail::check_version<sr::replay::detail::CheckpointsRef>(version, "Checkpoints");
  sr::replay::detail::BinaryReader<A> r(ar);
  sr::replay::detail::load_checkpoints(r, ar, *v.list);
}

}  // namespace cereal
