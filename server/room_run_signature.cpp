// A room's run signatures (PROTOCOL.md "Run signatures"; common/protocol/RECORDS.md, section 2): each racer's
// RunSigned is checked when it arrives, on the game loop (one Ed25519 verification, tens of microseconds, once per
// racer and race), against the key the racer proved at Hello and the digest of the inputs the referee logged, which
// are the inputs the replay keeps. A good one is kept on the racer's Race::Entry and goes with the race's replay job
// (Room::replay_job); any other is ignored: logged and counted, never a protocol error or a removal.
#include "server/room.h"

#include <spdlog/spdlog.h>

#include "net/identity/run_signature.h"

namespace sr::server {

void Room::on_run_signed(const Player& player, const protocol::RunSigned& m) {
  // `first`: the racer's first RunSigned of the running race, logged at info (a client that sends a bad one has a bug
  // worth seeing); anything else at debug, so that a flood of them costs no log.
  const auto ignore = [&](const char* why, bool first) {
    ++counters_.run_signatures_refused;
    spdlog::log(first ? spdlog::level::info : spdlog::level::debug, "room {} race {}: run signature of {} ignored: {}",
                id_, m.race_id, player.name, why);
  };
  if (!race_ || m.race_id != race_->race_id) {
    // A race of this room that has ended was handed to the replay writer already: its signatures are too late.
    return ignore(m.race_id <= race_counter_ ? "the race is over" : "no such race", false);
  }
  const auto session = race_->sessions.find(player.id);
  const Race::Entry* entry = race_->race->find(player.id);
  if (session == race_->sessions.end() || entry == nullptr) return ignore("not a racer in this race", false);
  // Only the first is checked, so that each racer costs at most one verification a race.
  if (session->second.run_signed) return ignore("a second signature", false);
  session->second.run_signed = true;
  if (!entry->key) return ignore("the racer has no key", true);
  // Signed when the game ended by the engine: then the referee logs no more (RacerRun logs nothing after the end), so
  // the inputs checked here are the replay's.
  const protocol::RacerStatus status = entry->referee.status();
  if (status != protocol::RacerStatus::kFinished && status != protocol::RacerStatus::kToppedOut) {
    return ignore("the racer's game has not ended (finished or topped out) on the server", true);
  }
  const net::RunDigest digest =
      net::run_digest(engine::kRulesVersion, entry->referee.game().config(), race_->race->seed(), entry->referee.log());
  if (!net::verify_run(*entry->key, digest, m.signature)) {
    return ignore("it does not verify against the racer's key and the inputs received", true);
  }
  race_->race->keep_run_signature(player.id, m.signature);
  ++counters_.run_signatures;
  spdlog::debug("room {} race {}: run signature of {} kept ({} inputs)", id_, m.race_id, player.name,
                entry->referee.log().size());
}

}  // namespace sr::server
