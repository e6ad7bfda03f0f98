#include "client/app/own_race.h"

#include <spdlog/spdlog.h>

namespace sr::client {

void OwnRace::follow(const net::RaceView* race, const std::string& player, const std::string& place,
                     std::int64_t now_unix_ms) {
  const net::RacerBoard* mine = race != nullptr ? race->mine() : nullptr;
  if (mine == nullptr) return;
  if (race->race_id() != race_id_) {
    save(false);  // an earlier race's game not saved yet (normally saved when that race ended)
    race_id_ = race->race_id();
    record_ = SoloRecord{};
    copied_ = 0;
    record_.config = mine->game.config();
    record_.seed = race->seed();
    record_.player_name = player;
    record_.place = place;
    record_.started_unix_ms = now_unix_ms;
    over_ = false;
    saved_ = false;
  }
  if (saved_) return;
  // Our log only grows during a race: copy what is new.
  const auto& log = mine->stream.log();
  for (; copied_ < log.size(); ++copied_) {
    // A replay's log holds changes only (a press that changed nothing would make it unstorable).
    const engine::Buttons before = record_.inputs.empty() ? 0 : record_.inputs.back().buttons;
    if (log[copied_].buttons != before) record_.inputs.push_back({log[copied_].time_us, log[copied_].buttons});
  }
  const engine::Game& game = mine->game;
  record_.stats = game.stats();
  record_.finished = game.state().finished;
  record_.top_out = game.state().top_out;
  record_.final_state_hash = game.state_hash();
  over_ = game.over();
  record_.abandoned = !over_;
}

std::string OwnRace::save(bool connection_lost) {
  if (!unsaved()) return {};
  saved_ = true;
  ++saves_;
  record_.connection_lost = connection_lost && !over_;
  const SaveOutcome outcome = link_.save(record_);
  path_ = outcome.path;
  sentence_ = outcome.error.empty() ? "Your game is saved: " + outcome.path.string()
                                    : "Your game was not saved: " + outcome.error;
  spdlog::info("race {}: {}", race_id_, sentence_);
  return sentence_;
}

}  // namespace sr::client
