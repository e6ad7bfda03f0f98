// The records queue (common/protocol/RECORDS.md, "3. Submitting (server to hub)"): the signed submissions a server
// that submits records (--records URL) has made and not yet delivered, kept on disk so that nothing is lost to a hub
// or network that is away, or to a restart, and sent in the order they were made.
//
// # Layout
// DATA_DIR/records-queue/<sequence, 20 digits>.submission, one file per submission: the signature header's value
// (128 lower-case hex digits) and a newline, then the body's exact bytes. The zero-padded sequence number in the name
// keeps the order across restarts. DATA_DIR/records-queue/last-sequence holds the highest sequence number that left
// the queue, written before the queue empties, so that numbering goes on after a restart with nothing queued.
// Submissions the hub refused for good are moved to DATA_DIR/records-refused/, each beside a `<name>.reason` file
// holding the hub's answer, for the operator to look at.
//
// # Durability
// append() writes a temporary file, syncs it, renames it into place and syncs the directory (replays/store/
// file_io.h, write_file_atomic): a crash leaves the submission queued or not at all. A temporary file a crash left
// behind is removed by open(); no other file is ever taken for a submission.
//
// # Threads
// One thread appends (the replay writer's), one takes from the front (the records agent's), any reads stats(); each
// call holds the queue's mutex only to look at or change its list, never during file I/O.
//
// # Bounds
// At most Limits::max_files submissions and Limits::max_bytes bytes wait; past either, append() drops the new
// submission (logged once until there is room again, and counted). A submission over net::kMaxSubmissionBytes, which
// no hub would take, is dropped and counted too. Neither ever blocks the caller beyond its own write.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "common/result.h"

namespace sr::server {

// The queue's counters, for the metrics (deploy/README.md, "Records").
struct RecordsStats {
  std::size_t queued = 0;                // submissions waiting now
  std::uint64_t queued_bytes = 0;        // their files' bytes
  std::uint64_t sent = 0;                // delivered: the hub answered 200, or 409 (it holds the replay already)
  std::uint64_t refused = 0;             // refused for good (400, 403, 413, 422) and moved to records-refused/
  std::uint64_t send_failures = 0;       // attempts that will be retried (429, 5xx, timeouts, no connection, ...)
  std::uint64_t dropped_full = 0;        // not queued: the queue was at its bound
  std::uint64_t dropped_unwritable = 0;  // not queued: its file could not be written (a full disk, ...)
  std::uint64_t dropped_too_large = 0;   // not queued: over net::kMaxSubmissionBytes
};

// A submission as the queue keeps it.
struct QueuedSubmission {
  std::uint64_t sequence = 0;  // >= 1
  std::string signature;       // the X-Stackrace-Signature header's value (128 lower-case hex digits)
  std::string body;            // the exact body bytes
};

class RecordsQueue {
 public:
  static constexpr const char* kQueueDir = "records-queue";
  static constexpr const char* kRefusedDir = "records-refused";
  static constexpr const char* kExtension = ".submission";
  static constexpr const char* kLastSequenceFile = "last-sequence";

  struct Limits {
    std::size_t max_files = 100'000;                   // submissions waiting at once
    std::uint64_t max_bytes = std::uint64_t{1} << 30;  // their bytes in all (1 GiB)
    std::size_t max_refused_files = 1'000;             // kept in records-refused/; beyond it refused ones are deleted
  };

  RecordsQueue() = default;
  RecordsQueue(const RecordsQueue&) = delete;
  RecordsQueue& operator=(const RecordsQueue&) = delete;

  // Opens (making them if missing) DATA_DIR/records-queue and DATA_DIR/records-refused, removes temporary files left
  // by a crash, and lists the submissions waiting there. Ok, or an error sentence naming the folder.
  [[nodiscard]] sr::Status<std::string> open(const std::filesystem::path& data_dir, Limits limits);
  [[nodiscard]] sr::Status<std::string> open(const std::filesystem::path& data_dir) { return open(data_dir, {}); }

  // The submission the next append() numbers: one more than any queued, refused or delivered before (1 at first).
  [[nodiscard]] std::uint64_t next_sequence() const;

  // What append() asks of its caller: the signature and body of the submission numbered `sequence`.
  struct Signed {
    std::string signature;
    std::string body;
  };
  // Numbers the next submission, has `make` build and sign it with that number, and writes it durably. Ok, or why it
  // was dropped (logged and counted; the number is then used by the next one). Appends are serialised.
  [[nodiscard]] sr::Status<std::string> append(const std::function<Signed(std::uint64_t sequence)>& make);

  // The oldest submission waiting, read from its file, or none when nothing waits. A file that cannot be read or is
  // not a submission is moved to records-refused/ (with why) and the next one is tried.
  [[nodiscard]] std::optional<QueuedSubmission> oldest();
  // The hub holds submission `sequence` (200, 409): its file goes. Counted as sent.
  void delivered(std::uint64_t sequence);
  // The hub refused submission `sequence` for good: its file moves to records-refused/ beside `reason` (one line, the
  // hub's status and sentence). Counted as refused.
  void refuse(std::uint64_t sequence, const std::string& reason);
  // An attempt to send the oldest failed and will be retried.
  void count_send_failure();

  // Called (on the appending thread) after each append that queued a submission; for the agent that sends them.
  void set_listener(std::function<void()> listener);

  [[nodiscard]] RecordsStats stats() const;
  [[nodiscard]] const std::filesystem::path& dir() const { return dir_; }
  [[nodiscard]] const std::filesystem::path& refused_dir() const { return refused_dir_; }
  // The file name of submission `sequence`: "00000000000000000017.submission".
  [[nodiscard]] static std::string file_name(std::uint64_t sequence);

 private:
  // Removes `sequence` from the list (and its file from the folder, unless it was moved): the shared end of
  // delivered() and refuse(). Before the queue empties, records the sequence in last-sequence.
  void forget(std::uint64_t sequence, bool remove_file);
  // Moves `sequence`'s file to records-refused/ with `reason`, or deletes it when that folder is at its bound.
  void move_aside(std::uint64_t sequence, const std::string& reason);

  std::filesystem::path dir_;
  std::filesystem::path refused_dir_;
  Limits limits_;
  std::mutex append_mutex_;  // one append at a time (held across its write)
  mutable std::mutex mutex_;
  std::map<std::uint64_t, std::uint64_t> files_;  // sequence -> file bytes, of the submissions waiting
  std::uint64_t next_sequence_ = 1;
  std::size_t refused_files_ = 0;
  RecordsStats stats_;  // queued is files_.size(), filled in by stats()
  bool full_ = false;   // the last append found the queue at its bound (logged once until there is room again)
  std::mutex listener_mutex_;
  std::function<void()> listener_;
};

}  // namespace sr::server
