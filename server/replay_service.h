// Answers players' replay requests from the replay store: recent games, personal bests, downloads.
//
// A folder store answers on the game loop (its index is a local SQLite file). A store in a database answers on a
// worker thread of its own, so that a slow or unreachable database never holds up the game loop: list() and
// request_download() queue the request, the worker runs it (each query cut off after 500 ms, StoreWaits), and the
// game loop sends what it finished (collect(), then send_list() / send_download()). Requests beyond kMaxPending are
// answered at once as if the store could not be read, so a flood costs no memory.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "common/protocol/messages.h"
#include "common/result.h"
#include "replays/store/replay_store.h"
#include "server/outbox.h"

namespace sr::server {

class ReplayService {
 public:
  static constexpr std::size_t kMaxPending = 1000;

  // What the worker finished: a list to send, or a download's replay (its bytes, or none if there is no such game or
  // the store could not be read).
  struct Finished {
    PlayerId to = 0;
    std::optional<protocol::GameList> list;
    std::optional<protocol::DownloadReplay> download;
    std::optional<std::vector<std::uint8_t>> bytes;
  };

  ReplayService() = default;
  ~ReplayService();
  ReplayService(const ReplayService&) = delete;
  ReplayService& operator=(const ReplayService&) = delete;

  // Opens its own connection to the store in `dir`, a directory or a postgresql:// locator (the writer thread has
  // another), and for a database starts the worker. Ok, or an error sentence.
  [[nodiscard]] sr::Status<std::string> open(const std::filesystem::path& dir);
  // Whether answers come later, through collect() (a store in a database).
  [[nodiscard]] bool asynchronous() const { return worker_.joinable(); }

  // ListGames -> GameList (an empty list if the store cannot be read; the reason is logged): sent now, or queued for
  // the worker (asynchronous()).
  void list(PlayerId to, const std::string& asker, const protocol::ListGames& request, Outbox& outbox);
  // DownloadReplay -> ReplayChunks on the bulk channel, or ReplayUnavailable. A replay over `max_bytes` is not sent
  // ("busy": the asker's address has other downloads queued) and nullopt is returned; otherwise the replay bytes
  // sent (0 when there was no such replay). A folder store only: a database's go through request_download().
  std::optional<std::size_t> download(PlayerId to, const protocol::DownloadReplay& request, Outbox& outbox,
                                      std::size_t max_bytes = protocol::kMaxReplayBytes);
  // Queues a download for the worker (asynchronous()); its Finished comes back from collect().
  void request_download(PlayerId to, const protocol::DownloadReplay& request, Outbox& outbox);
  // What the worker finished since the last call.
  [[nodiscard]] std::vector<Finished> collect();
  // Sends a finished download as download() would (the same answers and return value).
  static std::optional<std::size_t> send_download(const Finished& done, Outbox& outbox, std::size_t max_bytes);
  // The requests the worker has not finished yet.
  [[nodiscard]] std::size_t pending() const;

 private:
  struct ListJob {
    PlayerId to;
    std::string asker;
    protocol::ListGames request;
  };
  struct DownloadJob {
    PlayerId to;
    protocol::DownloadReplay request;
  };
  using Job = std::variant<ListJob, DownloadJob>;
  [[nodiscard]] protocol::GameList answer(const std::string& asker, const protocol::ListGames& request);
  void run();

  std::optional<replay::ReplayStore> store_;  // the worker's alone while it runs
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> jobs_;
  std::vector<Finished> finished_;
  bool stopping_ = false;
  std::thread worker_;
};

}  // namespace sr::server
