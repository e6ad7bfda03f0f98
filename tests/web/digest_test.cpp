// The digest the equivalence test compares (web/wasm/digest.h): its lines, exactly.
#include "web/wasm/digest.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "tests/replays/test_support.h"
#include "web/wasm/json_writer.h"
#include "web/wasm/replay_session.h"

namespace sr::web {
namespace {

namespace rt = replay::testing;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(Digest, ABadFileIsOneLine) {
  const std::string junk = "SRRP";
  EXPECT_EQ(replay_digest(std::vector<std::uint8_t>(junk.begin(), junk.end())),
            "decode error at byte 0: a replay file is at least 7 bytes, this input has 4\n");
}

TEST(Digest, TheHandWrittenTSpinLineByLine) {
  const auto bytes = rt::read_bytes(rt::data_dir() / "handwritten_tspin.json");
  const std::string text = replay_digest(bytes, replay::JsonOptions{.record_missing = true});
  EXPECT_EQ(text, replay_digest(bytes, replay::JsonOptions{.record_missing = true}));  // deterministic
  auto session = ReplaySession::open(bytes, replay::JsonOptions{.record_missing = true});
  ASSERT_TRUE(session.ok());
  const RacerCursor& c = session.value()->cursor(0);
  const std::vector<std::string> lines = lines_of(text);
  // decode, verdict, recorded, 8 changes, end, 1 piece, 3 x (seek time + 3 x 2 steps).
  ASSERT_EQ(lines.size(), 2u + 1u + 8u + 1u + 1u + 3u * 7u);
  EXPECT_EQ(lines[0], "decode json ok");
  EXPECT_EQ(lines[1], "verdict verified verified 1 racer");
  const std::string stats =
      " time_us=500000 pieces=1 lines=2 score=1218 level=1 key_presses=4 holds=0 singles=0 doubles=0 triples=0"
      " tetrises=0 tspins=0 tspin_singles=0 tspin_doubles=1 tspin_triples=0 minis=0 mini_singles=0 mini_doubles=0"
      " perfect_clears=0 max_combo=0 max_b2b=0";
  EXPECT_EQ(lines[2], "r0 recorded forfeited none final_hash=" + hex64(c.end_hash()) + stats);
  EXPECT_EQ(lines[3], "r0 c1 t=100000 b=16 h=" + hex64(c.change_hash(1)));
  EXPECT_EQ(lines[10], "r0 c8 t=450000 b=0 h=" + hex64(c.change_hash(8)));
  EXPECT_EQ(lines[11], "r0 end t=500000 h=" + hex64(c.end_hash()) + stats);
  // The hard drop (input 7, at 0.4 s) locked the T: the piece line stands right after it.
  EXPECT_EQ(lines[12], "r0 piece 1 at 7/400000 h=" + hex64(c.change_hash(7)));
  EXPECT_EQ(lines[13], "r0 seek time 4/5 at 7/400000 h=" + hex64(c.change_hash(7)));
  // Back from change 7 (the hard drop at 0.4 s) is change 6; back from there by a piece is the start (no lock yet).
  EXPECT_EQ(lines[14], "r0 seek change -1 ok at 6/350000 h=" + hex64(c.change_hash(6)));
  EXPECT_EQ(lines[15].rfind("r0 seek piece -1 ok at 0/0 h=", 0), 0u) << lines[15];
}

}  // namespace
}  // namespace sr::web
