// The records agent (server/records_agent.h): with a fake sender and a fake clock, its order (never skipping ahead),
// backoff, Retry-After and the answers that deliver (200, 409), refuse for good (400, 403, 413, 422) or retry; with
// the HTTP sender against a fake records hub on loopback (tests/server/records_support.h), that every submission
// arrives once and in order through a 503 and a connection dropped mid-answer, and that a 422 moves the submission
// aside with the hub's sentence; and its thread: what an earlier run queued is sent, what is queued later follows,
// and stopping is prompt while it waits to retry or has a request in flight.
#include "server/records_agent.h"

#include <gtest/gtest.h>

#include <deque>

#include "tests/deploy/process.h"
#include "tests/server/records_support.h"
#include "tests/support/status.h"

namespace sr::server {
namespace {

using namespace std::chrono_literals;
using Clock = RecordsAgent::Clock;
using test::FakeRecordsHub;
using test::read_text_file;
using test::TempDir;

const Clock::time_point kT0 = Clock::time_point{} + 1000h;

// Answers as scripted (then 200), and keeps the sequence number of every post.
class ScriptedSender final : public RecordsSender {
 public:
  explicit ScriptedSender(std::deque<HubAnswer> script) : script_(std::move(script)) {}
  HubAnswer post(const QueuedSubmission& submission) override {
    posted->push_back(submission.sequence);
    if (script_.empty()) return HubAnswer{200, R"({"status":"accepted","runs":[],"refused":[]})", "", std::nullopt};
    HubAnswer next = script_.front();
    script_.pop_front();
    return next;
  }
  void cancel() override {}
  std::shared_ptr<std::vector<std::uint64_t>> posted = std::make_shared<std::vector<std::uint64_t>>();

 private:
  std::deque<HubAnswer> script_;
};

HubAnswer status(int code, std::string body = "") { return HubAnswer{code, std::move(body), "", std::nullopt}; }
HubAnswer no_answer() { return HubAnswer{0, "", "no answer (Connection)", std::nullopt}; }

RecordsQueue::Signed fake_signed(std::uint64_t sequence) {
  return {std::string(128, 'c'), "{\"sequence\":" + std::to_string(sequence) + "}"};
}

class RecordsAgentTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(test::problem_of(queue_.open(data_.path())), std::nullopt); }
  void queue(int n) {
    for (int i = 0; i < n; ++i) ASSERT_EQ(test::problem_of(queue_.append(fake_signed)), std::nullopt);
  }
  // An agent with a 1 s first delay, doubling up to 4 s, answering as `script` says.
  RecordsAgent agent(std::deque<HubAnswer> script) {
    auto sender = std::make_unique<ScriptedSender>(std::move(script));
    posted_ = sender->posted;
    RecordsAgentOptions options;
    options.url = "http://hub.example.org";
    options.retry_first = 1s;
    options.retry_max = 4s;
    return RecordsAgent(options, queue_, std::move(sender));
  }
  TempDir data_{"stackrace-records-agent"};
  RecordsQueue queue_;
  std::shared_ptr<std::vector<std::uint64_t>> posted_;
};

TEST_F(RecordsAgentTest, RetriesTheOldestWithABackoffThatDoublesUpToItsCapAndNeverSkipsAhead) {
  queue(2);
  RecordsAgent a = agent({status(503), no_answer(), status(500, "oops"), status(429), status(404)});
  using Step = RecordsAgent::Step;
  EXPECT_EQ(a.step(kT0), Step::kRetrying);
  EXPECT_EQ(a.next_attempt(), kT0 + 1s);
  EXPECT_EQ(a.step(kT0 + 999ms), Step::kWaiting);
  EXPECT_EQ(a.step(kT0 + 1s), Step::kRetrying);
  EXPECT_EQ(a.next_attempt(), kT0 + 3s);
  EXPECT_EQ(a.step(kT0 + 3s), Step::kRetrying);
  EXPECT_EQ(a.next_attempt(), kT0 + 7s);
  EXPECT_EQ(a.step(kT0 + 7s), Step::kRetrying);
  EXPECT_EQ(a.next_attempt(), kT0 + 11s) << "capped at 4 s";
  EXPECT_EQ(a.step(kT0 + 11s), Step::kRetrying);
  EXPECT_EQ(a.next_attempt(), kT0 + 15s);
  EXPECT_EQ(a.step(kT0 + 15s), Step::kDelivered);
  EXPECT_EQ(a.next_attempt(), kT0 + 15s) << "the next goes at once";
  EXPECT_EQ(a.step(kT0 + 15s), Step::kDelivered);
  EXPECT_EQ(a.step(kT0 + 15s), Step::kIdle);
  EXPECT_EQ(*posted_, (std::vector<std::uint64_t>{1, 1, 1, 1, 1, 1, 2}));
  const RecordsStats stats = queue_.stats();
  EXPECT_EQ(stats.sent, 2u);
  EXPECT_EQ(stats.send_failures, 5u);
  EXPECT_EQ(stats.refused, 0u);
  EXPECT_EQ(stats.queued, 0u);
}

TEST_F(RecordsAgentTest, ASuccessStartsTheBackoffAgain) {
  queue(2);
  RecordsAgent a = agent({status(503), status(503), status(200), status(503)});
  (void)a.step(kT0);
  (void)a.step(kT0 + 1s);
  EXPECT_EQ(a.next_attempt(), kT0 + 3s);
  EXPECT_EQ(a.step(kT0 + 3s), RecordsAgent::Step::kDelivered);
  EXPECT_EQ(a.step(kT0 + 3s), RecordsAgent::Step::kRetrying);
  EXPECT_EQ(a.next_attempt(), kT0 + 4s);
}

TEST_F(RecordsAgentTest, RetryAfterIsHonouredUpToAnHour) {
  queue(1);
  HubAnswer seven = status(429, R"({"error":"slow down"})");
  seven.retry_after_s = 7;
  HubAnswer forever = status(503);
  forever.retry_after_s = 1'000'000;
  HubAnswer sooner = status(503);
  sooner.retry_after_s = 0;  // never sooner than the backoff
  RecordsAgent a = agent({seven, forever, sooner});
  EXPECT_EQ(a.step(kT0), RecordsAgent::Step::kRetrying);
  EXPECT_EQ(a.next_attempt(), kT0 + 7s);
  EXPECT_EQ(a.step(kT0 + 7s), RecordsAgent::Step::kRetrying);
  EXPECT_EQ(a.next_attempt(), kT0 + 7s + 1h);
  EXPECT_EQ(a.step(kT0 + 7s + 1h), RecordsAgent::Step::kRetrying);
  EXPECT_EQ(a.next_attempt(), kT0 + 7s + 1h + 4s);
}

TEST_F(RecordsAgentTest, AConflictCountsAsDelivered) {
  queue(2);
  RecordsAgent a = agent({status(409, R"({"error":"this replay was submitted already","game":"00000000000000ab"})")});
  EXPECT_EQ(a.step(kT0), RecordsAgent::Step::kDelivered);
  EXPECT_EQ(queue_.stats().sent, 1u);
  EXPECT_EQ(queue_.oldest()->sequence, 2u);
  EXPECT_FALSE(std::filesystem::exists(queue_.refused_dir() / "00000000000000000001.submission"));
}

TEST_F(RecordsAgentTest, RefusalsForGoodMoveTheSubmissionAsideWithTheHubsSentenceAndTheNextGoesAtOnce) {
  queue(5);
  RecordsAgent a = agent({status(400, R"({"error":"runs is missing or not a list"})"),
                          status(403, R"({"error":"the signature is not server_key's signature of this body"})"),
                          status(413, "Payload Too Large"),  // not JSON: the body itself
                          status(422, "{\"error\":\"line one\\nline two\\u0007\"}")});
  for (int i = 0; i < 4; ++i) EXPECT_EQ(a.step(kT0), RecordsAgent::Step::kRefused) << i;
  EXPECT_EQ(a.step(kT0), RecordsAgent::Step::kDelivered);
  const auto reason = [&](int sequence) {
    return read_text_file(queue_.refused_dir() /
                          (RecordsQueue::file_name(static_cast<std::uint64_t>(sequence)) + ".reason"));
  };
  EXPECT_EQ(reason(1), "HTTP 400: runs is missing or not a list\n");
  EXPECT_EQ(reason(2), "HTTP 403: the signature is not server_key's signature of this body\n");
  EXPECT_EQ(reason(3), "HTTP 413: Payload Too Large\n");
  EXPECT_EQ(reason(4), "HTTP 422: line one?line two?\n") << "a hub's text is cleaned up";
  EXPECT_EQ(queue_.stats().refused, 4u);
  EXPECT_EQ(queue_.stats().sent, 1u);
  EXPECT_EQ(queue_.stats().send_failures, 0u);
}

TEST(RecordsUrl, OnlyHttpUrlsAreTaken) {
  EXPECT_EQ(test::problem_of(check_records_url("http://hub.example.org:8470")), std::nullopt);
  EXPECT_EQ(test::problem_of(check_records_url("http://[::1]:8470/records/")), std::nullopt);
  EXPECT_EQ(test::problem_of(check_records_url("https://hub.example.org")),
            "the records hub 'https://hub.example.org' is an https:// URL: the server speaks plain http:// to a "
            "records hub (give the hub's http:// address, or a proxy's on this machine)");
  EXPECT_EQ(test::problem_of(check_records_url("hub.example.org")),
            "the records hub 'hub.example.org' is not an http:// URL: it does not start with http:// or https://");
  EXPECT_NE(test::problem_of(check_records_url("http://hub.example.org/?x=1")), std::nullopt);
}

TEST(RecordsHubText, ControlCharactersAndLengthAreBounded) {
  EXPECT_EQ(hub_text("ok: fine"), "ok: fine");
  EXPECT_EQ(hub_text("a\nb\x1b[31mc\xc3\xa9"), "a?b?[31mc??");
  EXPECT_EQ(hub_text(std::string(400, 'x')), std::string(300, 'x') + "...");
}

// Every submission through the HTTP sender, stepped with a fake clock: `hub` answers, the agent never waits.
void drain(RecordsAgent& agent, int max_steps) {
  Clock::time_point now = kT0;
  for (int i = 0; i < max_steps; ++i) {
    now = std::max(now, agent.next_attempt());
    if (agent.step(now) == RecordsAgent::Step::kIdle) return;
  }
  ADD_FAILURE() << "still sending after " << max_steps << " steps";
}

RecordsAgentOptions http_options(const std::string& url) {
  RecordsAgentOptions options;
  options.url = url;
  options.retry_first = 1s;
  options.timeout = 10s;
  return options;
}

TEST_F(RecordsAgentTest, EverySubmissionReachesAHubOnceAndInOrderThroughA503AndADroppedConnection) {
  const net::PlayerKey key = test::test_key("the server");
  for (std::uint64_t seed : {21, 22, 23}) {
    ASSERT_EQ(test::problem_of(queue_.append(test::signed_race(seed, "", key))), std::nullopt);
  }
  FakeRecordsHub hub({FakeRecordsHub::Behaviour::kUnavailable, FakeRecordsHub::Behaviour::kStoreAndDrop});
  RecordsAgent agent(http_options(hub.url()), queue_);
  drain(agent, 10);
  // 503; stored but the answer lost; sent again: 409 (delivered); then 2 and 3 at once.
  EXPECT_EQ(hub.requests(), (std::vector<std::uint64_t>{1, 1, 1, 2, 3}));
  EXPECT_EQ(hub.stored_sequences(), (std::vector<std::uint64_t>{1, 2, 3}));
  const RecordsStats stats = queue_.stats();
  EXPECT_EQ(stats.sent, 3u);
  EXPECT_EQ(stats.send_failures, 2u);
  EXPECT_EQ(stats.refused, 0u);
  EXPECT_EQ(stats.queued, 0u);
  for (const net::Submission& s : hub.stored()) EXPECT_EQ(s.runs.size(), 3u);
}

TEST_F(RecordsAgentTest, AHubsRefusalMovesTheSubmissionAsideWithItsReason) {
  const net::PlayerKey key = test::test_key("the server");
  ASSERT_EQ(test::problem_of(queue_.append(test::signed_race(31, "", key))), std::nullopt);
  ASSERT_EQ(test::problem_of(queue_.append(test::signed_race(32, "", key))), std::nullopt);
  FakeRecordsHub hub({FakeRecordsHub::Behaviour::kRefuse422});
  RecordsAgent agent(http_options(hub.url()), queue_);
  drain(agent, 10);
  EXPECT_EQ(hub.requests(), (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(hub.stored_sequences(), (std::vector<std::uint64_t>{2}));
  EXPECT_EQ(read_text_file(queue_.refused_dir() / "00000000000000000001.submission.reason"),
            std::string("HTTP 422: ") + FakeRecordsHub::kUnverifiable + "\n");
  EXPECT_TRUE(std::filesystem::exists(queue_.refused_dir() / "00000000000000000001.submission"));
  EXPECT_EQ(queue_.stats().refused, 1u);
  EXPECT_EQ(queue_.stats().sent, 1u);
}

TEST_F(RecordsAgentTest, TooManyRequestsWaitsAsTheHubSays) {
  const net::PlayerKey key = test::test_key("the server");
  ASSERT_EQ(test::problem_of(queue_.append(test::signed_race(41, "", key))), std::nullopt);
  FakeRecordsHub hub({FakeRecordsHub::Behaviour::kTooManyRetry7});
  RecordsAgent agent(http_options(hub.url()), queue_);
  EXPECT_EQ(agent.step(kT0), RecordsAgent::Step::kRetrying);
  EXPECT_EQ(agent.next_attempt(), kT0 + 7s);
  EXPECT_EQ(agent.step(kT0 + 7s), RecordsAgent::Step::kDelivered);
}

TEST_F(RecordsAgentTest, TheThreadSendsWhatAnEarlierRunLeftThenWhatComesLater) {
  const net::PlayerKey key = test::test_key("the server");
  {
    RecordsQueue earlier;
    ASSERT_EQ(test::problem_of(earlier.open(data_.path())), std::nullopt);
    for (std::uint64_t seed : {51, 52}) {
      ASSERT_EQ(test::problem_of(earlier.append(test::signed_race(seed, "", key))), std::nullopt);
    }
  }
  RecordsQueue queue;
  ASSERT_EQ(test::problem_of(queue.open(data_.path())), std::nullopt);
  FakeRecordsHub hub;
  RecordsAgent agent(http_options(hub.url()), queue);
  agent.start();
  // Sent is counted once the hub's answer is in: a stop before that would leave the submission queued.
  EXPECT_TRUE(test::wait_until([&] { return queue.stats().sent == 2; }, 30s));
  ASSERT_EQ(test::problem_of(queue.append(test::signed_race(53, "", key))), std::nullopt);
  EXPECT_TRUE(test::wait_until([&] { return queue.stats().sent == 3; }, 30s));
  agent.stop();
  EXPECT_EQ(hub.stored_sequences(), (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(hub.requests(), (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(queue.stats().queued, 0u);
}

TEST_F(RecordsAgentTest, StoppingIsPromptWhileWaitingToRetry) {
  queue(1);
  // Nothing listens there: no connection, then an hour's wait.
  RecordsAgentOptions options = http_options("http://127.0.0.1:" + std::to_string(test::free_tcp_port()));
  options.retry_first = 1h;
  RecordsAgent agent(options, queue_);
  agent.start();
  ASSERT_TRUE(test::wait_until([&] { return queue_.stats().send_failures == 1; }, 30s));
  const auto before = std::chrono::steady_clock::now();
  agent.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - before, 2s);
  EXPECT_EQ(queue_.stats().queued, 1u) << "kept for the next run";
}

TEST_F(RecordsAgentTest, StoppingIsPromptWithARequestInFlight) {
  const net::PlayerKey key = test::test_key("the server");
  ASSERT_EQ(test::problem_of(queue_.append(test::signed_race(61, "", key))), std::nullopt);
  FakeRecordsHub hub({FakeRecordsHub::Behaviour::kHold});
  RecordsAgentOptions options = http_options(hub.url());
  options.timeout = 60s;
  RecordsAgent agent(options, queue_);
  agent.start();
  ASSERT_TRUE(test::wait_until([&] { return hub.requests().size() == 1; }, 30s));
  const auto before = std::chrono::steady_clock::now();
  agent.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - before, 5s);
  hub.release();
  EXPECT_EQ(queue_.stats().queued, 1u);
  EXPECT_EQ(queue_.stats().sent, 0u);
  EXPECT_EQ(queue_.stats().send_failures, 0u) << "abandoned, not failed";
}

}  // namespace
}  // namespace sr::server
