#include "common/engine/generator.h"

#include <cassert>
#include <utility>

namespace sr::engine {
namespace {

Piece piece_at(int index) { return static_cast<Piece>(index + 1); }

}  // namespace

Generator::Generator(GeneratorKind kind, std::uint64_t seed) : kind_(kind), rng_(seed) { since_.fill(kPieceKinds); }

Piece Generator::next(const std::vector<Piece>& fixed) {
  switch (kind_) {
    case GeneratorKind::kBag7: {
      if (bag_pos_ >= kPieceKinds) {
        for (int i = 0; i < kPieceKinds; ++i) bag_[static_cast<std::size_t>(i)] = piece_at(i);
        for (std::uint32_t i = kPieceKinds - 1; i >= 1; --i) {
          const std::uint32_t j = rng_.below(i + 1);
          std::swap(bag_[i], bag_[j]);
        }
        bag_pos_ = 0;
      }
      return bag_[bag_pos_++];
    }
    case GeneratorKind::kRecency: {
      std::uint64_t total = 0;
      for (auto s : since_) total += static_cast<std::uint64_t>(s) * s;
      // since_ values stay small (a drought longer than ~65k pieces is impossible in practice, and is capped).
      std::uint32_t roll = rng_.below(static_cast<std::uint32_t>(total));
      int pick = 0;
      for (int i = 0; i < kPieceKinds; ++i) {
        const std::uint32_t w = since_[static_cast<std::size_t>(i)] * since_[static_cast<std::size_t>(i)];
        if (roll < w) {
          pick = i;
          break;
        }
        roll -= w;
      }
      for (int i = 0; i < kPieceKinds; ++i) {
        auto& s = since_[static_cast<std::size_t>(i)];
        if (i == pick) s = 0;
        if (s < 1000) ++s;
      }
      return piece_at(pick);
    }
    case GeneratorKind::kUniform: return piece_at(static_cast<int>(rng_.below(kPieceKinds)));
    case GeneratorKind::kFixed: {
      assert(!fixed.empty());
      const Piece p = fixed[fixed_pos_];
      fixed_pos_ = (fixed_pos_ + 1) % static_cast<std::uint32_t>(fixed.size());
      return p;
    }
  }
  return Piece::kI;
}

}  // namespace sr::engine
