#include "client/render/palette.h"

#include <array>

namespace sr::client {
namespace {

constexpr std::array<Rgba, 9> kGuideline = {{
    {0, 0, 0, 0},          // none
    {15, 200, 235, 255},   // I
    {35, 90, 235, 255},    // J
    {245, 140, 25, 255},   // L
    {245, 210, 10, 255},   // O
    {75, 205, 60, 255},    // S
    {170, 60, 215, 255},   // T
    {230, 45, 60, 255},    // Z
    {125, 125, 130, 255},  // garbage
}};

constexpr std::array<Rgba, 9> kFlat = {{
    {0, 0, 0, 0},
    {92, 200, 220, 255},
    {90, 120, 210, 255},
    {225, 150, 80, 255},
    {225, 205, 90, 255},
    {130, 200, 110, 255},
    {170, 110, 200, 255},
    {215, 95, 105, 255},
    {110, 110, 115, 255},
}};

}  // namespace

Rgba piece_colour(engine::Piece p, Skin skin) {
  const auto i = static_cast<std::size_t>(p);
  if (i >= kGuideline.size()) return {255, 0, 255, 255};
  switch (skin) {
    case Skin::kGuideline: return kGuideline[i];
    case Skin::kFlat: return kFlat[i];
    case Skin::kMonochrome:
      return p == engine::Piece::kNone
                 ? Rgba{0, 0, 0, 0}
                 : (p == engine::Piece::kGarbage ? Rgba{110, 110, 110, 255} : Rgba{215, 215, 220, 255});
  }
  return kGuideline[i];
}

}  // namespace sr::client
