#include "common/protocol/streams.h"

#include <gtest/gtest.h>

#include <vector>

#include "common/engine/racer_run.h"
#include "common/protocol/codec.h"

namespace sr::protocol {
namespace {

std::vector<engine::InputChange> log_of(std::size_t n) {
  std::vector<engine::InputChange> out;
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back({static_cast<engine::TimeUs>(i * 1000), static_cast<engine::Buttons>(i & 1)});
  }
  return out;
}

TEST(SplitRacerInputs, ChunksRespectTheRelayLimitAndChain) {
  const auto log = log_of(2 * kMaxInputsPerRelay + 5);
  const auto chunks = split_racer_inputs(3, 12, 0, log, 99'000'000);
  ASSERT_EQ(chunks.size(), 3u);
  // The receiving end takes them in order as one stream.
  engine::RacerRun run(engine::make_sprint(), 1);
  std::vector<engine::InputChange> joined;
  for (const RacerInputs& c : chunks) {
    ASSERT_TRUE(validate(c).ok());
    EXPECT_LE(c.changes.size(), kMaxInputsPerRelay);
    EXPECT_EQ(c.race_id, 3u);
    EXPECT_EQ(c.player_id, 12u);
    ASSERT_EQ(run.accept(c.first_seq, c.now_us, c.changes), engine::StreamError::kOk);
    joined.insert(joined.end(), c.changes.begin(), c.changes.end());
  }
  EXPECT_EQ(joined, log);
  EXPECT_EQ(run.next_seq(), log.size());
  EXPECT_EQ(run.now_us(), 99'000'000);
}

TEST(SplitRacerInputs, EmptyLogGivesOneMessage) {
  const auto chunks = split_racer_inputs(3, 12, 0, {}, 5);
  ASSERT_EQ(chunks.size(), 1u);
  EXPECT_TRUE(chunks[0].changes.empty());
  EXPECT_EQ(chunks[0].now_us, 5);
}

TEST(Replay, SplitAndReassemble) {
  std::vector<std::uint8_t> file(2 * kMaxReplayChunkBytes + 17);
  for (std::size_t i = 0; i < file.size(); ++i) file[i] = static_cast<std::uint8_t>(i * 31);
  const auto chunks = split_replay(77, file);
  ASSERT_EQ(chunks.size(), 3u);
  ReplayAssembler a(77);
  EXPECT_EQ(a.add(chunks[1]), AssembleStatus::kOutOfOrder);
  ReplayChunk other = chunks[0];
  other.game_id = 78;
  EXPECT_EQ(a.add(other), AssembleStatus::kWrongGame);
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    ASSERT_TRUE(validate(chunks[i]).ok());
    // Each chunk survives the wire on its own.
    const DecodeResult r = decode(encode(chunks[i]));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(a.add(std::get<ReplayChunk>(r.value())),
              i + 1 == chunks.size() ? AssembleStatus::kComplete : AssembleStatus::kIncomplete);
  }
  EXPECT_EQ(a.add(chunks[2]), AssembleStatus::kAlreadyComplete);
  ASSERT_TRUE(a.complete());
  EXPECT_EQ(a.take(), file);
}

TEST(Replay, TotalMustNotChange) {
  const std::vector<std::uint8_t> file(kMaxReplayChunkBytes + 1, 1);
  auto chunks = split_replay(5, file);
  ReplayAssembler a(5);
  ASSERT_EQ(a.add(chunks[0]), AssembleStatus::kIncomplete);
  chunks[1].total_bytes += 1;
  EXPECT_EQ(a.add(chunks[1]), AssembleStatus::kTotalChanged);
  EXPECT_FALSE(a.complete());
}

TEST(Replay, EmptyFile) {
  const auto chunks = split_replay(5, {});
  ASSERT_EQ(chunks.size(), 1u);
  ASSERT_TRUE(validate(chunks[0]).ok());
  ReplayAssembler a(5);
  EXPECT_EQ(a.add(chunks[0]), AssembleStatus::kComplete);
  EXPECT_TRUE(a.take().empty());
}

}  // namespace
}  // namespace sr::protocol
