// Writes finished races to the replay store on a worker thread, so neither playing the games out again (for each
// racer's result and checkpoints: milliseconds per race) nor a slow disk (fsync) delays the relay of inputs in other
// rooms. The main loop submits races and collects what was written.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

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
  };
  struct Done {
    std::uint32_t room_id = 0;
    std::uint32_t race_id = 0;
    std::optional<std::string> game_id;  // the store's id, when written
    std::string error;                   // why not, otherwise
  };

  ReplayWriter() = default;
  ~ReplayWriter();
  ReplayWriter(const ReplayWriter&) = delete;
  ReplayWriter& operator=(const ReplayWriter&) = delete;

  // Opens (creating if needed) the store in `dir` and starts the worker. Returns ok, or an error sentence on failure.
  [[nodiscard]] sr::Status<std::string> start(const std::filesystem::path& dir);
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

 private:
  void run(std::filesystem::path dir);

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> queue_;
  std::vector<Done> done_;
  bool stopping_ = false;
  std::uint64_t written_ = 0;
  std::uint64_t failed_ = 0;
  std::thread worker_;
};

// The store's 16-hex-digit id as the number the protocol carries (0 if it is not one).
[[nodiscard]] std::uint64_t game_id_number(const std::string& store_id);
[[nodiscard]] std::string game_id_text(std::uint64_t game_id);

}  // namespace sr::server
