// Checks what host_race_test.sh left behind: the hosted server stored one replay of the race with both racers and
// it verifies; the player's own game was kept as a local replay that verifies; the screenshot shows two boards
// with locked pieces on each.
//
// usage: client_race_check SERVER_DATA_DIR LOCAL_REPLAY_DIR SCREENSHOT.png
#include <stb/stb_image.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/replay/codec.h"
#include "common/replay/verify.h"
#include "tests/client/window/check_support.h"
#include "tests/client/window/layout_file.h"

namespace {

using sr::test::fail;
using sr::test::failures;

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: client_race_check SERVER_DATA_DIR LOCAL_REPLAY_DIR SCREENSHOT.png\n");
    return 2;
  }
  const auto server = sr::test::verified_replays(argv[1]);
  if (server.size() != 1 || server[0].racers.size() != 2) fail("the server should hold one replay of two racers");
  const auto local = sr::test::verified_replays(argv[2]);
  if (local.size() != 1 || local[0].racers.size() != 1) fail("the player's own game should be kept as a local replay");

  const std::string png = argv[3];
  std::vector<std::array<double, 3>> boards;
  for (const auto& b : sr::test::read_layout(png)) boards.push_back({b.matrix_x, b.matrix_y, b.cell});
  if (boards.size() != 2) {
    fail("the screenshot should show two boards, its layout lists " + std::to_string(boards.size()));
    return 1;
  }
  int w = 0, h = 0, n = 0;
  unsigned char* pixels = stbi_load(png.c_str(), &w, &h, &n, 3);
  if (pixels == nullptr) {
    fail("cannot read " + png);
    return 1;
  }
  for (std::size_t b = 0; b < boards.size(); ++b) {
    int coloured = 0;
    for (int y = 0; y < 20; ++y) {
      for (int x = 0; x < 10; ++x) {
        const int px = static_cast<int>(boards[b][0] + (x + 0.5) * boards[b][2]);
        const int py = static_cast<int>(boards[b][1] + (19 - y + 0.5) * boards[b][2]);
        if (px < 0 || py < 0 || px >= w || py >= h) continue;
        const unsigned char* p = pixels + (static_cast<std::size_t>(py) * static_cast<std::size_t>(w) + px) * 3;
        const int hi = std::max({p[0], p[1], p[2]}), lo = std::min({p[0], p[1], p[2]});
        if (hi - lo > 50) ++coloured;  // a piece's colour, even dimmed; empty cells and grid are grey
      }
    }
    std::printf("board %zu: %d coloured cells\n", b, coloured);
    if (coloured < 4) fail("board " + std::to_string(b) + " shows no locked pieces");
  }
  stbi_image_free(pixels);
  if (failures == 0) std::printf("race check passed\n");
  return failures == 0 ? 0 : 1;
}
