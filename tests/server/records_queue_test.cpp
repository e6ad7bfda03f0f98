// The records queue (server/records_queue.h): submissions kept in order across a reopen (as after a kill), what a
// crash leaves half-written ignored and cleaned, numbering that goes on, refused and damaged files kept aside with
// their reason, and the bounds: a full queue, a disk that cannot be written and a submission too large for any hub
// drop the new submission and count it.
#include "server/records_queue.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <set>

#include "net/identity/submission.h"
#include "replays/store/file_io.h"
#include "tests/deploy/process.h"
#include "tests/support/status.h"

namespace sr::server {
namespace {

namespace fs = std::filesystem;
using test::read_text_file;
using test::TempDir;

const std::string kSignature(128, 'e');

// A made-up signed submission: the queue never looks inside.
std::function<RecordsQueue::Signed(std::uint64_t)> body(const std::string& text) {
  return [text](std::uint64_t sequence) {
    return RecordsQueue::Signed{kSignature, text + " #" + std::to_string(sequence)};
  };
}

void write_text(const fs::path& file, const std::string& text) { std::ofstream(file, std::ios::binary) << text; }

std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename().string());
  return names;
}

class RecordsQueueTest : public ::testing::Test {
 protected:
  void TearDown() override { replay::set_io_faults({}); }
  TempDir data_{"stackrace-records-queue"};
};

TEST_F(RecordsQueueTest, KeepsItsOrderAcrossAReopenAsAfterAKill) {
  {
    RecordsQueue queue;
    ASSERT_EQ(test::problem_of(queue.open(data_.path())), std::nullopt);
    EXPECT_EQ(queue.next_sequence(), 1u);
    for (const char* text : {"first", "second", "third"}) {
      ASSERT_EQ(test::problem_of(queue.append(body(text))), std::nullopt);
    }
    EXPECT_EQ(queue.stats().queued, 3u);
    EXPECT_EQ(queue.stats().queued_bytes, 3u * (128 + 1 + 8) + 1);  // "second #2" is one byte longer
    // Nothing is closed or flushed at the end: a killed process ends like this.
  }
  EXPECT_EQ(names_in(data_.path() / "records-queue"),
            (std::set<std::string>{"00000000000000000001.submission", "00000000000000000002.submission",
                                   "00000000000000000003.submission"}));
  EXPECT_EQ(read_text_file(data_.path() / "records-queue" / "00000000000000000002.submission"),
            kSignature + "\nsecond #2");

  RecordsQueue queue;
  ASSERT_EQ(test::problem_of(queue.open(data_.path())), std::nullopt);
  EXPECT_EQ(queue.stats().queued, 3u);
  EXPECT_EQ(queue.stats().queued_bytes, 3u * (128 + 1 + 8) + 1);
  EXPECT_EQ(queue.next_sequence(), 4u);
  for (const char* expected : {"first #1", "second #2", "third #3"}) {
    const auto oldest = queue.oldest();
    ASSERT_TRUE(oldest.has_value());
    EXPECT_EQ(oldest->body, expected);
    EXPECT_EQ(oldest->signature, kSignature);
    EXPECT_EQ(queue.oldest()->sequence, oldest->sequence) << "oldest() takes nothing away";
    queue.delivered(oldest->sequence);
  }
  EXPECT_EQ(queue.oldest(), std::nullopt);
  EXPECT_EQ(queue.stats().sent, 3u);
  EXPECT_EQ(queue.stats().queued_bytes, 0u);
}

TEST_F(RecordsQueueTest, AHalfWrittenFileFromACrashIsRemovedAndNeverSent) {
  {
    RecordsQueue queue;
    ASSERT_EQ(test::problem_of(queue.open(data_.path())), std::nullopt);
    ASSERT_EQ(test::problem_of(queue.append(body("kept"))), std::nullopt);
  }
  const fs::path dir = data_.path() / "records-queue";
  // Writes a crash interrupted: this process's id (reused after a crash) and a process that is gone.
  write_text(dir / (".00000000000000000002.submission.tmp-" + std::to_string(::getpid())), kSignature.substr(0, 50));
  write_text(dir / ".00000000000000000003.submission.tmp-999999999", kSignature + "\n{\"vers");
  write_text(dir / "notes.txt", "the operator's");
  write_text(dir / "7.submission", kSignature + "\nnot a queue file's name");

  RecordsQueue queue;
  ASSERT_EQ(test::problem_of(queue.open(data_.path())), std::nullopt);
  EXPECT_EQ(names_in(dir), (std::set<std::string>{"00000000000000000001.submission", "notes.txt", "7.submission"}));
  EXPECT_EQ(queue.stats().queued, 1u);
  EXPECT_EQ(queue.next_sequence(), 2u);
  ASSERT_TRUE(queue.oldest().has_value());
  queue.delivered(1);
  EXPECT_EQ(queue.oldest(), std::nullopt) << "the stray files are never sent";
}

TEST_F(RecordsQueueTest, NumberingGoesOnAfterTheQueueEmptied) {
  {
    RecordsQueue queue;
    ASSERT_EQ(test::problem_of(queue.open(data_.path())), std::nullopt);
    ASSERT_EQ(test::problem_of(queue.append(body("a"))), std::nullopt);
    ASSERT_EQ(test::problem_of(queue.append(body("b"))), std::nullopt);
    queue.delivered(1);
    queue.delivered(2);
  }
  EXPECT_EQ(read_text_file(data_.path() / "records-queue" / "last-sequence"), "2\n");
  RecordsQueue queue;
  ASSERT_EQ(test::problem_of(queue.open(data_.path())), std::nullopt);
  EXPECT_EQ(queue.next_sequence(), 3u);
  ASSERT_EQ(test::problem_of(queue.append(body("c"))), std::nullopt);
  EXPECT_EQ(queue.oldest()->body, "c #3");
}

TEST_F(RecordsQueueTest, ARefusedSubmissionIsKeptAsideWithTheHubsSentence) {
  RecordsQueue queue;
  ASSERT_EQ(test::problem_of(queue.open(data_.path())), std::nullopt);
  ASSERT_EQ(test::problem_of(queue.append(body("bad"))), std::nullopt);
  ASSERT_EQ(test::problem_of(queue.append(body("good"))), std::nullopt);
  queue.refuse(1, "HTTP 422: racer 0's result does not verify");
  const fs::path refused = data_.path() / "records-refused";
  EXPECT_EQ(names_in(refused),
            (std::set<std::string>{"00000000000000000001.submission", "00000000000000000001.submission.reason"}));
  EXPECT_EQ(read_text_file(refused / "00000000000000000001.submission"), kSignature + "\nbad #1");
  EXPECT_EQ(read_text_file(refused / "00000000000000000001.submission.reason"),
            "HTTP 422: racer 0's result does not verify\n");
  EXPECT_EQ(queue.oldest()->body, "good #2");
  EXPECT_EQ(queue.stats().refused, 1u);
  EXPECT_EQ(queue.stats().queued, 1u);
  queue.refuse(2, "HTTP 400: the body is not JSON");
  RecordsQueue reopened;
  ASSERT_EQ(test::problem_of(reopened.open(data_.path())), std::nullopt);
  EXPECT_EQ(reopened.stats().queued, 0u);
  EXPECT_EQ(reopened.next_sequence(), 3u) << "refused numbers are not reused";
}

TEST_F(RecordsQueueTest, TheRefusedFolderIsBounded) {
  RecordsQueue queue;
  RecordsQueue::Limits limits;
  limits.max_refused_files = 1;
  ASSERT_EQ(test::problem_of(queue.open(data_.path(), limits)), std::nullopt);
  ASSERT_EQ(test::problem_of(queue.append(body("a"))), std::nullopt);
  ASSERT_EQ(test::problem_of(queue.append(body("b"))), std::nullopt);
  queue.refuse(1, "HTTP 403: not the key's signature");
  queue.refuse(2, "HTTP 403: not the key's signature");
  EXPECT_EQ(names_in(data_.path() / "records-refused"),
            (std::set<std::string>{"00000000000000000001.submission", "00000000000000000001.submission.reason"}));
  EXPECT_EQ(queue.stats().refused, 2u);
  EXPECT_EQ(queue.stats().queued, 0u);
}

TEST_F(RecordsQueueTest, ADamagedQueueFileIsMovedAsideAndTheNextOneComes) {
  RecordsQueue queue;
  ASSERT_EQ(test::problem_of(queue.open(data_.path())), std::nullopt);
  ASSERT_EQ(test::problem_of(queue.append(body("a"))), std::nullopt);
  ASSERT_EQ(test::problem_of(queue.append(body("b"))), std::nullopt);
  write_text(data_.path() / "records-queue" / "00000000000000000001.submission", "garbage");
  const auto oldest = queue.oldest();
  ASSERT_TRUE(oldest.has_value());
  EXPECT_EQ(oldest->sequence, 2u);
  EXPECT_EQ(read_text_file(data_.path() / "records-refused" / "00000000000000000001.submission.reason"),
            "damaged in the queue, never sent: it does not start with a signature line (128 lower-case hex digits)\n");
  EXPECT_EQ(queue.stats().refused, 1u);
}

TEST_F(RecordsQueueTest, PastItsBoundsNewSubmissionsAreDroppedAndCounted) {
  RecordsQueue queue;
  RecordsQueue::Limits limits;
  limits.max_files = 2;
  ASSERT_EQ(test::problem_of(queue.open(data_.path(), limits)), std::nullopt);
  ASSERT_EQ(test::problem_of(queue.append(body("a"))), std::nullopt);
  ASSERT_EQ(test::problem_of(queue.append(body("b"))), std::nullopt);
  EXPECT_EQ(test::problem_of(queue.append(body("c"))),
            "the records queue is full (2 submissions, 0 MiB waiting; at most 2 and 1024 MiB)");
  EXPECT_EQ(queue.stats().dropped_full, 1u);
  EXPECT_EQ(queue.next_sequence(), 3u) << "a dropped submission uses no number";
  queue.delivered(1);
  ASSERT_EQ(test::problem_of(queue.append(body("d"))), std::nullopt);
  EXPECT_EQ(queue.stats().queued, 2u);

  TempDir other("stackrace-records-bytes");
  RecordsQueue by_bytes;
  RecordsQueue::Limits small;
  small.max_bytes = 2 * (128 + 1 + 4);  // two submissions of a 4-byte body
  ASSERT_EQ(test::problem_of(by_bytes.open(other.path(), small)), std::nullopt);
  ASSERT_EQ(test::problem_of(by_bytes.append(body("x"))), std::nullopt);
  ASSERT_EQ(test::problem_of(by_bytes.append(body("y"))), std::nullopt);
  EXPECT_NE(test::problem_of(by_bytes.append(body("z"))), std::nullopt);
  EXPECT_EQ(by_bytes.stats().dropped_full, 1u);
  EXPECT_EQ(by_bytes.stats().queued_bytes, 266u);
}

TEST_F(RecordsQueueTest, AFullDiskDropsTheSubmissionCountsItAndLeavesNoFile) {
  RecordsQueue queue;
  ASSERT_EQ(test::problem_of(queue.open(data_.path())), std::nullopt);
  int listened = 0;
  queue.set_listener([&] { ++listened; });
  replay::set_io_faults({0, ENOSPC});
  const fs::path dir = data_.path() / "records-queue";
  EXPECT_EQ(test::problem_of(queue.append(body("a"))),
            "cannot write " + (dir / (".00000000000000000001.submission.tmp-" + std::to_string(::getpid()))).string() +
                ": No space left on device");
  EXPECT_EQ(queue.stats().dropped_unwritable, 1u);
  EXPECT_EQ(queue.stats().queued, 0u);
  EXPECT_EQ(names_in(dir), std::set<std::string>{});
  EXPECT_EQ(listened, 0);
  replay::set_io_faults({});
  ASSERT_EQ(test::problem_of(queue.append(body("b"))), std::nullopt);
  EXPECT_EQ(queue.oldest()->body, "b #1");
  EXPECT_EQ(listened, 1);
}

TEST_F(RecordsQueueTest, ASubmissionNoHubWouldTakeIsDropped) {
  RecordsQueue queue;
  ASSERT_EQ(test::problem_of(queue.open(data_.path())), std::nullopt);
  const std::string huge(net::kMaxSubmissionBytes - 2, 'x');  // " #1" makes it one byte too many
  EXPECT_EQ(test::problem_of(queue.append(body(huge))),
            "submission 1 is 1048577 bytes, more than the 1048576 a records hub takes");
  EXPECT_EQ(queue.stats().dropped_too_large, 1u);
  EXPECT_EQ(queue.stats().queued, 0u);
}

TEST_F(RecordsQueueTest, AFolderThatCannotBeWrittenIsRefusedAtOpen) {
  replay::set_io_faults({EROFS, 0});
  RecordsQueue queue;
  const fs::path dir = data_.path() / "records-queue";
  EXPECT_EQ(test::problem_of(queue.open(data_.path())), "cannot write the records queue in " + dir.string() + ": " +
                                                            dir.string() + " is on a read-only file system");
}

}  // namespace
}  // namespace sr::server
