#include "common/replay/verify.h"

#include <gtest/gtest.h>

#include "common/replay/codec.h"
#include "common/replay/simulate.h"
#include "tests/replays/test_support.h"
#include "tests/support/status.h"

namespace sr::replay {
namespace {

Replay golden(const char* file) {
  Result<Replay> r = decode_binary(testing::read_bytes(testing::data_dir() / file));
  EXPECT_TRUE(r.ok()) << file << ": " << (r.ok() ? "" : r.error().describe());
  return r.ok() ? r.value() : Replay{};
}

Disagreement only(const VerifyReport& report) {
  EXPECT_EQ(report.verdict, Verdict::kMismatch);
  EXPECT_EQ(report.disagreements.size(), 1u);
  return report.disagreements.empty() ? Disagreement{} : report.disagreements.front();
}

// Lock times of a racer's pieces, in order.
std::vector<engine::TimeUs> lock_times(const Replay& r, std::size_t racer) {
  std::vector<engine::TimeUs> out;
  (void)simulate(racer_config(r, racer), r.seed, r.racers[racer].inputs, r.racers[racer].result.stats.time_us,
                 r.checkpoint_every, [&](const engine::Event& e) {
                   if (e.kind == engine::EventKind::kLock) out.push_back(e.time_us);
                 });
  return out;
}

TEST(Verify, AcceptsARecordedGame) {
  const VerifyReport report = verify(testing::small_sprint());
  EXPECT_EQ(report.verdict, Verdict::kVerified);
  EXPECT_EQ(report.message, "verified 1 racer");
}

TEST(Verify, AChangedInputIsCaughtAtTheNextCheckpoint) {
  Replay r = golden("mode_sprint.srr");
  ASSERT_EQ(r.checkpoint_every, 25);
  const auto locks = lock_times(r, 0);
  ASSERT_GT(locks.size(), 50u);
  // Delay the first input after piece 30 locked by one millisecond (and everything after it, to keep order).
  auto& inputs = r.racers[0].inputs;
  std::size_t i = 0;
  while (inputs[i].time_us <= locks[29]) ++i;
  for (std::size_t j = i; j < inputs.size(); ++j) inputs[j].time_us += 1000;
  const Disagreement d = only(verify(r));
  EXPECT_EQ(d.racer, 0u);
  EXPECT_EQ(d.racer_name, "sprinter");
  EXPECT_EQ(d.piece, 50);  // checkpoints at 25 (still equal) and 50 (the first after the change)
  EXPECT_EQ(d.field.rfind("checkpoint", 0), 0u) << d.field;
}

TEST(Verify, ATamperedConfigIsCaughtAtTheFirstCheckpoint) {
  Replay r = golden("mode_sprint.srr");
  r.racers[0].handling.das_us += 1000;  // a behaviour change: DAS one millisecond longer
  const Disagreement d = only(verify(r));
  EXPECT_EQ(d.piece, 25);
  EXPECT_EQ(d.field.rfind("checkpoint", 0), 0u) << d.field;
}

TEST(Verify, AGravityChangeIsCaught) {
  Replay r = golden("mode_ultra.srr");
  r.config.start_level = 2;
  EXPECT_EQ(verify(r).verdict, Verdict::kMismatch);
}

TEST(Verify, ATamperedResultNamesTheField) {
  Replay r = golden("mode_sprint.srr");
  r.racers[0].result.stats.lines += 1;
  const Disagreement d = only(verify(r));
  EXPECT_EQ(d.field, "stats.lines");
  EXPECT_EQ(d.recorded, std::to_string(r.racers[0].result.stats.lines));
  EXPECT_EQ(d.piece, r.racers[0].result.stats.pieces);
  EXPECT_EQ(d.time_us, r.racers[0].result.stats.time_us);

  Replay h = golden("mode_sprint.srr");
  h.racers[0].result.final_hash ^= 1;
  EXPECT_EQ(only(verify(h)).field, "final_hash");
}

TEST(Verify, AFinishClaimedByADisconnectedRacerIsCaught) {
  Replay r = golden("race_sprint.srr");
  ASSERT_EQ(r.racers[2].result.status, ResultStatus::kDisconnected);
  r.racers[2].result.status = ResultStatus::kFinished;
  const Disagreement d = only(verify(r));
  EXPECT_EQ(d.racer, 2u);
  EXPECT_EQ(d.field, "status");
  EXPECT_EQ(d.recorded, "finished");
  EXPECT_EQ(d.replayed, "not over");
}

// A racer the server's time cap (or a shutdown) stopped mid-game: stored as unfinished (status 4, appended without a
// class version bump: FORMAT.md), through both codecs, and verified like a disconnect.
TEST(Verify, AnUnfinishedRacerSurvivesBothCodecsAndVerifies) {
  Replay r = golden("race_sprint.srr");
  ASSERT_EQ(r.racers[2].result.status, ResultStatus::kDisconnected);
  record_racer(r, 2, r.racers[2].result.stats.time_us, ResultStatus::kUnfinished);
  EXPECT_EQ(r.racers[2].result.status, ResultStatus::kUnfinished);
  EXPECT_STREQ(status_name(ResultStatus::kUnfinished), "unfinished");
  EXPECT_EQ(status_from_name("unfinished"), ResultStatus::kUnfinished);
  const Result<Replay> binary = decode_binary(encode_binary(r));
  ASSERT_TRUE(binary.ok()) << binary.error().describe();
  EXPECT_EQ(binary.value(), r);
  const Result<Replay> json = decode_json(encode_json(r));
  ASSERT_TRUE(json.ok()) << json.error().describe();
  EXPECT_EQ(json.value(), r);
  EXPECT_EQ(verify(r).verdict, Verdict::kVerified);
  // An unfinished game must not have ended: a finisher claimed as unfinished is caught.
  Replay f = golden("race_sprint.srr");
  ASSERT_EQ(f.racers[0].result.status, ResultStatus::kFinished);
  f.racers[0].result.status = ResultStatus::kUnfinished;
  EXPECT_EQ(only(verify(f)).field, "status");
}

TEST(Verify, AnEarlierEndTimeIsCaught) {
  Replay r = golden("race_sprint.srr");
  r.racers[0].result.stats.time_us -= 1;  // a finish one microsecond faster than the inputs allow
  const Disagreement d = only(verify(r));
  EXPECT_EQ(d.racer, 0u);
}

TEST(Verify, AMissingOrExtraCheckpointIsCaught) {
  Replay r = golden("mode_sprint.srr");
  r.racers[0].checkpoints.pop_back();
  EXPECT_EQ(only(verify(r)).field, "checkpoint");
  Replay e = golden("mode_sprint.srr");
  e.racers[0].checkpoints.push_back(engine::Checkpoint{e.racers[0].result.stats.time_us, 0});
  EXPECT_EQ(only(verify(e)).field, "checkpoint");
}

TEST(Verify, ReportsEveryRacerThatDisagrees) {
  Replay r = golden("race_sprint.srr");
  r.racers[0].result.stats.score += 1;
  r.racers[1].result.stats.score += 1;
  const VerifyReport report = verify(r);
  ASSERT_EQ(report.disagreements.size(), 2u);
  EXPECT_EQ(report.disagreements[1].racer, 1u);
  EXPECT_NE(report.message.find("and 1 more racers"), std::string::npos);
}

TEST(Verify, SaysWhichRulesThisBuildPlays) {
  Replay r = testing::small_sprint(3);
  r.rules_version = engine::kRulesVersion + 1;
  const VerifyReport report = verify(r);
  EXPECT_EQ(report.verdict, Verdict::kUnsupportedRules);
  EXPECT_EQ(report.message, "made with rules v" + std::to_string(engine::kRulesVersion + 1) +
                                ", this build plays up to v" + std::to_string(engine::kRulesVersion));
}

// The report's one line for every kind of disagreement, word for word (`stackrace-replay verify` prints it after
// "MISMATCH <file>: "), from the golden files in tests/data, which never change.
TEST(Verify, EveryDisagreementReadsAsToday) {
  struct Case {
    const char* file;
    void (*tamper)(Replay&);
    std::string message;
  };
  const Case cases[] = {
      {"mode_sprint.srr", [](Replay& r) { r.racers[0].checkpoints.pop_back(); },
       "racer 0 \"sprinter\", piece 100 at 34.648000 s: checkpoint differs (recorded no checkpoint, replayed piece 100 "
       "locked)"},
      {"mode_sprint.srr",
       [](Replay& r) {
         r.racers[0].checkpoints.push_back(engine::Checkpoint{r.racers[0].result.stats.time_us, 0});
       },
       "racer 0 \"sprinter\", piece 125 at 35.540000 s: checkpoint differs (recorded piece 125 locked, replayed the "
       "game locked only 102 pieces)"},
      {"mode_sprint.srr", [](Replay& r) { r.racers[0].checkpoints[1].time_us += 1; },
       "racer 0 \"sprinter\", piece 50 at 17.092000 s: checkpoint time_us differs (recorded 17.092001 s, replayed "
       "17.092000 s)"},
      {"mode_sprint.srr", [](Replay& r) { r.racers[0].checkpoints[2].state_hash ^= 0x10; },
       "racer 0 \"sprinter\", piece 75 at 25.764000 s: checkpoint state_hash differs (recorded 9abd44742584b8de, "
       "replayed 9abd44742584b8ce)"},
      // The last inputs came after the finish: the game was over by then, so an earlier end is only a wrong time.
      {"mode_sprint.srr", [](Replay& r) { r.racers[0].result.stats.time_us = r.racers[0].inputs.back().time_us - 1; },
       "racer 0 \"sprinter\", piece 102 at 35.540000 s: stats.time_us differs (recorded 35593999, replayed "
       "35540000)"},
      // A game still on at its last input cannot end before it.
      {"race_sprint.srr", [](Replay& r) { r.racers[2].result.stats.time_us = r.racers[2].inputs.back().time_us - 1; },
       "racer 2 \"cy\", piece 30 at 10.212000 s: inputs differs (recorded a playable log ending at 10.211999 s, "
       "replayed the end time 10211999 us is before the game's time 10212000 us (the last input))"},
      {"race_sprint.srr", [](Replay& r) { r.racers[2].result.status = ResultStatus::kFinished; },
       "racer 2 \"cy\", piece 30 at 10.226000 s: status differs (recorded finished, replayed not over)"},
      {"race_sprint.srr",
       [](Replay& r) {
         r.racers[0].result.status = ResultStatus::kToppedOut;
         r.racers[0].result.top_out = engine::TopOut::kLockOut;
       },
       "racer 0 \"ada\", piece 103 at 35.475000 s: status differs (recorded topped_out, replayed finished)"},
      {"race_sprint.srr",
       [](Replay& r) {
         r.racers[1].result.top_out = r.racers[1].result.top_out == engine::TopOut::kBlockOut
                                          ? engine::TopOut::kLockOut
                                          : engine::TopOut::kBlockOut;
       },
       "racer 1 \"bo\", piece 31 at 10.800000 s: top_out differs (recorded block_out, replayed lock_out)"},
      {"mode_sprint.srr", [](Replay& r) { r.racers[0].result.stats.score += 1; },
       "racer 0 \"sprinter\", piece 102 at 35.540000 s: stats.score differs (recorded 15795, replayed 15794)"},
      {"mode_sprint.srr", [](Replay& r) { r.racers[0].result.stats.max_b2b += 2; },
       "racer 0 \"sprinter\", piece 102 at 35.540000 s: stats.max_b2b differs (recorded 2, replayed 0)"},
      {"mode_sprint.srr", [](Replay& r) { r.racers[0].result.final_hash ^= 1; },
       "racer 0 \"sprinter\", piece 102 at 35.540000 s: final_hash differs (recorded b22696a817e0987d, replayed "
       "b22696a817e0987c)"},
      {"race_sprint.srr",
       [](Replay& r) {
         r.racers[0].result.stats.score += 1;
         r.racers[1].result.final_hash ^= 1;
         r.racers[2].result.stats.lines += 1;
       },
       "racer 0 \"ada\", piece 103 at 35.475000 s: stats.score differs (recorded 15791, replayed 15790) (and 2 more "
       "racers)"},
  };
  for (const Case& c : cases) {
    Replay r = golden(c.file);
    c.tamper(r);
    ASSERT_EQ(sr::test::problem_of(check_replay(r)), std::nullopt) << c.message;
    const VerifyReport report = verify(r);
    EXPECT_EQ(report.verdict, Verdict::kMismatch) << c.message;
    EXPECT_EQ(report.message, c.message);
  }
}

TEST(Verify, TheSecondAndLaterDisagreementsReadAsToday) {
  Replay r = golden("race_sprint.srr");
  r.racers[0].result.stats.score += 1;
  r.racers[1].result.final_hash ^= 1;
  r.racers[2].result.stats.lines += 1;
  const VerifyReport report = verify(r);
  ASSERT_EQ(report.disagreements.size(), 3u);
  EXPECT_EQ(report.disagreements[1].describe(),
            "racer 1 \"bo\", piece 31 at 10.800000 s: final_hash differs (recorded 64050f88ff4a0cb5, replayed "
            "64050f88ff4a0cb4)");
  EXPECT_EQ(report.disagreements[2].describe(),
            "racer 2 \"cy\", piece 30 at 10.226000 s: stats.lines differs (recorded 12, replayed 11)");
}

TEST(Verify, DescribesADisagreementInOneLine) {
  Disagreement d{1, "bo", 50, 16'512'000, "stats.lines", "12", "11"};
  EXPECT_EQ(d.describe(), "racer 1 \"bo\", piece 50 at 16.512000 s: stats.lines differs (recorded 12, replayed 11)");
}

}  // namespace
}  // namespace sr::replay
