#include "bot/options.h"

#include <gtest/gtest.h>

namespace sr::botcli {
namespace {

TEST(Options, ParsesRatesInThousandths) {
  EXPECT_EQ(parse_milli("3"), 3000);
  EXPECT_EQ(parse_milli("2.5"), 2500);
  EXPECT_EQ(parse_milli("0.125"), 125);
  EXPECT_EQ(parse_milli("0"), 0);
  EXPECT_FALSE(parse_milli("").has_value());
  EXPECT_FALSE(parse_milli("1.2345").has_value());
  EXPECT_FALSE(parse_milli("-1").has_value());
  EXPECT_FALSE(parse_milli("3pps").has_value());
  EXPECT_FALSE(parse_milli("1.2.3").has_value());
}

TEST(Options, ParsesMillisecondRanges) {
  const auto r = parse_ms_range("30-60");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->lo, 30);
  EXPECT_EQ(r->hi, 60);
  EXPECT_EQ(parse_ms_range("45")->hi, 45);
  EXPECT_FALSE(parse_ms_range("60-30").has_value());
  EXPECT_FALSE(parse_ms_range("0-10").has_value());
  EXPECT_FALSE(parse_ms_range("x").has_value());
}

TEST(Options, BuildsModeConfigs) {
  EXPECT_EQ(config_for({"sprint", 20, std::nullopt, std::nullopt, ""}).value().limit_value, 20);
  EXPECT_EQ(config_for({"ultra", std::nullopt, 60, std::nullopt, ""}).value().limit_value, 60);
  EXPECT_EQ(config_for({"contest", std::nullopt, std::nullopt, std::nullopt, ""}).value().scoring,
            engine::Scoring::kContest);
  EXPECT_EQ(config_for({"master", std::nullopt, std::nullopt, std::nullopt, ""}).value().gravity,
            engine::Gravity::k20G);
  const auto endless = config_for({"endless", 30, std::nullopt, std::nullopt, ""});
  ASSERT_TRUE(endless.ok()) << endless.error();
  EXPECT_EQ(endless.value().limit, engine::LimitKind::kLines);
  EXPECT_EQ(endless.value().mode, engine::ModeKind::kEndless);
}

TEST(Options, RotationNamesPickTheRotationSystem) {
  EXPECT_EQ(config_for({"sprint", std::nullopt, std::nullopt, std::nullopt, ""}).value().rotation,
            engine::RotationSystem::kSrs);
  EXPECT_EQ(config_for({"sprint", std::nullopt, std::nullopt, std::nullopt, "ocular"}).value().rotation,
            engine::RotationSystem::kOcular);
  EXPECT_EQ(config_for({"ultra", std::nullopt, std::nullopt, std::nullopt, "classic"}).value().rotation,
            engine::RotationSystem::kClassic);
  EXPECT_EQ(config_for({"sprint", std::nullopt, std::nullopt, std::nullopt, "Ocular"}).error(),
            "--rotation must be one of srs, srs_no180, classic, ocular (got 'Ocular')");
}

TEST(Options, ExplainsBadModeRequests) {
  EXPECT_NE(config_for({"zen", std::nullopt, std::nullopt, std::nullopt, ""}).error().find("--mode must be one of"),
            std::string::npos);
  EXPECT_FALSE(config_for({"sprint", std::nullopt, 30, std::nullopt, ""}).ok());
  EXPECT_FALSE(config_for({"marathon", 10, std::nullopt, std::nullopt, ""}).ok());
  EXPECT_FALSE(config_for({"endless", std::nullopt, std::nullopt, std::nullopt, ""}).ok());
  EXPECT_FALSE(config_for({"sprint", 0, std::nullopt, std::nullopt, ""}).ok());
}

TEST(Options, StartsAtTheLevelAsked) {
  EXPECT_EQ(config_for({"marathon", std::nullopt, std::nullopt, 9, ""}).value().start_level, 9);
  EXPECT_EQ(config_for({"marathon", std::nullopt, std::nullopt, 16, ""}).error(), "--level must be 1..15 for marathon");
  EXPECT_EQ(config_for({"ultra", std::nullopt, std::nullopt, 20, ""}).value().start_level, 20);
  EXPECT_EQ(config_for({"master", std::nullopt, std::nullopt, 2, ""}).error(),
            "master is 20G from the start: drop --level");
}

// The player options every run shares: one rule, the defaults each run gives, and the settings they make.
TEST(Options, ChecksThePlayerOptionsByOneRule) {
  PlayerRequest r;
  auto ok = check_player(r, "contest");
  ASSERT_TRUE(ok.ok()) << ok.error();
  EXPECT_EQ(ok.value().bot.pps_milli, 3000);
  EXPECT_EQ(ok.value().weights_name, "contest");
  EXPECT_TRUE(ok.value().bot.weights.has_value());
  EXPECT_EQ(ok.value().bot.chooser.lookahead, 1);
  EXPECT_TRUE(ok.value().bot.chooser.tucks);
  EXPECT_FALSE(ok.value().external.has_value());
  // No default preset: left to the bot (each game's mode).
  ok = check_player(r, "");
  ASSERT_TRUE(ok.ok());
  EXPECT_FALSE(ok.value().bot.weights.has_value());
  r.search = "drops";
  r.external = "./mybot";
  r.think_ms = 50;
  ok = check_player(r, "");
  ASSERT_TRUE(ok.ok());
  EXPECT_FALSE(ok.value().bot.chooser.tucks);
  ASSERT_TRUE(ok.value().external.has_value());
  EXPECT_EQ(ok.value().external->command, "./mybot");
  EXPECT_EQ(ok.value().external->think_ms, 50);
  const struct {
    PlayerRequest request;
    const char* says;
  } kBad[] = {
      {{"31", "", 1, "full", "", 0, 1000}, "--pps must be a number from 0 to 30 (e.g. 3 or 2.5)"},
      {{"3", "heavy", 1, "full", "", 0, 1000},
       "--weights must be one of sprint, survival, score, contest (got 'heavy')"},
      {{"3", "", 2, "full", "", 0, 1000}, "--lookahead must be 0 or 1"},
      {{"3", "", 1, "wide", "", 0, 1000}, "--search must be full or drops"},
      {{"3", "", 1, "full", "", -1, 1000}, "--think-ms must be 0..60000"},
      {{"3", "", 1, "full", "", 0, 0}, "--answer-ms must be 1..600000"},
  };
  for (const auto& c : kBad) {
    const auto bad = check_player(c.request, "");
    ASSERT_FALSE(bad.ok()) << c.says;
    EXPECT_EQ(bad.error(), c.says);
  }
}

}  // namespace
}  // namespace sr::botcli
