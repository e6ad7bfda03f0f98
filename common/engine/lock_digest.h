// A running 64-bit digest of every piece a game has locked: (time, piece, rotation, x, y) folded in with FNV-1a.
//
// # Why not state_hash()
// state_hash() is exact, but a racer's client and the server call update() at different moments, so "the state
// right after the call in which piece k locked" differs between them. The lock sequence does not: it is a pure
// function of (config, seed, inputs), and the board, score and everything else follow from it. So clients report
// the digest after their k-th lock, and the server compares it with its own (docs/ARCHITECTURE.md, "Desync checks").
#pragma once

#include <cstdint>

#include "common/engine/events.h"

namespace sr::engine {

class LockDigest {
 public:
  // Folds in `e` if it is a kLock event; other events are ignored. Returns true if it was a lock.
  bool add(const Event& e) {
    if (e.kind != EventKind::kLock) return false;
    mix(static_cast<std::uint64_t>(e.time_us), 8);
    mix(static_cast<std::uint8_t>(e.piece), 1);
    mix(static_cast<std::uint8_t>(e.rotation), 1);
    mix(static_cast<std::uint8_t>(e.x), 1);
    mix(static_cast<std::uint8_t>(e.y), 1);
    ++locks_;
    return true;
  }
  [[nodiscard]] std::uint64_t value() const { return hash_; }
  [[nodiscard]] std::int64_t locks() const { return locks_; }

 private:
  void mix(std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) {
      hash_ ^= static_cast<std::uint8_t>(v >> (8 * i));
      hash_ *= 0x100000001B3ull;
    }
  }
  std::uint64_t hash_ = 0xCBF29CE484222325ull;
  std::int64_t locks_ = 0;
};

}  // namespace sr::engine
