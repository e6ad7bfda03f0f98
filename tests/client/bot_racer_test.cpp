#include "client/solo/bot_racer.h"

#include <gtest/gtest.h>

namespace sr::client {
namespace {

TEST(BotRacer, PlaysItsOwnBoardOnThePlayersClock) {
  auto made = BotRacer::create(engine::make_sprint(40), 3, 2.0);
  ASSERT_TRUE(made.ok()) << made.error();
  const std::unique_ptr<BotRacer> bot = std::move(made.value());
  double wall = 0;
  for (engine::TimeUs t = 0; t <= 5'000'000; t += 16'667) bot->advance_to(t, wall += 1.0 / 60);
  EXPECT_EQ(bot->game().now(), 299 * 16'667);  // the last clock it was given, never past it
  EXPECT_GE(bot->game().stats().pieces, 5);    // 2 pieces per second at most (the bot's pace rule), not far below
  EXPECT_LE(bot->game().stats().pieces, 11);
  ASSERT_FALSE(bot->run().log().empty());

  // Its logged button changes alone give the same game: the replay of a race can hold the bot as a racer.
  engine::Game replayed(engine::make_sprint(40), 3);
  for (const auto& in : bot->run().log())
    ASSERT_EQ(replayed.update(in.time_us, in.buttons).error, engine::UpdateError::kOk);
  ASSERT_EQ(replayed.update(bot->game().now()).error, engine::UpdateError::kOk);
  EXPECT_EQ(replayed.state_hash(), bot->game().state_hash());
}

TEST(BotRacer, RefusesSpeedsOutOfRange) {
  EXPECT_EQ(BotRacer::create(engine::make_sprint(40), 3, 0.0).error(),
            "the bot's speed must be between 0.1 and 20 pieces per second");
}

}  // namespace
}  // namespace sr::client
