// The replay writer's records hook (server/records_submitter.h, ReplayWriter::Options::on_stored): a stored race that
// a racer signed is queued as a submission that verifies (net::parse_submission), carries exactly the bytes the
// store holds under the game id, and the racers' run signatures; a race nobody signed, or that was not stored,
// queues nothing.
#include "server/records_submitter.h"

#include <gtest/gtest.h>

#include <cerrno>

#include "replays/store/file_io.h"
#include "replays/store/replay_store.h"
#include "tests/deploy/process.h"
#include "tests/server/records_support.h"
#include "tests/support/status.h"

namespace sr::server {
namespace {

using test::TempDir;

// A writer on the folder store in `data`, queueing for records in `queue`, as Server::start() sets them up.
struct Writer {
  Writer(const std::filesystem::path& data, RecordsQueue& queue) : submitter(test::records_identity(), queue) {
    ReplayWriter::Options options;
    options.on_stored = [this](const ReplayWriter::Job& job, const std::string& game_id) {
      submitter.on_stored(job, game_id);
    };
    EXPECT_EQ(test::problem_of(writer.start(data, options)), std::nullopt);
  }
  // Writes `job`, then stops the writer (stop() writes everything queued): its Done.
  ReplayWriter::Done write(ReplayWriter::Job job) {
    writer.submit(std::move(job));
    writer.stop();
    std::vector<ReplayWriter::Done> done = writer.collect();
    EXPECT_EQ(done.size(), 1u);
    return done.empty() ? ReplayWriter::Done{} : done[0];
  }
  RecordsSubmitter submitter;
  ReplayWriter writer;
};

class RecordsSubmitterTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(test::problem_of(queue_.open(data_.path())), std::nullopt); }
  void TearDown() override { replay::set_io_faults({}); }
  TempDir data_{"stackrace-records-submitter"};
  RecordsQueue queue_;
};

TEST_F(RecordsSubmitterTest, AStoredRaceIsQueuedWithTheStoredBytesAndTheRacersSignatures) {
  ReplayWriter::Job job = test::race_job();
  // Ada and Cy signed their runs; Bo did not.
  const net::Signature ada = test::run_signature_of(job, 0);
  const net::Signature cy = test::run_signature_of(job, 2);
  job.run_signatures = {ada, std::nullopt, cy};
  const ReplayWriter::Done done = Writer(data_.path(), queue_).write(job);
  ASSERT_TRUE(done.game_id.has_value()) << done.error;

  ASSERT_EQ(queue_.stats().queued, 1u);
  const std::optional<QueuedSubmission> queued = queue_.oldest();
  ASSERT_TRUE(queued.has_value());
  EXPECT_EQ(queued->sequence, 1u);
  auto parsed = net::parse_submission(queued->body, queued->signature);
  ASSERT_TRUE(parsed.ok()) << parsed.error().reason;
  const net::Submission& s = parsed.value();
  EXPECT_EQ(s.server_key, test::test_key("the server").public_key());
  EXPECT_EQ(s.server_name, "Ada's server");
  EXPECT_EQ(s.web_url, "http://races.example.org/");
  EXPECT_EQ(s.game_id, *done.game_id);
  EXPECT_EQ(s.sequence, 1u);
  EXPECT_EQ(s.runs, (std::vector<net::RunClaim>{{0, ada}, {2, cy}}));

  // Exactly the bytes the store holds under that id.
  auto store = replay::ReplayStore::open(data_.path());
  ASSERT_TRUE(store.ok());
  auto stored = store.value().load(*done.game_id);
  ASSERT_TRUE(stored.ok()) << stored.error().message;
  EXPECT_EQ(s.replay, stored.value());
  EXPECT_EQ(replay::content_id(s.replay), *done.game_id);

  // What a hub checks next: each run's signature against the racer's key and the digest of the replay it got.
  auto decoded = replay::decode_binary(s.replay);
  ASSERT_TRUE(decoded.ok());
  EXPECT_TRUE(net::verify_run(*decoded.value().racers[0].key, net::run_digest(decoded.value(), 0), ada));
  EXPECT_TRUE(net::verify_run(*decoded.value().racers[2].key, net::run_digest(decoded.value(), 2), cy));
  EXPECT_FALSE(net::verify_run(*decoded.value().racers[1].key, net::run_digest(decoded.value(), 1), ada));
  EXPECT_EQ(decoded.value().racers[0].result.stats.pieces, 3) << "the completed replay, results recorded";
}

TEST_F(RecordsSubmitterTest, ARaceNobodySignedQueuesNothing) {
  ReplayWriter::Job unsigned_race = test::race_job(1);
  ReplayWriter::Job no_signature = test::race_job(2);
  no_signature.run_signatures = {std::nullopt, std::nullopt, std::nullopt};
  for (ReplayWriter::Job& job : {std::ref(unsigned_race), std::ref(no_signature)}) {
    RecordsQueue queue;
    TempDir data("stackrace-records-unsigned");
    ASSERT_EQ(test::problem_of(queue.open(data.path())), std::nullopt);
    const ReplayWriter::Done done = Writer(data.path(), queue).write(job);
    EXPECT_TRUE(done.game_id.has_value()) << done.error;
    EXPECT_EQ(queue.stats().queued, 0u);
    EXPECT_EQ(queue.next_sequence(), 1u);
  }
}

TEST_F(RecordsSubmitterTest, ARaceThatWasNotStoredIsNotSubmitted) {
  ReplayWriter::Job job = test::race_job();
  job.run_signatures = {test::run_signature_of(job, 0)};
  Writer writer(data_.path(), queue_);
  replay::set_io_faults({0, ENOSPC});
  const ReplayWriter::Done done = writer.write(job);
  replay::set_io_faults({});
  EXPECT_FALSE(done.game_id.has_value());
  EXPECT_EQ(done.reason, "the server's disk is full");
  const RecordsStats stats = queue_.stats();
  EXPECT_EQ(stats.queued, 0u);
  EXPECT_EQ(stats.dropped_unwritable, 0u) << "nothing was tried";
}

TEST_F(RecordsSubmitterTest, SubmissionsAreNumberedInTheOrderTheirRacesAreStored) {
  ReplayWriter::Job first = test::race_job(11);
  ReplayWriter::Job second = test::race_job(12);
  first.run_signatures = {std::nullopt, test::run_signature_of(first, 1)};
  second.run_signatures = {test::run_signature_of(second, 0)};
  Writer writer(data_.path(), queue_);
  writer.writer.submit(first);
  writer.writer.submit(second);
  writer.writer.stop();
  ASSERT_EQ(queue_.stats().queued, 2u);
  auto one = net::parse_submission(queue_.oldest()->body, queue_.oldest()->signature);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one.value().sequence, 1u);
  EXPECT_EQ(one.value().runs, (std::vector<net::RunClaim>{{1, *first.run_signatures[1]}}));
  queue_.delivered(1);
  auto two = net::parse_submission(queue_.oldest()->body, queue_.oldest()->signature);
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(two.value().sequence, 2u);
  EXPECT_EQ(two.value().runs, (std::vector<net::RunClaim>{{0, *second.run_signatures[0]}}));
}

TEST(RecordsSubmission, NamesOnlyTheSignedRacersOfTheReplay) {
  ReplayWriter::Job job = test::race_job();
  const net::Signature sig = test::run_signature_of(job, 1);
  // Entries beyond the replay's racers (there are three) are not racers of it.
  job.run_signatures = {std::nullopt, sig, std::nullopt, sig};
  EXPECT_EQ(signed_runs(job.replay, job.run_signatures), (std::vector<net::RunClaim>{{1, sig}}));
  job.run_signatures = {std::nullopt, std::nullopt, std::nullopt, sig};
  EXPECT_EQ(make_submission(job.replay, "00000000000000ab", job.run_signatures, test::records_identity(), 1),
            std::nullopt);
}

}  // namespace
}  // namespace sr::server
