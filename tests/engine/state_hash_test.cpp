// state_hash() is FNV-1a 64 over the canonical little-endian encoding documented in game.cpp. The encoding is
// re-built here from the public state (with a fixed-sequence generator, whose internals are known), so a change
// to the encoding, the field order or the hash fails this test rather than silently breaking replays.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tests/engine/reference_rng.h"
#include "tests/engine/test_support.h"

namespace sr::engine {
namespace {

class Encoder {
 public:
  void u8(std::uint8_t v) { bytes_.push_back(v); }
  void le(std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) u8(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void i8(std::int8_t v) { u8(static_cast<std::uint8_t>(v)); }
  void u16(std::uint16_t v) { le(v, 2); }
  void i32(std::int32_t v) { le(static_cast<std::uint32_t>(v), 4); }
  void u32(std::uint32_t v) { le(v, 4); }
  void i64(std::int64_t v) { le(static_cast<std::uint64_t>(v), 8); }
  void u64(std::uint64_t v) { le(v, 8); }
  [[nodiscard]] std::uint64_t fnv1a() const {
    std::uint64_t h = 14695981039346656037ull;
    for (std::uint8_t b : bytes_) h = (h ^ b) * 1099511628211ull;
    return h;
  }

 private:
  std::vector<std::uint8_t> bytes_;
};

// Encodes a game whose generator is kFixed over `fixed_len` pieces and has drawn `drawn` pieces so far.
std::uint64_t expected_hash(const GameState& s, std::uint64_t seed, std::size_t fixed_len, std::int64_t drawn) {
  Encoder e;
  e.i64(s.now_us);
  e.u8(static_cast<std::uint8_t>(s.phase));
  for (int y = 0; y < kMatrixHeight; ++y) {
    for (int x = 0; x < kMatrixWidth; ++x) e.u8(static_cast<std::uint8_t>(s.matrix.at(x, y)));
  }
  e.u8(static_cast<std::uint8_t>(GeneratorKind::kFixed));
  const auto rng = reference::Xoshiro256StarStar::from_seed(seed);
  for (std::uint64_t w : rng.state()) e.u64(w);    // untouched by kFixed
  for (int i = 0; i < kPieceKinds; ++i) e.u8(0);   // empty bag
  e.u8(kPieceKinds);                               // bag used up
  for (int i = 0; i < kPieceKinds; ++i) e.u32(7);  // recency counters
  e.u32(static_cast<std::uint32_t>(static_cast<std::size_t>(drawn) % fixed_len));
  for (Piece p : s.queue) e.u8(static_cast<std::uint8_t>(p));
  e.u8(static_cast<std::uint8_t>(s.active.piece));
  e.u8(static_cast<std::uint8_t>(s.active.rotation));
  e.i8(s.active.x);
  e.i8(s.active.y);
  e.u8(static_cast<std::uint8_t>(s.hold));
  e.u8(s.hold_used);
  e.u16(s.held);
  e.i8(s.das_dir);
  e.u8(s.das_charged);
  e.u16(s.pending_initial);
  for (TimeUs t : {s.end_at, s.spawn_at, s.fall_at, s.shift_at, s.lock_timer_at}) e.i64(t);
  e.u8(s.shift_blocked);
  e.i8(s.lowest_y);
  e.u8(s.lock_started);
  e.u8(s.lock_on_landing);
  e.i32(s.lock_resets);
  e.i64(s.ground_since);
  e.i64(s.ground_time_us);
  e.u8(s.last_rotated);
  e.i8(s.last_kick);
  for (std::int32_t v : {s.combo, s.b2b_chain, s.tetrs_b2b, s.level_lines}) e.i32(v);
  const Stats& st = s.stats;
  for (std::int64_t v : {st.time_us, st.pieces, st.lines, st.score}) e.i64(v);
  e.i32(st.level);
  for (std::int64_t v :
       {st.key_presses, st.holds, st.singles, st.doubles, st.triples, st.tetrises, st.tspins, st.tspin_singles,
        st.tspin_doubles, st.tspin_triples, st.minis, st.mini_singles, st.mini_doubles, st.perfect_clears}) {
    e.i64(v);
  }
  e.i32(st.max_combo);
  e.i32(st.max_b2b);
  e.u8(static_cast<std::uint8_t>(s.top_out));
  e.u8(s.finished);
  return e.fnv1a();
}

TEST(StateHash, IsFnv1aOfTheDocumentedEncoding) {
  GameConfig c = test::rules_config("TIOLJSZ", test::board({"XXXXXXXXX.", "XXXXXXXXX."}));
  c.handling.are_us = 30'000;
  test::Driver d(c, 77);
  // Pieces drawn: 8 to fill the queue, then one per spawn (including the one a first hold takes).
  std::int64_t drawn = 8;
  EXPECT_EQ(d.game().state_hash(), expected_hash(d.game().state(), 77, 7, drawn)) << "before the first update";
  (void)d.at(30'000);
  drawn += 1;
  EXPECT_EQ(d.game().state_hash(), expected_hash(d.game().state(), 77, 7, drawn)) << "T spawned";
  (void)d.play("CW R R HOLD");
  drawn += 1;
  EXPECT_EQ(d.game().state_hash(), expected_hash(d.game().state(), 77, 7, drawn)) << "held, I out";
  (void)d.play("CW R R R");
  (void)d.press(d.next_time(), button::kMoveRight | button::kSoftDrop);
  EXPECT_EQ(d.game().state_hash(), expected_hash(d.game().state(), 77, 7, drawn)) << "buttons held";
  (void)d.at(400'000);
  (void)d.release(400'000, button::kMoveRight | button::kSoftDrop);
  (void)d.play("HD");
  EXPECT_EQ(d.game().stats().lines, 2);
  EXPECT_EQ(d.game().state_hash(), expected_hash(d.game().state(), 77, 7, drawn)) << "in the spawn delay";
  (void)d.at(2'000'000);
  drawn += 1;
  EXPECT_EQ(d.game().state_hash(), expected_hash(d.game().state(), 77, 7, drawn)) << "O falling";
}

// The hasher takes a row without a block, and the rows above the stack, as runs of zero bytes: empty rows under,
// between and just above occupied ones hash as their cells do.
TEST(StateHash, EmptyRowsUnderAndBetweenBlocksHashAsTheirCells) {
  GameConfig c = test::rules_config("OIT", test::board({"X.........", "..........", "..........", "IJLOSTZ.XX",
                                                        "..........", "X........X", ".........."}));
  test::Driver d(c, 5);
  std::int64_t drawn = 8;
  EXPECT_EQ(d.game().state_hash(), expected_hash(d.game().state(), 5, 3, drawn)) << "before the first update";
  (void)d.at(0);
  drawn += 1;
  EXPECT_EQ(d.game().state_hash(), expected_hash(d.game().state(), 5, 3, drawn)) << "O spawned";
  (void)d.play("R R HD");
  (void)d.at(d.next_time());
  drawn += 1;
  EXPECT_EQ(d.game().state_hash(), expected_hash(d.game().state(), 5, 3, drawn)) << "O dropped, I spawned";
  EXPECT_EQ(d.game().stats().pieces, 1);
}

TEST(StateHash, ChangesWithTheState) {
  test::Driver d(test::rules_config("T"));
  (void)d.at(0);
  const std::uint64_t spawned = d.game().state_hash();
  (void)d.play("L");
  const std::uint64_t moved = d.game().state_hash();
  EXPECT_NE(moved, spawned);
  (void)d.play("R");
  EXPECT_NE(d.game().state_hash(), spawned) << "same place, but time and key presses moved on";
  test::Driver e(test::rules_config("T"), 2);
  (void)e.at(0);
  EXPECT_NE(e.game().state_hash(), spawned) << "the generator's random state is hashed even when unused";
}

}  // namespace
}  // namespace sr::engine
