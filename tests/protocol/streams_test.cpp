#include "common/protocol/streams.h"

#include <gtest/gtest.h>

#include <vector>

#include "common/protocol/codec.h"

namespace sr::protocol {
namespace {

std::vector<InputChange> log_of(std::size_t n) {
  std::vector<InputChange> out;
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back({static_cast<engine::TimeUs>(i * 1000), static_cast<engine::Buttons>(i & 1)});
  }
  return out;
}

TEST(InputStream, AcceptsContiguousBatches) {
  InputStream s;
  const auto log = log_of(5);
  ASSERT_EQ(s.accept(0, 1500, std::span(log).first(2)), StreamError::kOk);
  ASSERT_EQ(s.accept(2, 1500, {}), StreamError::kOk);  // time passes, nothing pressed
  ASSERT_EQ(s.accept(2, 4000, std::span(log).subspan(2)), StreamError::kOk);
  EXPECT_EQ(s.next_seq(), 5u);
  EXPECT_EQ(s.now_us(), 4000);
  EXPECT_EQ(s.log(), log);
}

TEST(InputStream, RejectsGapsOverlapsAndTimeTravelWithoutChanging) {
  InputStream s;
  const auto log = log_of(4);
  ASSERT_EQ(s.accept(0, 1000, std::span(log).first(2)), StreamError::kOk);
  EXPECT_EQ(s.accept(3, 5000, std::span(log).subspan(3)), StreamError::kGap);
  EXPECT_EQ(s.accept(1, 5000, std::span(log).subspan(1)), StreamError::kOverlap);
  EXPECT_EQ(s.accept(2, 999, {}), StreamError::kNowBackwards);
  const std::vector<InputChange> early{{999, 0}};
  EXPECT_EQ(s.accept(2, 2000, early), StreamError::kTimeBackwards);
  const std::vector<InputChange> same_time{{1000, 3}};
  EXPECT_EQ(s.accept(2, 1000, same_time), StreamError::kOk) << "a change at exactly the previous now_us is fine";
  EXPECT_EQ(s.next_seq(), 3u);
}

TEST(SplitRacerInputs, ChunksRespectTheRelayLimitAndChain) {
  const auto log = log_of(2 * kMaxInputsPerRelay + 5);
  const auto chunks = split_racer_inputs(3, 12, 0, log, 99'000'000);
  ASSERT_EQ(chunks.size(), 3u);
  InputStream s;
  for (const RacerInputs& c : chunks) {
    ASSERT_EQ(validate(c), std::nullopt);
    EXPECT_LE(c.changes.size(), kMaxInputsPerRelay);
    EXPECT_EQ(c.race_id, 3u);
    EXPECT_EQ(c.player_id, 12u);
    ASSERT_EQ(s.accept(c.first_seq, c.now_us, c.changes), StreamError::kOk);
  }
  EXPECT_EQ(s.log(), log);
  EXPECT_EQ(s.now_us(), 99'000'000);
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
    ASSERT_EQ(validate(chunks[i]), std::nullopt);
    // Each chunk survives the wire on its own.
    const DecodeResult r = decode(encode(chunks[i]));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(a.add(std::get<ReplayChunk>(*r.message())),
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
  ASSERT_EQ(validate(chunks[0]), std::nullopt);
  ReplayAssembler a(5);
  EXPECT_EQ(a.add(chunks[0]), AssembleStatus::kComplete);
  EXPECT_TRUE(a.take().empty());
}

}  // namespace
}  // namespace sr::protocol
