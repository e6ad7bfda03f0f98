#include "net/transport/limits.h"

#include <gtest/gtest.h>

#include "common/protocol/messages.h"

namespace sr::transport {
namespace {

TEST(HostLimits, BothEndsReadTheLargestMessageAndGiveUpAfterTheSameSilence) {
  EXPECT_GT(kServerLimits.max_packet_bytes, protocol::kMaxMessageBytes) << "an oversized message gets a reason";
  EXPECT_GE(kClientLimits.max_packet_bytes, protocol::kMaxMessageBytes);
  EXPECT_EQ(kServerLimits.peer_timeout_ms, 5'000u);
  EXPECT_EQ(kClientLimits.peer_timeout_ms, kServerLimits.peer_timeout_ms);
}

TEST(SilenceWatch, APeerIsSilentOnlyPastTheTimeout) {
  const SilenceWatch watch(5'000);
  EXPECT_FALSE(watch.silent_since(10'000, 15'000));
  EXPECT_TRUE(watch.silent_since(10'000, 15'001));
  EXPECT_FALSE(watch.silent_since(10'000, 9'000)) << "heard after now (an earlier service time): not silent";
  // ENet's clock wraps at 2^32 ms.
  EXPECT_FALSE(watch.silent_since(0xFFFF'FF00u, 4'000));
  EXPECT_TRUE(watch.silent_since(0xFFFF'FF00u, 5'000));
  EXPECT_TRUE(watch.connect_overdue(100, 5'101));
  EXPECT_FALSE(watch.connect_overdue(100, 5'100));
}

TEST(SilenceWatch, JudgesAtMostEveryHundredMilliseconds) {
  SilenceWatch watch(5'000);
  // The first call comes after a long gap since time 0: a stall of our own, so a second of grace first.
  EXPECT_FALSE(watch.judge_now(50'000));
  EXPECT_FALSE(watch.judge_now(50'100)) << "within the grace";
  EXPECT_FALSE(watch.judge_now(50'900));
  EXPECT_TRUE(watch.judge_now(51'000));
  EXPECT_FALSE(watch.judge_now(51'050)) << "50 ms after the last judgement";
  EXPECT_FALSE(watch.judge_now(51'099));
  EXPECT_TRUE(watch.judge_now(51'150)) << "100 ms after the last judgement (51'050 did not count)";
  EXPECT_TRUE(watch.judge_now(51'250));
}

TEST(SilenceWatch, AfterOurOwnStallNobodyIsJudgedForASecond) {
  SilenceWatch watch(5'000);
  (void)watch.judge_now(10'000);
  ASSERT_TRUE(watch.judge_now(11'000));
  // 1.1 s is still an ordinary gap; 1.101 s is a stall of our own (the datagrams that waited are not all read).
  EXPECT_TRUE(watch.judge_now(12'100));
  EXPECT_FALSE(watch.judge_now(13'201));
  EXPECT_FALSE(watch.judge_now(14'100));
  EXPECT_TRUE(watch.judge_now(14'201));
}

}  // namespace
}  // namespace sr::transport
