// Checks what spectate_test.sh left behind. The game joined a race of two bots part-way as a spectator and took two
// screenshots: every board (grid.png), then the second board clicked large (big.png). The server's replay of the race
// is the truth: each drawn board must be exactly the replay's board at the game time the screenshot says it shows
// (locked cells in their pieces' colours, empty cells dark), well into the race, so joining mid-race showed the race
// as it stood; and after the click the clicked racer's board must be the large one.
//
// usage: client_spectate_check SERVER_DATA_DIR GRID.png BIG.png
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "common/replay/verify.h"
#include "replays/store/file_io.h"
#include "tests/client/window/board_check.h"
#include "tests/client/window/check_support.h"
#include "tests/client/window/layout_file.h"

namespace {

namespace fs = std::filesystem;
using sr::test::LayoutBoard;

using sr::test::fail;
using sr::test::failures;
using sr::test::Image;

// The one replay the server stored (two racers, verifying).
sr::replay::Replay server_replay(const fs::path& dir) {
  const std::vector<sr::replay::Replay> found = sr::test::verified_replays(dir);
  if (found.size() != 1 || found[0].racers.size() != 2) {
    fail("the server should hold one replay of the two bots' race, it holds " + std::to_string(found.size()));
    return {};
  }
  return found[0];
}

// The drawn board equals the replay's board at the time it shows, well into the race: what happened before the
// spectator joined is on the board.
void check_spectated_board(const Image& img, const LayoutBoard& b, const sr::replay::Replay& replay,
                           const std::string& what) {
  sr::test::check_board(img, b, replay, what);
  if (b.time_us < 2'000'000) fail(what + ": the board shows the race's first seconds, not where it stood");
  if (b.pieces < 4) fail(what + ": hardly any pieces locked: not the race as it stood");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: client_spectate_check SERVER_DATA_DIR GRID.png BIG.png\n");
    return 2;
  }
  const sr::replay::Replay replay = server_replay(argv[1]);
  if (replay.racers.size() != 2) return 1;

  const std::string grid_png = argv[2], big_png = argv[3];
  const auto grid = sr::test::read_layout(grid_png);
  const auto big = sr::test::read_layout(big_png);
  if (grid.size() != 2 || big.size() != 2) {
    fail("each screenshot should show two boards; the layouts list " + std::to_string(grid.size()) + " and " +
         std::to_string(big.size()));
    return 1;
  }
  // Every board: the same size before the click; the clicked one (grid board 1) large after it.
  if (std::abs(grid[0].cell - grid[1].cell) > 0.01) fail("before the click the boards should be the same size");
  if (!(big[0].cell > 1.3 * big[1].cell)) fail("after the click one board should be clearly larger");
  if (big[0].name != grid[1].name) fail("the large board should be the clicked one (" + grid[1].name + ")");
  if (grid[0].name == grid[1].name) fail("the two boards should be the two racers");

  const Image grid_img(grid_png), big_img(big_png);
  if (grid_img.pixels == nullptr || big_img.pixels == nullptr) {
    fail("cannot read the screenshots");
    return 1;
  }
  for (std::size_t i = 0; i < 2; ++i) {
    check_spectated_board(grid_img, grid[i], replay, "grid board " + std::to_string(i));
    check_spectated_board(big_img, big[i], replay, "enlarged view board " + std::to_string(i));
  }
  if (failures == 0) std::printf("spectate check passed\n");
  return failures == 0 ? 0 : 1;
}
