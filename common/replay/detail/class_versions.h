// Internal: the Cereal class version of every stored type, shared by the binary and JSON codecs. Bump a type's
// version when its stored layout changes, and keep reading the old layout (schema.h, FORMAT.md "Versioning"). A new
// stored type also needs its VersionSlot in binary_reader.h (the binary reader keeps its version there).
#pragma once

#include <cereal/cereal.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "common/engine/config.h"
#include "common/engine/stats.h"
#include "common/replay/detail/decode_context.h"
#include "common/replay/replay.h"

namespace sr::replay::detail {

// Cereal handles for the two lists that have their own class version and binary coding.
struct InputLogRef {
  std::vector<engine::InputChange>* changes;
};
struct CheckpointsRef {
  std::vector<engine::Checkpoint>* list;
};

}  // namespace sr::replay::detail

CEREAL_CLASS_VERSION(sr::engine::Handling, 1)
CEREAL_CLASS_VERSION(sr::engine::GameConfig, 1)
CEREAL_CLASS_VERSION(sr::engine::Stats, 1)
// 2: unverified_us and reconnects after stats (version 1 reads them as 0).
CEREAL_CLASS_VERSION(sr::replay::RacerResult, 2)
// 2: key after checkpoints (version 1 reads it as none).
CEREAL_CLASS_VERSION(sr::replay::Racer, 2)
CEREAL_CLASS_VERSION(sr::replay::Replay, 1)
CEREAL_CLASS_VERSION(sr::replay::detail::InputLogRef, 1)
CEREAL_CLASS_VERSION(sr::replay::detail::CheckpointsRef, 1)

namespace sr::replay::detail {

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

}  // namespace sr::replay::detail
