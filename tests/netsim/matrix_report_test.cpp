// The network matrix's acceptance rule and its table (tests/netsim/matrix_report.h), with made-up figures.
#include "tests/netsim/matrix_report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

namespace sr::netsim {
namespace {

// A profile where everything went right: 2 races of 3 racers.
ProfileOutcome clean(const std::string& profile) {
  ProfileOutcome o;
  o.profile = profile;
  o.races_planned = o.races = 2;
  o.racers_planned = o.racers = o.finished = 6;
  o.replays_stored = o.replays_verified = 2;
  o.logs_checked = o.logs_whole = 6;
  o.relay_delays_us = {1'000, 2'000, 3'000};
  return o;
}

TEST(NetMatrixPercentile, TakesTheSortedSampleAtTheFractionOfTheCount) {
  EXPECT_EQ(percentile({}, 0.5), std::nullopt);
  EXPECT_EQ(percentile({30, 10, 20}, 0.5), 20);
  EXPECT_EQ(percentile({30, 10, 20}, 0.0), 10);
  EXPECT_EQ(percentile({30, 10, 20}, 0.99), 30);
  EXPECT_EQ(percentile({30, 10, 20}, 1.0), 30);
  std::vector<std::int64_t> hundred;
  for (int i = 1; i <= 100; ++i) hundred.push_back(i);
  EXPECT_EQ(percentile(hundred, 0.99), 100);  // index 99
  EXPECT_EQ(percentile(hundred, 0.5), 51);    // index 50
}

TEST(NetMatrixVerdict, ACleanRunPasses) {
  EXPECT_TRUE(judge(clean("wifi")).empty());
  EXPECT_EQ(format_verdict({clean("lan"), clean("wifi")}), "netmatrix: PASS");
}

TEST(NetMatrixVerdict, NoProfileIsNoPass) { EXPECT_EQ(format_verdict({}), "netmatrix: FAIL (no profile ran)"); }

TEST(NetMatrixVerdict, ARemovalADesyncOrAReplayThatDoesNotVerifyFails) {
  ProfileOutcome removed = clean("mobile");
  removed.finished = 5;
  removed.removed = 1;
  EXPECT_EQ(judge(removed), (std::vector<std::string>{"5 of 6 racers finished", "1 removed"}));

  ProfileOutcome desync = clean("wifi");
  desync.desyncs = 1;
  EXPECT_EQ(judge(desync), std::vector<std::string>{"1 desyncs"});
  desync.desyncs = 0;
  desync.desync_notices = 2;  // the server's count was lost? a bot's notice counts as well
  EXPECT_EQ(judge(desync), std::vector<std::string>{"2 desyncs"});

  ProfileOutcome unverified = clean("lan");
  unverified.replays_verified = 1;
  EXPECT_EQ(judge(unverified), std::vector<std::string>{"1 of 2 replays do not verify"});

  EXPECT_EQ(format_verdict({clean("lan"), removed, desync}),
            "netmatrix: FAIL (mobile: 5 of 6 racers finished, 1 removed; wifi: 2 desyncs)");
}

TEST(NetMatrixVerdict, ATopOutIsTheBotsPlayNotALostRacer) {
  ProfileOutcome o = clean("wifi");
  o.finished = 5;
  o.topped_out = 1;
  EXPECT_TRUE(judge(o).empty());
  o.topped_out = 0;
  o.other_endings = 1;  // disconnected: lost
  EXPECT_EQ(judge(o), (std::vector<std::string>{"5 of 6 racers finished", "1 did not finish"}));
}

TEST(NetMatrixVerdict, MissingRacesReplaysOrPartialLogsFail) {
  ProfileOutcome o = clean("broadband");
  o.races = 1;
  o.racers = o.finished = 3;
  o.replays_stored = o.replays_verified = 1;
  o.logs_checked = o.logs_whole = 3;
  EXPECT_EQ(judge(o), (std::vector<std::string>{"1 of 2 races without results", "3 of 6 racers finished",
                                                "1 replays stored for 2 races"}));

  ProfileOutcome partial = clean("blackout8");
  partial.logs_whole = 5;
  EXPECT_EQ(judge(partial), std::vector<std::string>{"1 of 6 racers' replays miss part of their game"});
}

TEST(NetMatrixVerdict, TheResumeProfilesNeedAReconnectAndAllowNoRacerToBeLost) {
  EXPECT_TRUE(expects_resume("blackout45"));
  EXPECT_TRUE(expects_resume("address-change"));
  EXPECT_FALSE(expects_resume("blackout8"));

  ProfileOutcome o = clean("address-change");
  EXPECT_EQ(judge(o), std::vector<std::string>{"no reconnect"});
  o.reconnects = 6;
  EXPECT_TRUE(judge(o).empty());
  o.finished = 5;
  o.other_endings = 1;
  EXPECT_EQ(judge(o), (std::vector<std::string>{"5 of 6 racers finished", "1 did not finish"}));
  // A 3 s or 8 s blackout needs no reconnect (the 8 s one makes them, and that is fine).
  ProfileOutcome b8 = clean("blackout8");
  b8.reconnects = 6;
  EXPECT_TRUE(judge(b8).empty());
}

TEST(NetMatrixTable, OneAlignedRowPerProfileUnderAHeader) {
  ProfileOutcome lan = clean("lan");
  ProfileOutcome change = clean("address-change");
  change.reconnects = 6;
  change.resume_times_us = {5'500'000, 6'000'000, 7'300'000};
  change.unverified_sum_us = 33'000'000;
  change.unverified_max_us = 6'100'000;
  change.wall_s = 21.4;
  const std::string table = format_table({lan, change});
  std::istringstream in(table);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].size(), lines[1].size());
  EXPECT_EQ(lines[1].size(), lines[2].size());
  EXPECT_EQ(lines[0].rfind("profile", 0), 0u);
  EXPECT_EQ(lines[1].rfind("lan ", 0), 0u);
  EXPECT_EQ(lines[2].rfind("address-change ", 0), 0u);
  EXPECT_NE(lines[1].find("2.0 ms"), std::string::npos) << "relay p50";
  EXPECT_NE(lines[1].find("3.0 ms"), std::string::npos) << "relay p99";
  EXPECT_NE(lines[2].find("6.0 / 7.3 s"), std::string::npos) << "resume p50 / max";
  EXPECT_NE(lines[2].find("33.0 / 6.1 s"), std::string::npos) << "unverified sum / max";
  EXPECT_NE(lines[2].find("21 s"), std::string::npos) << "wall";
  EXPECT_NE(lines[1].find("  -  "), std::string::npos) << "no resume measured";
}

TEST(NetMatrixCsv, AHeaderAndOneRowOfPlainNumbersPerProfile) {
  ProfileOutcome lan = clean("lan");
  lan.wall_s = 12.5;
  const std::string csv = format_csv({lan});
  std::istringstream in(csv);
  std::string header, row, extra;
  ASSERT_TRUE(std::getline(in, header));
  ASSERT_TRUE(std::getline(in, row));
  EXPECT_FALSE(std::getline(in, extra));
  EXPECT_EQ(std::count(header.begin(), header.end(), ','), std::count(row.begin(), row.end(), ','));
  EXPECT_EQ(header.rfind("profile,races,races_planned,racers,", 0), 0u);
  EXPECT_EQ(row, "lan,2,2,6,6,6,0,0,0,0,0,2,2,6,6,3,2.000,3.000,0,,,0.000,0.000,12.500,0");
}

}  // namespace
}  // namespace sr::netsim
