#include "client/replay/replay_link.h"

#include "common/replay/replay.h"
#include "common/replay/simulate.h"
#include "replays/store/replay_store.h"

namespace sr::client {

SoloRecord record_of(const SoloSession& session, const std::string& player_name, std::int64_t started_unix_ms) {
  return SoloRecord{session.run(), player_name, started_unix_ms, "local", false, std::nullopt};
}

bool worth_storing(const SoloRecord& record, std::int32_t keep_given_up_after_s) {
  if (record.run.log().empty()) return false;
  if (!record.abandoned() || record.connection_lost) return true;
  return record.run.game().now() >= static_cast<engine::TimeUs>(keep_given_up_after_s) * 1'000'000;
}

namespace {

// The recorder's own re-run fills each racer's result and checkpoints, so the file verifies by construction; a game
// that had not ended by itself is a forfeit at the time the player left (or a disconnection, when the server went).
replay::Replay to_replay(const SoloRecord& r) {
  const engine::Game& game = r.run.game();
  replay::Replay out = replay::replay_of(game.config(), game.seed(), r.place, r.started_unix_ms);
  replay::add_racer(out, r.run, r.player_name,
                    r.connection_lost ? replay::ResultStatus::kDisconnected : replay::ResultStatus::kForfeited);
  if (r.bot) replay::add_racer(out, r.bot->run, r.bot->name, replay::ResultStatus::kForfeited);
  return out;
}

}  // namespace

// The store (files + SQLite index), opened on first use and kept open.
struct ReplayLink::Store {
  std::optional<replay::ReplayStore> store;
  std::string error;
};

ReplayLink::ReplayLink(std::filesystem::path replay_dir) : dir_(std::move(replay_dir)), store_(new Store) {}
ReplayLink::~ReplayLink() = default;

namespace {

replay::ReplayStore* open_store(std::optional<replay::ReplayStore>& store, std::string& error,
                                const std::filesystem::path& dir) {
  if (store) return &*store;
  auto opened = replay::ReplayStore::open(dir, /*create=*/true);
  if (!opened) {
    error = "cannot open the replay store in " + dir.string() + ": " + opened.error().describe();
    return nullptr;
  }
  store.emplace(std::move(opened).value());
  return &*store;
}

}  // namespace

SaveOutcome ReplayLink::save(const SoloRecord& record) {
  const replay::Replay r = to_replay(record);
  if (auto checked = replay::check_replay(r); !checked) return {{}, "the replay is not storable: " + checked.error()};
  replay::ReplayStore* store = open_store(store_->store, store_->error, dir_);
  if (store == nullptr) return {{}, store_->error};
  auto id = store->add(r);
  if (!id) return {{}, "the replay store refused the game: " + id.error().describe()};
  return {dir_ / (id.value() + replay::ReplayStore::kExtension), {}};
}

std::optional<RunResult> ReplayLink::personal_best(const engine::GameConfig& config, const std::string& player) {
  replay::ReplayStore* store = open_store(store_->store, store_->error, dir_);
  if (store == nullptr) return std::nullopt;
  replay::StoreQuery query;
  query.mode = config.mode;
  query.player = player;
  auto bests = store->best(query);
  if (!bests) return std::nullopt;
  for (const auto& b : bests.value()) {
    if (b.limit != config.limit || b.limit_value != config.limit_value || b.goal != config.goal) continue;
    RunResult r;
    r.goal = b.goal;
    r.limit = b.limit;
    r.completed = true;  // the store's best() lists only results that count (results.h, counts_for_best)
    r.time_us = b.time_us;
    r.score = b.score;
    r.lines = b.lines;
    return r;
  }
  return std::nullopt;
}

}  // namespace sr::client
