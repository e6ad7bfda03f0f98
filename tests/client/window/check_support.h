// What the screenshot checks share: counting failures, and the guideline skin's colours, written down here
// independently of client/render/palette.cpp so that a palette change is caught.
#pragma once

#include <cstdio>
#include <string>

#include "common/engine/types.h"

namespace sr::test {

inline int failures = 0;
inline void fail(const std::string& what) {
  std::fprintf(stderr, "FAIL: %s\n", what.c_str());
  ++failures;
}

struct Rgb {
  int r, g, b;
};
inline Rgb guideline_colour(engine::Piece p) {
  switch (p) {
    case engine::Piece::kI: return {15, 200, 235};
    case engine::Piece::kJ: return {35, 90, 235};
    case engine::Piece::kL: return {245, 140, 25};
    case engine::Piece::kO: return {245, 210, 10};
    case engine::Piece::kS: return {75, 205, 60};
    case engine::Piece::kT: return {170, 60, 215};
    case engine::Piece::kZ: return {230, 45, 60};
    default: return {0, 0, 0};  // not a piece: no cell is this colour
  }
}

}  // namespace sr::test
