// Answers players' replay requests from the replay store: recent games, personal bests, downloads.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "common/protocol/messages.h"
#include "common/result.h"
#include "replays/store/replay_store.h"
#include "server/outbox.h"

namespace sr::server {

class ReplayService {
 public:
  // Opens its own connection to the store in `dir`, a directory or a postgresql:// locator (the writer thread has
  // another). Ok, or an error sentence. It answers on the game loop: a database's queries are cut off after 500 ms
  // (StoreWaits), and a failed one is an empty list or ReplayUnavailable, logged.
  [[nodiscard]] sr::Status<std::string> open(const std::filesystem::path& dir);

  // ListGames -> GameList (an empty list if the store cannot be read; the reason is logged).
  void list(PlayerId to, const std::string& asker, const protocol::ListGames& request, Outbox& outbox);
  // DownloadReplay -> ReplayChunks on the bulk channel, or ReplayUnavailable. A replay over `max_bytes` is not sent
  // ("busy": the asker's address has other downloads queued) and nullopt is returned; otherwise the replay bytes
  // sent (0 when there was no such replay).
  std::optional<std::size_t> download(PlayerId to, const protocol::DownloadReplay& request, Outbox& outbox,
                                      std::size_t max_bytes = protocol::kMaxReplayBytes);

 private:
  std::optional<replay::ReplayStore> store_;
};

}  // namespace sr::server
