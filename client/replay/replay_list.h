// The replay browser's list of local games: the replay store's index (newest first), filtered by mode and player.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/engine/config.h"
#include "replays/store/replay_store.h"

namespace sr::client {

struct ReplayListing {
  std::vector<replay::StoredGame> games;
  std::string error;  // the store could not be read (empty when it simply has no games yet)
};

[[nodiscard]] ReplayListing list_local_replays(const std::filesystem::path& replay_dir,
                                               std::optional<engine::ModeKind> mode, const std::string& player,
                                               std::size_t limit = 200);

}  // namespace sr::client
