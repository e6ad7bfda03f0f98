#include "client/game/replay_link.h"

namespace sr::client {

SoloRecord record_of(const SoloSession& session, const std::string& player_name, std::int64_t started_unix_ms) {
  const auto& game = session.game();
  SoloRecord r;
  r.config = game.config();
  r.seed = game.seed();
  r.inputs = session.inputs();
  r.stats = game.stats();
  r.finished = game.state().finished;
  r.abandoned = session.abandoned();
  r.top_out = game.state().top_out;
  r.final_state_hash = game.state_hash();
  r.player_name = player_name;
  r.started_unix_ms = started_unix_ms;
  return r;
}

// Until the replay store (replays/: sr_replay + sr_replay_store) is in the tree, nothing is saved.
struct ReplayLink::Store {};

ReplayLink::ReplayLink(std::filesystem::path replay_dir) : dir_(std::move(replay_dir)) {}
ReplayLink::~ReplayLink() = default;

bool ReplayLink::available() { return false; }

SaveOutcome ReplayLink::save(const SoloRecord&) {
  return {{}, "this build has no replay store (replays/ is not built yet); the game was not saved"};
}

std::optional<RunResult> ReplayLink::personal_best(const engine::GameConfig&) { return std::nullopt; }

}  // namespace sr::client
