// hub/records/records_hub.h: the submit path in process, with fake clocks, on real races: an accepted two-racer sprint,
// the lists, and every hostile case of common/protocol/RECORDS.md section 3 refused with its status, its sentence and
// its count; the flood limits with exact counts; the re-simulation slots; persistence across reopening.
#include "hub/records/records_hub.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "common/replay/verify.h"
#include "hub/records/records_metrics.h"
#include "net/identity/key_id.h"
#include "tests/hub/records_support.h"

namespace sr::hub::records::test {
namespace {

class RecordsHubTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("stackrace-records-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override {
    hub_.reset();
    std::filesystem::remove_all(dir_);
  }
  void open(RecordsOptions o = {}) {
    hub_.reset();
    o.data_dir = dir_;
    auto h = RecordsHub::open(
        std::move(o), [this] { return now_ms_; }, [this] { return unix_ms_; });
    ASSERT_TRUE(h) << h.error();
    hub_ = std::move(h).value();
  }
  SubmitAnswer submit(const SignedSubmission& s, const std::string& source = "127.0.0.1") {
    return hub_->submit(source, s.body, s.signature);
  }
  SubmitAnswer submit(const replay::Replay& race, const std::vector<std::uint32_t>& racers,
                      const std::string& source = "127.0.0.1") {
    return submit(sign(submission_of(race, racers)), source);
  }
  std::uint64_t count(SubmitResult r) const { return hub_->counts().submissions[static_cast<std::size_t>(r)]; }
  std::uint64_t runs(RunOutcome o) const { return hub_->counts().runs[static_cast<std::size_t>(o)]; }
  static std::string game_of(const replay::Replay& race) { return replay::content_id(replay::encode_binary(race)); }
  // A finished two-racer sprint with keys for `a` and `b`.
  static replay::Replay race2(const std::string& a = "ada", const std::string& b = "bo") {
    replay::Replay r = with_players(base_race(2), {a, b});
    EXPECT_EQ(r.racers[0].result.status, replay::ResultStatus::kFinished);
    EXPECT_EQ(r.racers[1].result.status, replay::ResultStatus::kFinished);
    return r;
  }

  std::filesystem::path dir_;
  std::int64_t now_ms_ = 5'000'000;
  std::int64_t unix_ms_ = 1'764'700'000'000;
  std::unique_ptr<RecordsHub> hub_;
};

TEST_F(RecordsHubTest, ATwoRacerSprintIsAccepted) {
  open();
  const replay::Replay race = race2();
  const SubmitAnswer a = submit(race, {0, 1});
  ASSERT_EQ(a.status, 200) << a.body;
  const std::string game = game_of(race);
  // Placed by their times (a tie to racer 0, stored first).
  const bool second_is_faster = race.racers[1].result.stats.time_us < race.racers[0].result.stats.time_us;
  EXPECT_EQ(a.body, R"({"status":"accepted","game":")" + game +
                        R"(","runs":[{"racer":0,"board":"sprint-40l","list":"other","place":)" +
                        (second_is_faster ? "2" : "1") + R"(,"best":true,"record":")" + game +
                        R"(-0"},{"racer":1,"board":"sprint-40l","list":"other","place":)" +
                        (second_is_faster ? "1" : "2") + R"(,"best":true,"record":")" + game +
                        R"(-1"}],"refused":[]})");
  EXPECT_EQ(a.result, SubmitResult::kAccepted);
  EXPECT_EQ(count(SubmitResult::kAccepted), 1u);
  EXPECT_EQ(runs(RunOutcome::kAccepted), 2u);

  auto entry = hub_->with_book([&](RecordBook& b) { return b.run(game + "-0"); });
  ASSERT_TRUE(entry && entry.value());
  const Entry& e = *entry.value();
  EXPECT_EQ(e.player, "ada");
  EXPECT_EQ(e.key, net::to_hex(sr::test::test_key("ada").public_key()));
  EXPECT_EQ(e.key_id, sr::test::test_key("ada").short_id());
  EXPECT_EQ(e.time_us, race.racers[0].result.stats.time_us);
  EXPECT_EQ(e.lines, 40);
  EXPECT_EQ(e.server_name, "Ada's server");
  EXPECT_EQ(e.server_key, server_key_hex());
  EXPECT_EQ(e.server_web, "http://example.org:8080/");
  EXPECT_EQ(e.played_unix_ms, kPlayedUnixMs);
  EXPECT_EQ(e.submitted_unix_ms, unix_ms_);
  EXPECT_EQ(e.rules_version, engine::kRulesVersion);
  EXPECT_EQ(e.list, ListKind::kOther);
  auto bytes = hub_->replay_bytes(game);
  ASSERT_TRUE(bytes);
  EXPECT_EQ(bytes.value(), replay::encode_binary(race));
}

TEST_F(RecordsHubTest, ATrustedServersCleanRunsAreTrustedAndOthersNot) {
  RecordsOptions o;
  ASSERT_TRUE(o.trust.add(server_key_hex(), "Ada"));
  open(std::move(o));
  replay::Replay race = race2();
  race.racers[1].result.unverified_us = 1'500'000;  // not a result verify() checks: only the live referee knows it
  const SubmitAnswer a = submit(race, {0, 1});
  ASSERT_EQ(a.status, 200) << a.body;
  EXPECT_NE(a.body.find(R"({"racer":0,"board":"sprint-40l","list":"trusted")"), std::string::npos) << a.body;
  EXPECT_NE(a.body.find(R"({"racer":1,"board":"sprint-40l","list":"other")"), std::string::npos) << a.body;

  open();  // the same book without the trust: both on the other list
  auto page = hub_->with_book([](RecordBook& b) { return b.board("sprint-40l", ListKind::kOther, 0, 10); });
  ASSERT_TRUE(page && page.value());
  EXPECT_EQ(page.value()->total, 2);
}

TEST_F(RecordsHubTest, TheSameReplayTwiceIsAConflictNamingItsGame) {
  open();
  const replay::Replay race = race2();
  ASSERT_EQ(submit(race, {0, 1}).status, 200);
  const SubmitAnswer again = submit(race, {0, 1});
  EXPECT_EQ(again.status, 409);
  EXPECT_EQ(again.body, R"({"error":"this replay was submitted already","game":")" + game_of(race) + R"("})");
  EXPECT_EQ(count(SubmitResult::kDuplicate), 1u);
  EXPECT_EQ(count(SubmitResult::kAccepted), 1u);
}

TEST_F(RecordsHubTest, AForgedServerSignatureIsRefused) {
  open();
  SignedSubmission s = sign(submission_of(race2(), {0, 1}));
  s.signature = net::sign_submission(sr::test::test_key("mallory"), s.body);
  const SubmitAnswer a = submit(s);
  EXPECT_EQ(a.status, 403);
  EXPECT_EQ(a.body, R"({"error":"the signature is not server_key's signature of this body"})");
  EXPECT_EQ(count(SubmitResult::kBadSignature), 1u);
  SignedSubmission garbled = sign(submission_of(race2(), {0, 1}));
  const std::size_t at = garbled.body.find("\"sequence\":1");
  ASSERT_NE(at, std::string::npos);
  garbled.body.replace(at, 12, "\"sequence\":2");  // the body changed after signing
  EXPECT_EQ(submit(garbled).status, 403);
  EXPECT_EQ(count(SubmitResult::kBadSignature), 2u);
}

TEST_F(RecordsHubTest, AResultThatDoesNotMatchIsRefusedWithTheFirstDisagreement) {
  open();
  replay::Replay race = race2();
  race.racers[1].result.stats.score += 100;
  const replay::VerifyReport report = replay::verify(race);
  ASSERT_EQ(report.verdict, replay::Verdict::kMismatch);
  ASSERT_NE(report.message.find("stats.score differs"), std::string::npos) << report.message;
  const SubmitAnswer a = submit(race, {0, 1});
  EXPECT_EQ(a.status, 422);
  EXPECT_EQ(a.body, error_json("the replay does not verify: " + report.message));
  EXPECT_EQ(count(SubmitResult::kMismatch), 1u);

  replay::Replay hashed = race2();
  ASSERT_FALSE(hashed.racers[0].checkpoints.empty());
  hashed.racers[0].checkpoints[1].state_hash ^= 1;
  const SubmitAnswer b = submit(hashed, {0});
  EXPECT_EQ(b.status, 422);
  EXPECT_EQ(b.body, error_json("the replay does not verify: " + replay::verify(hashed).message));
  EXPECT_NE(b.body.find("checkpoint state_hash differs"), std::string::npos) << b.body;
  EXPECT_EQ(count(SubmitResult::kMismatch), 2u);
  EXPECT_EQ(count(SubmitResult::kAccepted), 0u);
}

TEST_F(RecordsHubTest, ARulesVersionTheHubDoesNotPlayIsRefused) {
  open();
  replay::Replay race = race2();
  race.rules_version = engine::kRulesVersion + 1;
  const SubmitAnswer a = submit(race, {0, 1});
  EXPECT_EQ(a.status, 422);
  EXPECT_EQ(a.body, error_json("the replay's rules version " + std::to_string(engine::kRulesVersion + 1) +
                               " is not one this hub plays (1 to " + std::to_string(engine::kRulesVersion) + ")"));
  EXPECT_EQ(count(SubmitResult::kUnknownRules), 1u);
}

TEST_F(RecordsHubTest, AReplayThatDoesNotDecodeIsRefused) {
  open();
  net::Submission s = submission_of(race2(), {0});
  s.replay.resize(20);
  const SubmitAnswer a = submit(sign(s));
  EXPECT_EQ(a.status, 400);
  EXPECT_EQ(a.body.rfind(R"({"error":"the replay does not decode: )", 0), 0u) << a.body;
  EXPECT_EQ(count(SubmitResult::kMalformed), 1u);
  EXPECT_EQ(submit(SignedSubmission{"{\"version\":1}", std::string(128, '0')}).status, 400);
  EXPECT_EQ(count(SubmitResult::kMalformed), 2u);
}

TEST_F(RecordsHubTest, ARunSignedByAnotherKeyIsRefused) {
  open();
  const replay::Replay race = race2();
  net::Submission s = submission_of(race, {0});
  s.runs[0].signature = run_signature(race, 0, "mallory");
  const SubmitAnswer a = submit(sign(s));
  EXPECT_EQ(a.status, 422);
  const std::string reason = "the run signature of racer 0 (\\\"ada\\\") is not the signature of its key " +
                             sr::test::test_key("ada").short_id() + " over this run";
  EXPECT_EQ(a.body, R"({"error":"no run was accepted: )" + reason +
                        R"(","refused":[{"racer":0,"code":"bad_signature","reason":")" + reason + R"("}]})");
  EXPECT_EQ(count(SubmitResult::kNoRuns), 1u);
  EXPECT_EQ(runs(RunOutcome::kBadSignature), 1u);
}

TEST_F(RecordsHubTest, ASignatureOverAnotherRacersRunIsRefusedAlone) {
  open();
  const replay::Replay race = race2();
  net::Submission s = submission_of(race, {0, 1});
  // Ada's own key, but over Bo's run: claimed as Ada's.
  s.runs[0].signature = net::sign_run(sr::test::test_key("ada"), net::run_digest(race, 1));
  const SubmitAnswer a = submit(sign(s));
  ASSERT_EQ(a.status, 200) << a.body;
  EXPECT_NE(a.body.find(R"("runs":[{"racer":1,)"), std::string::npos) << a.body;
  EXPECT_NE(a.body.find(R"("refused":[{"racer":0,"code":"bad_signature",)"), std::string::npos) << a.body;
  EXPECT_EQ(runs(RunOutcome::kAccepted), 1u);
  EXPECT_EQ(runs(RunOutcome::kBadSignature), 1u);
  auto ada = hub_->with_book([&](RecordBook& b) { return b.run(game_of(race) + "-0"); });
  ASSERT_TRUE(ada);
  EXPECT_FALSE(ada.value()) << "the refused run is not stored";
}

TEST_F(RecordsHubTest, ARacerWithoutAKeyOrOutOfRangeIsRefused) {
  open();
  const replay::Replay race = with_players(base_race(2), {"", "bo"});
  ASSERT_FALSE(race.racers[0].key);
  net::Submission s = submission_of(race, {1});
  s.runs.insert(s.runs.begin(), net::RunClaim{0, run_signature(race, 0, "p0")});
  s.runs.push_back(net::RunClaim{5, s.runs[1].signature});
  const SubmitAnswer a = submit(sign(s));
  ASSERT_EQ(a.status, 200) << a.body;
  EXPECT_NE(a.body.find(
                R"("refused":[{"racer":0,"code":"no_key","reason":"racer 0 (\"p0\") has no player key in the replay"},)"
                R"({"racer":5,"code":"no_such_racer","reason":"runs names racer 5; the replay has 2 racers"}])"),
            std::string::npos)
      << a.body;
  EXPECT_EQ(runs(RunOutcome::kNoKey), 1u);
  EXPECT_EQ(runs(RunOutcome::kNoSuchRacer), 1u);
  EXPECT_EQ(runs(RunOutcome::kAccepted), 1u);
}

TEST_F(RecordsHubTest, ARunThatDidNotFinishIsRefusedAlone) {
  open();
  const replay::Replay race = with_players(base_race(2, 1012, 21, {1}), {"ada", "bo"});
  ASSERT_EQ(race.racers[1].result.status, replay::ResultStatus::kToppedOut);
  const SubmitAnswer a = submit(race, {0, 1});
  ASSERT_EQ(a.status, 200) << a.body;
  EXPECT_NE(a.body.find(R"("refused":[{"racer":1,"code":"not_finished","reason":"racer 1 (\"bo\") topped out: )"
                        R"(only finished runs count on sprint-40l"}])"),
            std::string::npos)
      << a.body;
  EXPECT_EQ(runs(RunOutcome::kNotFinished), 1u);
}

TEST_F(RecordsHubTest, TheSameRunInAnotherReplayIsNotCountedTwice) {
  open();
  replay::Replay race = race2();
  ASSERT_EQ(submit(race, {0, 1}).status, 200);
  race.created_unix_ms += 1;  // other replay bytes, the same runs
  const SubmitAnswer a = submit(race, {0, 1});
  EXPECT_EQ(a.status, 422);
  const std::string game = game_of(race2());
  EXPECT_EQ(a.body, R"({"error":"no run was accepted: racer 0's run is on this hub already, as record )" + game +
                        R"(-0","refused":[{"racer":0,"code":"duplicate_run","reason":"racer 0's run is on this hub )"
                        R"(already, as record )" +
                        game +
                        R"(-0"},{"racer":1,"code":"duplicate_run","reason":"racer 1's run is on this hub )"
                        R"(already, as record )" +
                        game + R"(-1"}]})");
  EXPECT_EQ(runs(RunOutcome::kDuplicateRun), 2u);
  EXPECT_FALSE(hub_->replay_bytes(game_of(race))) << "nothing stored for it";
}

TEST_F(RecordsHubTest, AFloodFromOneAddressIsRefusedBeyondItsBucket) {
  RecordsOptions o;
  o.submissions_per_second = 1;
  o.submission_burst = 3;
  open(std::move(o));
  int accepted = 0, flooded = 0;
  for (int i = 0; i < 5; ++i) {
    // Each a new replay (other players), from its own server key: only the address's bucket applies.
    const std::string server = "server " + std::to_string(i);
    const SubmitAnswer a =
        submit(sign(submission_of(race2("a" + std::to_string(i), "b" + std::to_string(i)), {0, 1}, 1, server), server));
    if (a.status == 200) ++accepted;
    if (a.status == 429) {
      ++flooded;
      EXPECT_EQ(a.body, error_json("too many submissions from 127.0.0.1: at most 1 a second after 3 at once"));
      EXPECT_EQ(a.retry_after_s, 1);
    }
  }
  EXPECT_EQ(accepted, 3);
  EXPECT_EQ(flooded, 2);
  now_ms_ += 1000;  // one more token
  const std::string server = "server 9";
  EXPECT_EQ(submit(sign(submission_of(race2("a9", "b9"), {0, 1}, 1, server), server)).status, 200);
  EXPECT_EQ(submit(sign(submission_of(race2("a8", "b8"), {0, 1}, 1, server), server)).status, 429);
  EXPECT_EQ(count(SubmitResult::kAccepted), 4u);
  EXPECT_EQ(count(SubmitResult::kFlood), 3u);
  // Another address has its own bucket (IPv6: its /64).
  EXPECT_EQ(submit(sign(submission_of(race2("a7", "b7"), {0, 1}, 1, "s7"), "s7"), "2001:db8::1").status, 200);
  EXPECT_EQ(submit(sign(submission_of(race2("a6", "b6"), {0, 1}, 1, "s6"), "s6"), "2001:db8::2").status, 200);
}

TEST_F(RecordsHubTest, AFloodFromOneServerKeyIsRefusedFromAnyAddress) {
  RecordsOptions o;
  o.submissions_per_second = 1;
  o.submission_burst = 2;
  open(std::move(o));
  EXPECT_EQ(submit(race2("a1", "b1"), {0, 1}, "10.0.0.1").status, 200);
  EXPECT_EQ(submit(race2("a2", "b2"), {0, 1}, "10.0.0.2").status, 200);
  const SubmitAnswer a = submit(race2("a3", "b3"), {0, 1}, "10.0.0.3");
  EXPECT_EQ(a.status, 429);
  EXPECT_EQ(a.body,
            error_json("too many submissions from server key " + sr::test::test_key("server:Ada's server").short_id() +
                       ": at most 1 a second after 2 at once"));
  EXPECT_EQ(submit(sign(submission_of(race2("a4", "b4"), {0, 1}, 1, "Bo's"), "Bo's"), "10.0.0.3").status, 200);
}

TEST_F(RecordsHubTest, WhenEverySlotIsTakenTheAnswerIs503WithRetryAfter) {
  RecordsOptions o;
  o.verify_slots = 1;
  open(std::move(o));
  ASSERT_TRUE(hub_->verify_gate().try_enter());  // another request re-simulating
  const SubmitAnswer busy = submit(race2(), {0, 1});
  EXPECT_EQ(busy.status, 503);
  EXPECT_EQ(busy.retry_after_s, 1);
  EXPECT_EQ(busy.body, error_json("the hub is re-simulating as many submissions as it may at once; try again in 1 s"));
  EXPECT_EQ(count(SubmitResult::kBusy), 1u);
  hub_->verify_gate().leave();
  EXPECT_EQ(submit(race2(), {0, 1}).status, 200);
  EXPECT_EQ(hub_->verify_gate().in_use(), 0u);
}

TEST_F(RecordsHubTest, RecordsAndReplaysOutliveTheHub) {
  open();
  const replay::Replay race = race2();
  ASSERT_EQ(submit(race, {0, 1}).status, 200);
  open();
  EXPECT_EQ(submit(race, {0, 1}).status, 409);
  auto page = hub_->with_book([](RecordBook& b) { return b.board("sprint-40l", ListKind::kOther, 0, 10); });
  ASSERT_TRUE(page && page.value());
  EXPECT_EQ(page.value()->total, 2);
  auto game = hub_->game(game_of(race));
  ASSERT_TRUE(game && game.value());
  EXPECT_TRUE(game.value()->verified);
  EXPECT_EQ(game.value()->results.size(), 2u);
}

TEST_F(RecordsHubTest, TheMetricsCountEveryResultAndRunOutcome) {
  open();
  ASSERT_EQ(submit(race2(), {0, 1}).status, 200);
  const std::string text = records_metrics_text(hub_->counts(), true, 0, 8);
  EXPECT_NE(text.find("\nstackrace_hub_submissions_total{result=\"accepted\"} 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nstackrace_hub_submissions_total{result=\"flood\"} 0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nstackrace_hub_runs_total{result=\"accepted\"} 2\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nstackrace_hub_runs_total{result=\"refused\",reason=\"bad_signature\"} 0\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("\nstackrace_hub_verify_slots 8\n"), std::string::npos) << text;
}

TEST(VerifyGate, HoldsAtMostItsSlots) {
  VerifyGate gate(2);
  EXPECT_TRUE(gate.try_enter());
  {
    VerifyGate::Pass pass(gate);
    EXPECT_TRUE(pass.held());
    EXPECT_EQ(gate.in_use(), 2u);
    VerifyGate::Pass none(gate);
    EXPECT_FALSE(none.held());
  }
  EXPECT_EQ(gate.in_use(), 1u);
  gate.leave();
  EXPECT_EQ(gate.in_use(), 0u);
}

}  // namespace
}  // namespace sr::hub::records::test
