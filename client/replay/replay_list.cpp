#include "client/replay/replay_list.h"

namespace sr::client {

ReplayListing list_local_replays(const std::filesystem::path& replay_dir, std::optional<engine::ModeKind> mode,
                                 const std::string& player, std::size_t limit) {
  ReplayListing out;
  std::error_code ec;
  if (!std::filesystem::exists(replay_dir, ec)) return out;
  auto store = replay::ReplayStore::open(replay_dir, false);
  if (!store) {
    out.error = store.error().describe();
    return out;
  }
  replay::StoreQuery q;
  q.mode = mode;
  if (!player.empty()) q.player = player;
  q.limit = limit;
  auto games = store.value().recent(q);
  if (!games) {
    out.error = games.error().describe();
    return out;
  }
  out.games = std::move(games.value());
  return out;
}

}  // namespace sr::client
