// Writes finished races to the replay store on a worker thread, so neither playing the games out again (for each
// racer's result and checkpoints: milliseconds per race) nor a slow disk (fsync) delays the relay of inputs in other
// rooms. The main loop submits races and collects what was written; a Done means the replay is durable (file,
// directory and index synced) or was not stored at all.
//
// # Start-up
// start() refuses a directory it cannot write (a read-only disk, missing permissions), reconciles the store with its
// files (replay_store.h) and logs what that did in one line. Given a postgresql:// locator instead of a directory
// (stackrace-server --database), it refuses a database it cannot reach or write (opening migrates its schema, which
// writes) and watches no disk. A database that goes away later fails the writes while it is away (each logged, and
// told to the racers as ReplayNotStored "the server's database could not store it"), on this thread only: the game
// loop never waits for it; the store reconnects by itself at the next write.
//
// # The spool (a store in a database)
// With Options::spool_dir set (stackrace-server --database: DATA_DIR/spool), nothing is lost while the database is
// away: a race it does not take (down, refusing writes, or not answering within Options::store_wait_ms) is written to
// the spool instead, as DIR/<sequence>-<id>.srr (its binary encoding, fsynced: durable as a stored replay is), and its
// Done carries the id it will have (content_id) with `spooled` set. The worker stores the spool into the database
// oldest first, once it takes writes again: tried every Options::spool_retry_ms and before each race, and while the
// spool is not empty new races go to its end, so the database receives the races in the order they ended. A replay
// is removed from the spool only after the database has it; storing one twice stores it once (its id is its
// content's hash), so a crash between the two is harmless. A spool left by a stopped server is stored by the next
// one started on the same data directory. A spooled file that does not decode is moved to DIR/unreadable/ (logged).
//
// # Disk space
// After start and after every write the worker reads the free space of the store's file system (statvfs). Below
// Options::low_space_bytes it logs a warning (once, until space is back) and low_space() is true, for the metrics.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/protocol/messages.h"
#include "common/protocol/records.h"
#include "common/replay/replay.h"
#include "common/result.h"
#include "replays/store/replay_store.h"

namespace sr::server {

class ReplayWriter {
 public:
  // How a racer's game ended on the server, for replay::record_racer.
  struct RacerEnd {
    engine::TimeUs end_us = 0;  // the racer's game clock when the race ended for them
    replay::ResultStatus if_unfinished = replay::ResultStatus::kDisconnected;
  };
  struct Job {
    std::uint32_t room_id = 0;
    std::uint32_t race_id = 0;
    // Everything but the racers' results and checkpoints, which the worker fills from `ends` (one per racer).
    replay::Replay replay;
    std::vector<RacerEnd> ends;
    // Each racer's run signature (RunSigned: common/protocol/RECORDS.md), racer for racer, checked against the
    // inputs the server received; none for a racer who sent none. Empty when no racer signed. Passed on with the
    // stored replay to a records hub, when the server submits records.
    std::vector<std::optional<protocol::SignatureBytes>> run_signatures;
  };
  struct Done {
    std::uint32_t room_id = 0;
    std::uint32_t race_id = 0;
    std::optional<std::string> game_id;  // the store's id, when written
    std::string error;                   // why not, otherwise (for the log: may name files)
    std::string reason;                  // why not, for the players: names no file (PROTOCOL.md, ReplayNotStored)
    std::int64_t wait_us = 0;            // from submit() to written (steady clock)
    // The database did not take it: it is durable in the spool, and game_id is the id it will have there.
    bool spooled = false;
  };
  struct Options {
    std::uint64_t low_space_bytes = std::uint64_t{256} << 20;  // warn below this much free space
    // Called on the worker thread after each race it stored (its Done already handed to collect(), so the players'
    // results never wait for it), with the completed job and the store's game id; the next job waits for it. The
    // server's records submitter (records_submitter.h) queues the race for a records hub here. Empty: nothing.
    // (A spooled race counts as stored: its replay is durable and its id known.)
    std::function<void(const Job& job, const std::string& game_id)> on_stored;
    // The spool for a store in a database (see "The spool" above); empty: none (a folder store's spool would be on
    // its own disk, failing as it does).
    std::filesystem::path spool_dir;
    // How often a non-empty spool is offered to the database again, and how long a write to the database may take
    // before the race goes to the spool (within the 5 s a race's results wait for its replay).
    std::int64_t spool_retry_ms = 1000;
    std::int64_t store_wait_ms = 3000;
  };

  ReplayWriter() = default;
  ~ReplayWriter();
  ReplayWriter(const ReplayWriter&) = delete;
  ReplayWriter& operator=(const ReplayWriter&) = delete;

  // Opens (creating if needed) the store in `dir` (a directory, or a postgresql:// locator), checks that it can be
  // written, reconciles it, and starts the worker. Returns ok, or an error sentence naming the problem (never a
  // password).
  [[nodiscard]] sr::Status<std::string> start(const std::filesystem::path& dir, Options options);
  [[nodiscard]] sr::Status<std::string> start(const std::filesystem::path& dir) { return start(dir, Options{}); }
  void submit(Job job);
  // What the worker does with a job before storing it: each racer's game played out to its end. Ok, or the error if
  // the replay is then not storable.
  [[nodiscard]] static sr::Status<std::string> complete(Job& job);
  // Writes finished since the last call.
  [[nodiscard]] std::vector<Done> collect();
  // Writes everything still queued, then stops the worker.
  void stop();

  [[nodiscard]] std::uint64_t written() const;
  [[nodiscard]] std::uint64_t failed() const;
  // Races written to the spool so far, and replays in the spool now (waiting for the database).
  [[nodiscard]] std::uint64_t spooled() const { return spooled_.load(); }
  [[nodiscard]] std::uint64_t spool_pending() const { return spool_pending_.load(); }
  // Free bytes on the store's file system at the last check (0 before start() or if unknown), and whether that was
  // below Options::low_space_bytes.
  [[nodiscard]] std::uint64_t free_bytes() const { return free_bytes_.load(); }
  [[nodiscard]] bool low_space() const { return low_space_.load(); }
  // Done::wait_us of every write so far: the sum and the largest, for the metrics.
  [[nodiscard]] std::int64_t wait_us_total() const;
  [[nodiscard]] std::int64_t wait_us_max() const;

 private:
  using Clock = std::chrono::steady_clock;
  struct Queued {
    Job job;
    Clock::time_point submitted;
  };
  void run(std::filesystem::path dir);
  void check_space(const std::filesystem::path& dir);
  // Stores `job` (completed): in the store, or in the spool when the database does not take it or the spool is not
  // empty. Fills done's game_id, spooled and error.
  void store_job(const std::filesystem::path& dir, Job& job, Done& done);
  // Opens the store if it is not open (with the waits of a store in a database). Ok, or the error.
  [[nodiscard]] sr::Status<std::string> ensure_store(const std::filesystem::path& dir);
  // Writes a replay to the end of the spool. Ok, or the error (the disk refused it).
  [[nodiscard]] sr::Status<std::string> spool(const replay::Replay& replay);
  // Stores the spool into the database, oldest first, until the database refuses one.
  void flush_spool(const std::filesystem::path& dir);
  // The spool's replays, oldest first.
  [[nodiscard]] std::vector<std::filesystem::path> spool_files() const;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Queued> queue_;
  std::vector<Done> done_;
  bool stopping_ = false;
  std::uint64_t written_ = 0;
  std::uint64_t failed_ = 0;
  std::int64_t wait_us_total_ = 0;
  std::int64_t wait_us_max_ = 0;
  Options options_;
  std::atomic<std::uint64_t> free_bytes_{0};
  std::atomic<bool> low_space_{false};
  std::thread worker_;
  bool in_database_ = false;                  // the store is a database: no disk space to watch, no files to reconcile
  std::optional<replay::ReplayStore> store_;  // the worker's, once it opened
  std::atomic<std::uint64_t> spooled_{0};
  std::atomic<std::uint64_t> spool_pending_{0};
  std::uint64_t next_spool_sequence_ = 1;
  bool spool_refused_ = false;  // the database refused the spool's oldest replay last time (logged once)
};

// What the racers of a race whose replay went to the spool are told (a Notice, after its ReplayStored).
inline constexpr std::string_view kSpooledNotice =
    "the server's database is away: this race's replay is kept on the server and stored there when it is back";
static_assert(kSpooledNotice.size() <= protocol::kMaxReasonBytes);

// What the players are told of a write that failed with `error`: the disk is full, or it could not be written.
[[nodiscard]] std::string player_reason(const std::string& error);

// The store's 16-hex-digit id as the number the protocol carries (0 if it is not one).
[[nodiscard]] std::uint64_t game_id_number(const std::string& store_id);
[[nodiscard]] std::string game_id_text(std::uint64_t game_id);

}  // namespace sr::server
