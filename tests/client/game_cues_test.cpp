// client/audio/game_cues.h, cue.h and synth.h: which sounds a game makes, and the sounds themselves.
#include "client/audio/game_cues.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "client/audio/synth.h"

namespace sr::client::audio {
namespace {

using engine::ActivePiece;
using engine::Event;
using engine::EventKind;
using engine::Piece;
using engine::Rotation;

Event event(EventKind kind) {
  Event e;
  e.kind = kind;
  return e;
}

Event clear(int lines, engine::SpinKind spin = engine::SpinKind::kNone, int combo = 0, bool b2b = false,
            bool pc = false) {
  Event e = event(EventKind::kClear);
  e.lines = static_cast<std::int8_t>(lines);
  e.spin = spin;
  e.combo = combo;
  e.b2b = b2b;
  e.perfect_clear = pc;
  return e;
}

std::vector<Cue> cues(std::optional<ActivePiece> before, std::vector<Event> events, std::optional<ActivePiece> after) {
  std::vector<Cue> out;
  append_cues(before, events, after, out);
  return out;
}

Cue nth(Cue first, int k) { return static_cast<Cue>(static_cast<int>(first) + k); }

constexpr ActivePiece kT{Piece::kT, Rotation::kNorth, 3, 19};

ActivePiece with(ActivePiece p, int dx, int dy, Rotation r) {
  p.x = static_cast<std::int8_t>(p.x + dx);
  p.y = static_cast<std::int8_t>(p.y + dy);
  p.rotation = r;
  return p;
}

TEST(GameCues, HardDropIsOneSoundWithoutTheLockItCauses) {
  const ActivePiece next{Piece::kS, Rotation::kNorth, 3, 20};
  EXPECT_EQ(cues(kT, {event(EventKind::kHardDrop), event(EventKind::kLock), event(EventKind::kSpawn)}, next),
            (std::vector<Cue>{Cue::kHardDrop}));
}

TEST(GameCues, ALockByItselfSoundsAsALock) {
  EXPECT_EQ(cues(kT, {event(EventKind::kLock)}, std::nullopt), (std::vector<Cue>{Cue::kLock}));
  // A hard drop's lock, then a later lock in the same update (line clear delay 0 and a fast gravity).
  EXPECT_EQ(
      cues(kT,
           {event(EventKind::kHardDrop), event(EventKind::kLock), event(EventKind::kSpawn), event(EventKind::kLock)},
           std::nullopt),
      (std::vector<Cue>{Cue::kHardDrop, Cue::kLock}));
}

TEST(GameCues, LineClearsSoundByTheirLineCount) {
  for (int lines = 1; lines <= 4; ++lines) {
    EXPECT_EQ(cues(kT, {event(EventKind::kHardDrop), event(EventKind::kLock), clear(lines)}, std::nullopt),
              (std::vector<Cue>{Cue::kHardDrop, static_cast<Cue>(static_cast<int>(Cue::kClear1) + lines - 1)}))
        << lines;
  }
}

TEST(GameCues, EveryPartOfAClearHasItsSoundInAFixedOrder) {
  EXPECT_EQ(cues(std::nullopt, {clear(2, engine::SpinKind::kFull, 3, true, true)}, std::nullopt),
            (std::vector<Cue>{Cue::kClear2, Cue::kSpin, Cue::kBackToBack, nth(Cue::kCombo1, 2), Cue::kPerfectClear}));
  EXPECT_EQ(cues(std::nullopt, {clear(0, engine::SpinKind::kMini)}, std::nullopt), (std::vector<Cue>{Cue::kSpinMini}));
  EXPECT_EQ(cues(std::nullopt, {clear(0, engine::SpinKind::kFull)}, std::nullopt), (std::vector<Cue>{Cue::kSpin}));
  EXPECT_EQ(cues(std::nullopt, {clear(1, engine::SpinKind::kMini, 1)}, std::nullopt),
            (std::vector<Cue>{Cue::kClear1, Cue::kSpinMini, Cue::kCombo1}));
}

TEST(GameCues, ComboStepsRiseAndLongCombosKeepTheHighest) {
  EXPECT_EQ(combo_cue(1), Cue::kCombo1);
  EXPECT_EQ(combo_cue(5), nth(Cue::kCombo1, 4));
  EXPECT_EQ(combo_cue(12), nth(Cue::kCombo1, 11));
  EXPECT_EQ(combo_cue(40), nth(Cue::kCombo1, 11));
  EXPECT_EQ(static_cast<int>(combo_cue(12)), kCueCount - 1);
  // Combo 0 is the first clearing piece: no combo sound.
  EXPECT_EQ(cues(std::nullopt, {clear(1, engine::SpinKind::kNone, 0)}, std::nullopt), (std::vector<Cue>{Cue::kClear1}));
}

TEST(GameCues, HoldTopOutAndFinishHaveTheirSounds) {
  const ActivePiece held{Piece::kI, Rotation::kNorth, 3, 20};
  EXPECT_EQ(cues(kT, {event(EventKind::kHold), event(EventKind::kSpawn)}, held), (std::vector<Cue>{Cue::kHold}));
  EXPECT_EQ(cues(kT, {event(EventKind::kLock), event(EventKind::kGameOver)}, std::nullopt),
            (std::vector<Cue>{Cue::kLock, Cue::kTopOut}));
  EXPECT_EQ(cues(kT, {event(EventKind::kHardDrop), event(EventKind::kLock), clear(1), event(EventKind::kFinished)},
                 std::nullopt),
            (std::vector<Cue>{Cue::kHardDrop, Cue::kClear1, Cue::kFinish}));
}

TEST(GameCues, SpawnsAndLevelUpsAreSilent) {
  EXPECT_EQ(cues(std::nullopt, {event(EventKind::kSpawn), event(EventKind::kLevelUp)}, kT), (std::vector<Cue>{}));
}

TEST(GameCues, MovesAndRotationsAreReadFromThePiece) {
  EXPECT_EQ(cues(kT, {}, with(kT, 1, 0, Rotation::kNorth)), (std::vector<Cue>{Cue::kMove}));
  EXPECT_EQ(cues(kT, {}, with(kT, -4, 0, Rotation::kNorth)), (std::vector<Cue>{Cue::kMove}));  // ARR 0: one
  EXPECT_EQ(cues(kT, {}, with(kT, 0, 0, Rotation::kEast)), (std::vector<Cue>{Cue::kRotate}));
  EXPECT_EQ(cues(kT, {}, with(kT, 1, 1, Rotation::kSouth)), (std::vector<Cue>{Cue::kRotate}));  // a kick
  EXPECT_EQ(cues(kT, {}, with(kT, 0, -1, Rotation::kNorth)), (std::vector<Cue>{}));             // gravity, soft drop
  EXPECT_EQ(cues(kT, {}, kT), (std::vector<Cue>{}));  // a press against the wall
  EXPECT_EQ(cues(std::nullopt, {}, kT), (std::vector<Cue>{}));
  EXPECT_EQ(cues(kT, {}, std::nullopt), (std::vector<Cue>{}));
}

TEST(GameCues, ANewPieceIsNoMove) {
  const ActivePiece next_t{Piece::kT, Rotation::kNorth, 4, 20};  // the same kind, elsewhere: a new piece
  EXPECT_EQ(cues(kT, {event(EventKind::kLock), event(EventKind::kSpawn)}, next_t), (std::vector<Cue>{Cue::kLock}));
  const ActivePiece i_piece{Piece::kI, Rotation::kNorth, 5, 19};
  EXPECT_EQ(cues(kT, {}, i_piece), (std::vector<Cue>{}));
}

TEST(CountdownBeeps, TickAsEachSecondBeginsThenGo) {
  CountdownBeeps beeps;
  EXPECT_EQ(beeps.at(3.0), Cue::kCountdownTick);  // "3"
  EXPECT_EQ(beeps.at(2.99), std::nullopt);
  EXPECT_EQ(beeps.at(2.001), std::nullopt);
  EXPECT_EQ(beeps.at(2.0), Cue::kCountdownTick);  // "2"
  EXPECT_EQ(beeps.at(1.5), std::nullopt);
  EXPECT_EQ(beeps.at(0.98), Cue::kCountdownTick);  // "1", a frame late
  EXPECT_EQ(beeps.at(0.01), std::nullopt);
  EXPECT_EQ(beeps.at(0.0), Cue::kGo);
  EXPECT_EQ(beeps.at(0.0), std::nullopt);
  EXPECT_EQ(beeps.at(-5.0), std::nullopt);
}

TEST(CountdownBeeps, ASkippedSecondBeepsOnceAndNoCountdownIsJustGo) {
  CountdownBeeps beeps;
  EXPECT_EQ(beeps.at(2.5), Cue::kCountdownTick);
  EXPECT_EQ(beeps.at(0.5), Cue::kCountdownTick);  // the frame skipped "2"'s start: one beep, not two
  EXPECT_EQ(beeps.at(-0.2), Cue::kGo);
  CountdownBeeps none;
  EXPECT_EQ(none.at(0.0), Cue::kGo);
  EXPECT_EQ(none.at(0.0), std::nullopt);
}

// Zero crossings per second / 2: the pitch of a clip's first 40 ms.
double pitch_hz(const std::vector<std::int16_t>& pcm) {
  const std::size_t n = std::min<std::size_t>(pcm.size(), kSampleRateHz / 25);
  int crossings = 0;
  for (std::size_t i = 1; i < n; ++i) crossings += (pcm[i - 1] < 0) != (pcm[i] < 0);
  return crossings / 2.0 / (static_cast<double>(n) / kSampleRateHz);
}

TEST(Synth, EveryClipIsShortBoundedAndItsOwn) {
  std::vector<std::vector<std::int16_t>> clips;
  for (int i = 0; i < kCueCount; ++i) {
    const auto cue = static_cast<Cue>(i);
    auto pcm = synthesise(cue);
    ASSERT_GE(pcm.size(), static_cast<std::size_t>(kSampleRateHz / 50)) << cue_name(cue);  // at least 20 ms
    EXPECT_LE(pcm.size(), static_cast<std::size_t>(kSampleRateHz * 3 / 2)) << cue_name(cue);
    int peak = 0;
    for (std::int16_t v : pcm) peak = std::max(peak, std::abs(static_cast<int>(v)));
    EXPECT_LE(peak, 16384) << cue_name(cue);
    EXPECT_GE(peak, 6000) << cue_name(cue);  // loud enough to hear at the default volumes
    int early_peak = 0;                      // sounds at once: the onset is the first sample
    for (std::size_t k = 0; k < static_cast<std::size_t>(kSampleRateHz / 200); ++k) {
      early_peak = std::max(early_peak, std::abs(static_cast<int>(pcm[k])));
    }
    EXPECT_GE(early_peak, peak / 10) << cue_name(cue);
    EXPECT_EQ(synthesise(cue), pcm) << cue_name(cue);  // reproducible
    for (std::size_t j = 0; j < clips.size(); ++j) EXPECT_NE(clips[j], pcm) << cue_name(cue) << " vs " << j;
    clips.push_back(std::move(pcm));
  }
}

TEST(Synth, ComboStepsRiseInPitch) {
  double last = 0;
  for (int step = 1; step <= kComboSteps; ++step) {
    const double hz = pitch_hz(synthesise(combo_cue(step)));
    EXPECT_GT(hz, last * 1.05) << "combo " << step;  // at least about a semitone higher each step
    last = hz;
  }
  EXPECT_NEAR(pitch_hz(synthesise(Cue::kCombo1)), 523.25, 30);  // C5
}

}  // namespace
}  // namespace sr::client::audio
