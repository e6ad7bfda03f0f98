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
    record_.emplace(SoloRecord{engine::RacerRun(mine->game().config(), race->seed()), player, now_unix_ms, place, false,
                               std::nullopt});
    copied_ = 0;
    over_ = false;
    saved_ = false;
  }
  if (saved_) return;
  // Our own run, mirrored: its log only grows during a race, so the new changes are pressed on our copy, which is
  // then advanced to where the race's run stands. The game comes out the same however the calls fall.
  engine::RacerRun& copy = record_->run;
  const auto& log = mine->run.log();
  for (; copied_ < log.size(); ++copied_) (void)copy.press(log[copied_].time_us, log[copied_].buttons);
  if (mine->run.now_us() > copy.now_us()) (void)copy.advance(mine->run.now_us());
  over_ = copy.game().over();
}

std::string OwnRace::save(bool connection_lost) {
  if (!unsaved()) return {};
  saved_ = true;
  ++saves_;
  record_->connection_lost = connection_lost && !over_;
  const SaveOutcome outcome = link_.save(*record_);
  path_ = outcome.path;
  sentence_ = outcome.error.empty() ? "Your game is saved: " + outcome.path.string()
                                    : "Your game was not saved: " + outcome.error;
  spdlog::info("race {}: {}", race_id_, sentence_);
  return sentence_;
}

}  // namespace sr::client
