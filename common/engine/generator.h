// Piece generators. Every generator draws only from its own Random, so the sequence depends on nothing but the
// generator kind, the seed and (for kFixed) the sequence: not on the preview length, timing or the player.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "common/engine/config.h"
#include "common/engine/random.h"
#include "common/engine/types.h"

namespace sr::engine {

class Generator {
 public:
  Generator() = default;
  Generator(GeneratorKind kind, std::uint64_t seed);

  // The next piece. `fixed` is GameConfig::fixed_sequence (used only by kFixed, which must not be empty).
  // 7-bag: a Fisher-Yates shuffle of I,J,L,O,S,T,Z (swap i with below(i+1), i = 6..1) per bag.
  // Recency: weight_p = since_p^2, where since_p is 7 for every piece at the start, and after each draw becomes 1 for
  // the drawn piece and grows by 1 (capped at 1000) for the others; the pick is the piece whose cumulative weight
  // range (in I..Z order) holds below(total weight).
  // Uniform: I..Z by below(7).
  Piece next(const std::vector<Piece>& fixed);

  // Feeds the canonical state to a hasher (see state_hash in game.h).
  template <typename H>
  void hash_into(H& h) const {
    h.u8(static_cast<std::uint8_t>(kind_));
    for (auto w : rng_.words()) h.u64(w);
    for (auto p : bag_) h.u8(static_cast<std::uint8_t>(p));
    h.u8(bag_pos_);
    for (auto s : since_) h.u32(s);
    h.u32(fixed_pos_);
  }
  bool operator==(const Generator&) const = default;

 private:
  GeneratorKind kind_ = GeneratorKind::kBag7;
  Random rng_;
  std::array<Piece, kPieceKinds> bag_{};
  std::uint8_t bag_pos_ = kPieceKinds;  // kPieceKinds = bag used up
  std::array<std::uint32_t, kPieceKinds> since_{};
  std::uint32_t fixed_pos_ = 0;
};

}  // namespace sr::engine
