// What the screenshot checks share: counting failures, the verified replays a test left behind, and the guideline
// skin's colours, written down here independently of client/render/palette.cpp so that a palette change is caught.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "common/engine/types.h"
#include "common/replay/codec.h"
#include "common/replay/verify.h"

namespace sr::test {

inline int failures = 0;
inline void fail(const std::string& what) {
  std::fprintf(stderr, "FAIL: %s\n", what.c_str());
  ++failures;
}

// Every .srr replay below `dir`, each printed with its verdict; one that does not decode or verify is a failure.
inline std::vector<replay::Replay> verified_replays(const std::filesystem::path& dir) {
  std::vector<replay::Replay> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir, ec)) {
    if (e.path().extension() != ".srr") continue;
    std::ifstream in(e.path(), std::ios::binary);
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto decoded = replay::decode_binary(bytes);
    if (!decoded) {
      fail(e.path().string() + " does not decode: " + decoded.error().describe());
      continue;
    }
    const auto report = replay::verify(decoded.value());
    std::printf("%s: %zu racers, %s\n", e.path().string().c_str(), decoded.value().racers.size(),
                report.message.c_str());
    if (report.verdict != replay::Verdict::kVerified) fail(e.path().string() + " does not verify");
    out.push_back(std::move(decoded.value()));
  }
  return out;
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
