// Checks what spectate_test.sh left behind. The game joined a race of two bots part-way as a spectator and took two
// screenshots: every board (grid.png), then the second board clicked large (big.png). The server's replay of the race
// is the truth: each drawn board must be exactly the replay's board at the game time the screenshot says it shows
// (locked cells in their pieces' colours, empty cells dark), well into the race, so joining mid-race showed the race
// as it stood; and after the click the clicked racer's board must be the large one.
//
// usage: client_spectate_check SERVER_DATA_DIR GRID.png BIG.png
#include <stb/stb_image.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "common/engine/pieces.h"
#include "common/replay/simulate.h"
#include "common/replay/verify.h"
#include "replays/store/file_io.h"
#include "tests/client/window/check_support.h"
#include "tests/client/window/layout_file.h"

namespace {

namespace fs = std::filesystem;
using sr::engine::Piece;
using sr::test::LayoutBoard;

using sr::test::fail;
using sr::test::failures;
using sr::test::Rgb;

struct Image {
  int w = 0, h = 0;
  unsigned char* pixels = nullptr;
  explicit Image(const std::string& path) {
    int n = 0;
    pixels = stbi_load(path.c_str(), &w, &h, &n, 3);
  }
  ~Image() { stbi_image_free(pixels); }
  Image(const Image&) = delete;
  Image& operator=(const Image&) = delete;
  [[nodiscard]] const unsigned char* at(int x, int y) const {
    return pixels + (static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)) * 3;
  }
};

// The one replay the server stored (two racers, verifying).
sr::replay::Replay server_replay(const fs::path& dir) {
  const std::vector<sr::replay::Replay> found = sr::test::verified_replays(dir);
  if (found.size() != 1 || found[0].racers.size() != 2) {
    fail("the server should hold one replay of the two bots' race, it holds " + std::to_string(found.size()));
    return {};
  }
  return found[0];
}

// The drawn board equals the replay's board of the racer named in the note, at the note's game time.
void check_board(const Image& img, const LayoutBoard& b, const sr::replay::Replay& replay, const std::string& what) {
  if (!b.has_note) return fail(what + ": the layout does not say what the board shows");
  std::size_t racer = replay.racers.size();
  for (std::size_t i = 0; i < replay.racers.size(); ++i) {
    if (replay.racers[i].name == b.name) racer = i;
  }
  if (racer == replay.racers.size()) return fail(what + ": no racer named '" + b.name + "' in the replay");
  auto game = sr::replay::game_at(replay, racer, sr::replay::ViewPoint{sr::replay::ViewPoint::Kind::kTime, b.time_us});
  if (!game) return fail(what + ": " + game.error().describe());
  const auto& g = game.value();
  std::printf("%s: %s at %.3f s, %lld pieces (replay: %lld)\n", what.c_str(), b.name.c_str(),
              static_cast<double>(b.time_us) / 1e6, static_cast<long long>(b.pieces),
              static_cast<long long>(g.stats().pieces));
  if (g.stats().pieces != b.pieces) fail(what + ": the board's piece count differs from the replay at that time");
  // Cells the falling piece or its ghost cover are not the matrix's: skip them.
  std::vector<std::pair<int, int>> skip;
  if (const auto active = g.active()) {
    for (const auto& c : sr::engine::piece_cells(active->piece, active->rotation)) {
      skip.emplace_back(active->x + c.x, active->y + c.y);
      skip.emplace_back(active->x + c.x, g.ghost_y() + c.y);
    }
  }
  int locked = 0, checked = 0;
  for (int y = 0; y < 20; ++y) {
    for (int x = 0; x < 10; ++x) {
      if (std::find(skip.begin(), skip.end(), std::make_pair(x, y)) != skip.end()) continue;
      const int px = b.px(x), py = b.py(y);
      if (px < 0 || py < 0 || px >= img.w || py >= img.h) {
        fail(what + ": cell outside the screenshot");
        continue;
      }
      const unsigned char* p = img.at(px, py);
      const Piece want = g.matrix().at(x, y);
      char where[128];
      std::snprintf(where, sizeof where, "%s: cell (%d,%d) at (%d,%d) is rgb(%d,%d,%d)", what.c_str(), x, y, px, py,
                    p[0], p[1], p[2]);
      if (want == Piece::kNone) {
        if (std::max({p[0], p[1], p[2]}) > 100) fail(std::string(where) + ", expected empty (dark)");
      } else {
        ++locked;
        const Rgb c = sr::test::guideline_colour(want);
        if (std::abs(p[0] - c.r) > 30 || std::abs(p[1] - c.g) > 30 || std::abs(p[2] - c.b) > 30) {
          fail(std::string(where) + ", expected " + sr::engine::piece_letter(want));
        }
      }
      ++checked;
    }
  }
  std::printf("%s: %d cells checked, %d locked\n", what.c_str(), checked, locked);
  // Well into the race: what happened before the spectator joined is on the board.
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
    check_board(grid_img, grid[i], replay, "grid board " + std::to_string(i));
    check_board(big_img, big[i], replay, "enlarged view board " + std::to_string(i));
  }
  if (failures == 0) std::printf("spectate check passed\n");
  return failures == 0 ? 0 : 1;
}
