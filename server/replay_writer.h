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
#include <thread>
#include <vector>

#include "common/protocol/records.h"
#include "common/replay/replay.h"
#include "common/result.h"

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
  };
  struct Options {
    std::uint64_t low_space_bytes = std::uint64_t{256} << 20;  // warn below this much free space
    // Called on the worker thread after each race it stored (its Done already handed to collect(), so the players'
    // results never wait for it), with the completed job and the store's game id; the next job waits for it. The
    // server's records submitter (records_submitter.h) queues the race for a records hub here. Empty: nothing.
    std::function<void(const Job& job, const std::string& game_id)> on_stored;
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
  bool in_database_ = false;  // the store is a database: no disk space to watch, no files to reconcile
};

// What the players are told of a write that failed with `error`: the disk is full, or it could not be written.
[[nodiscard]] std::string player_reason(const std::string& error);

// The store's 16-hex-digit id as the number the protocol carries (0 if it is not one).
[[nodiscard]] std::uint64_t game_id_number(const std::string& store_id);
[[nodiscard]] std::string game_id_text(std::uint64_t game_id);

}  // namespace sr::server
