// Checks what the Xvfb window test (sprint_keys_test.sh) left behind: the replay the game saved must hold exactly the
// button changes xdotool typed and must verify, and the screenshot must show the locked pieces in the cells the
// engine says they occupy.
//
// usage: client_window_check REPLAY_DIR SCREENSHOT.png SEED
#include <stb/stb_image.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/engine/game.h"
#include "common/replay/codec.h"
#include "common/replay/simulate.h"
#include "common/replay/verify.h"
#include "tests/client/window/check_support.h"

namespace {

namespace fs = std::filesystem;
using sr::engine::Buttons;
using sr::engine::Piece;
namespace button = sr::engine::button;

// What sprint_keys_test.sh types, as the button state after each key event (press, then release):
// J: Left Left Space | T: Up Space | L: X Space | Z: C (hold; I comes out) | I: Right Right Right Space |
// S: Space | O: Right held 1 s (auto-shift to the wall), Space.
const std::vector<Buttons> kExpectedButtons = {
    button::kMoveLeft,  0, button::kMoveLeft,  0, button::kHardDrop,  0,                        // J
    button::kRotateCw,  0, button::kHardDrop,  0,                                               // T
    button::kRotateCw,  0, button::kHardDrop,  0,                                               // L
    button::kHold,      0,                                                                      // Z into hold
    button::kMoveRight, 0, button::kMoveRight, 0, button::kMoveRight, 0, button::kHardDrop, 0,  // I
    button::kHardDrop,  0,                                                                      // S
    button::kMoveRight, 0, button::kHardDrop,  0,                                               // O
};

// The matrix those keys give with seed 1 (rows 7..0, top-down; the rest stays empty): the 7-bag order of seed 1 is
// J T L Z I S O, and each piece lands as a person would expect from SRS spawn positions and east rotations.
const char* const kExpectedRows[] = {
    "....SS....",  // 7  S straight down lands on the L's top (column 4)
    "...SS.....",  // 6
    "....L.....",  // 5  L turned east, on the T
    "....L.....",  // 4
    "....LL....",  // 3
    "....T...OO",  // 2  O slid to the right wall, on the I
    ".J..TT..OO",  // 1  T turned east at its spawn column
    ".JJJT.IIII",  // 0  J two cells left; I three cells right
};

using sr::test::fail;
using sr::test::failures;
using sr::test::Rgb;

std::string picture(const sr::engine::Matrix& m, int rows) {
  std::string out;
  for (int y = rows - 1; y >= 0; --y) {
    for (int x = 0; x < sr::engine::kMatrixWidth; ++x) out += sr::engine::piece_letter(m.at(x, y));
    out += '\n';
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s REPLAY_DIR SCREENSHOT.png SEED\n", argv[0]);
    return 2;
  }
  const fs::path replay_dir = argv[1], png = argv[2];
  const std::uint64_t seed = std::strtoull(argv[3], nullptr, 10);

  // 1. Exactly one replay, holding exactly the typed button changes, verifying.
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(replay_dir, ec)) {
    if (e.path().extension() == ".srr") files.push_back(e.path());
  }
  if (files.size() != 1) {
    fail("expected one replay in " + replay_dir.string() + ", found " + std::to_string(files.size()));
    return 1;
  }
  std::ifstream in(files[0], std::ios::binary);
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto decoded = sr::replay::decode_binary(bytes);
  if (!decoded) {
    fail("replay does not decode: " + decoded.error().describe());
    return 1;
  }
  const sr::replay::Replay& replay = decoded.value();
  if (replay.seed != seed) fail("replay seed " + std::to_string(replay.seed));
  if (replay.racers.size() != 1) fail("replay has " + std::to_string(replay.racers.size()) + " racers");
  const auto& inputs = replay.racers.at(0).inputs;
  std::vector<Buttons> got;
  std::ostringstream log;
  for (const auto& change : inputs) {
    got.push_back(change.buttons);
    log << change.time_us << ":" << change.buttons << " ";
    if (change.time_us % 1000 != 0) fail("input time not on the 1 ms grid: " + std::to_string(change.time_us));
  }
  std::printf("replay %s: %zu inputs: %s\n", files[0].filename().c_str(), inputs.size(), log.str().c_str());
  if (got != kExpectedButtons) fail("the replay's button sequence differs from the keys sent");
  if (replay.racers[0].result.status != sr::replay::ResultStatus::kForfeited) fail("the game should be forfeited");
  const auto report = sr::replay::verify(replay);
  std::printf("verify: %s\n", report.message.c_str());
  if (report.verdict != sr::replay::Verdict::kVerified) fail("replay does not verify: " + report.message);

  // 2. The engine, fed the expected buttons with made-up timing (100 ms apart, well under DAS except for the held
  // Right), gives the hand-drawn matrix: the keys' effect does not depend on the real timing.
  sr::engine::Game game(sr::engine::make_sprint(40), seed);
  sr::engine::TimeUs t = 0;
  for (std::size_t i = 0; i < kExpectedButtons.size(); ++i) {
    const bool long_hold = i >= 26 && kExpectedButtons[i] == button::kMoveRight;  // the O's held Right
    (void)game.update(t, kExpectedButtons[i]);
    t += long_hold ? 600'000 : 50'000;
  }
  std::string expected;
  for (const char* row : kExpectedRows) expected += std::string(row) + "\n";
  const std::string simulated = picture(game.matrix(), 8);
  if (simulated != expected) fail("engine matrix differs from the expected picture:\n" + simulated);
  auto replayed = sr::replay::game_at(replay, 0, sr::replay::ViewPoint{});
  if (!replayed) {
    fail("cannot re-run the replay: " + replayed.error().describe());
  } else if (picture(replayed.value().matrix(), 8) != expected) {
    fail("the replay's matrix differs from the expected picture:\n" + picture(replayed.value().matrix(), 8));
  }

  // 3. The screenshot: every cell of rows 0..15 is the right colour (locked piece) or dark (empty).
  std::ifstream layout_in(png.string() + ".layout");
  std::string word;
  int index = -1;
  double mx = 0, my = 0, cell = 0;
  layout_in >> word >> index >> mx >> my >> cell;
  if (word != "board" || index != 0 || cell < 4) {
    fail("no board layout beside the screenshot");
    return 1;
  }
  int w = 0, h = 0, n = 0;
  unsigned char* pixels = stbi_load(png.string().c_str(), &w, &h, &n, 3);
  if (pixels == nullptr) {
    fail("cannot read " + png.string());
    return 1;
  }
  int checked = 0;
  for (int y = 0; y < 16; ++y) {
    for (int x = 0; x < sr::engine::kMatrixWidth; ++x) {
      const int px = static_cast<int>(mx + (x + 0.5) * cell), py = static_cast<int>(my + (19 - y + 0.5) * cell);
      if (px < 0 || py < 0 || px >= w || py >= h) {
        fail("cell outside the screenshot");
        continue;
      }
      const unsigned char* p = pixels + (static_cast<std::size_t>(py) * static_cast<std::size_t>(w) + px) * 3;
      const Piece want = game.matrix().at(x, y);
      char where[96];
      std::snprintf(where, sizeof where, "cell (%d,%d) at pixel (%d,%d) is rgb(%d,%d,%d)", x, y, px, py, p[0], p[1],
                    p[2]);
      if (want == Piece::kNone) {
        if (std::max({p[0], p[1], p[2]}) > 100) fail(std::string(where) + ", expected empty (dark)");
      } else {
        const Rgb c = sr::test::guideline_colour(want);
        if (std::abs(p[0] - c.r) > 30 || std::abs(p[1] - c.g) > 30 || std::abs(p[2] - c.b) > 30) {
          fail(std::string(where) + ", expected " + sr::engine::piece_letter(want));
        }
      }
      ++checked;
    }
  }
  stbi_image_free(pixels);
  std::printf("screenshot: %d cells checked, %d failures\n", checked, failures);
  return failures == 0 ? 0 : 1;
}
