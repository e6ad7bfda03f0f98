// Checks what host_race_test.sh left behind: the hosted server stored one replay of the race with both racers and
// it verifies; the player's own game was kept as a local replay that verifies; the results screenshot shows two
// boards, each exactly the server's replay of that racer at the game time the screenshot's layout says it shows
// (each racer's game as it ended: both boards dimmed, under their end-of-game banners). What is on each board follows
// from the game that was played: however few pieces the bot needed for its lines, or however soon the player topped
// out, the drawn cells must be that game's.
//
// usage: client_race_check SERVER_DATA_DIR LOCAL_REPLAY_DIR SCREENSHOT.png
#include <cstdio>
#include <string>
#include <vector>

#include "common/replay/codec.h"
#include "common/replay/simulate.h"
#include "common/replay/verify.h"
#include "tests/client/window/board_check.h"
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
  if (server.size() != 1 || server[0].racers.size() != 2) {
    fail("the server should hold one replay of two racers");
    return 1;
  }
  const auto local = sr::test::verified_replays(argv[2]);
  if (local.size() != 1 || local[0].racers.size() != 1) fail("the player's own game should be kept as a local replay");

  const std::string png = argv[3];
  const auto boards = sr::test::read_layout(png);
  if (boards.size() != 2) {
    fail("the screenshot should show two boards, its layout lists " + std::to_string(boards.size()));
    return 1;
  }
  if (boards[0].name == boards[1].name) fail("the two boards should be the two racers");
  const sr::test::Image img(png);
  if (img.pixels == nullptr) {
    fail("cannot read " + png);
    return 1;
  }
  for (std::size_t i = 0; i < boards.size(); ++i) {
    const std::string what = "board " + std::to_string(i);
    sr::test::check_board(img, boards[i], server[0], what, sr::test::BoardDrawing{.dimmed = true, .banner = true});
    // The results show each game as it ended: the board's time is the end of that racer's recording.
    for (std::size_t r = 0; r < server[0].racers.size(); ++r) {
      if (server[0].racers[r].name != boards[i].name) continue;
      const auto end = sr::replay::game_at(server[0], r, sr::replay::ViewPoint{});
      if (!end) {
        fail(what + ": " + end.error().describe());
      } else if (end.value().stats().pieces != boards[i].pieces) {
        fail(what + ": shows " + std::to_string(boards[i].pieces) + " pieces, the racer's game ended with " +
             std::to_string(end.value().stats().pieces));
      }
    }
  }
  if (failures == 0) std::printf("race check passed\n");
  return failures == 0 ? 0 : 1;
}
