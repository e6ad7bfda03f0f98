#include "server/replay_service.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "common/protocol/streams.h"
#include "common/protocol/text.h"
#include "server/replay_writer.h"

namespace sr::server {
namespace {

// A race's replay holds all its racers; a game's summary on the wire lists at most a room's worth.
static_assert(protocol::kMaxRacers <= replay::kMaxReplayRacers, "every race must fit in one replay");

protocol::RacerStatus wire_status(replay::ResultStatus s) {
  switch (s) {
    case replay::ResultStatus::kFinished: return protocol::RacerStatus::kFinished;
    case replay::ResultStatus::kToppedOut: return protocol::RacerStatus::kToppedOut;
    case replay::ResultStatus::kDisconnected: return protocol::RacerStatus::kDisconnected;
    case replay::ResultStatus::kForfeited: return protocol::RacerStatus::kRemoved;
    case replay::ResultStatus::kUnfinished: return protocol::RacerStatus::kUnfinished;
  }
  return protocol::RacerStatus::kDisconnected;
}

// Player names in the store come from replays, which allow longer names than the protocol; shorten for the wire.
std::string wire_name(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (out.size() >= protocol::kMaxPlayerNameBytes) break;
    out.push_back(c >= 0x21 && c <= 0x7E ? c : '_');
  }
  return out.empty() ? std::string("?") : out;
}

// A listed racer's name, with "#" and the key's short id where two keys raced under that name in this store
// (replay::shown_name): the name is cut to leave room for the id, which tells the two players apart.
std::string wire_name(const std::string& name, const std::string& key_id, bool name_shared) {
  if (!name_shared || key_id.empty()) return wire_name(name);
  const std::string suffix = "#" + key_id;
  std::string base = wire_name(name);
  if (base.size() + suffix.size() > protocol::kMaxPlayerNameBytes) {
    base.resize(protocol::kMaxPlayerNameBytes > suffix.size() ? protocol::kMaxPlayerNameBytes - suffix.size() : 0);
  }
  return base + suffix;
}

protocol::ModeSummary mode_summary(engine::ModeKind mode, engine::LimitKind limit, std::int64_t value,
                                   engine::GoalKind goal) {
  return {mode, limit, std::clamp<std::int64_t>(value, 0, 1'000'000'000'000), goal};
}

protocol::GameSummary summarize(const replay::StoredGame& g) {
  protocol::GameSummary s;
  s.game_id = game_id_number(g.id);
  s.played_at_unix_s = g.created_unix_ms / 1000;
  s.mode = mode_summary(g.mode, g.limit, g.limit_value, g.goal);
  std::vector<replay::StoredResult> order(g.results.begin(), g.results.end());
  const bool by_time = g.goal == engine::GoalKind::kTime;
  auto key = [by_time](const replay::StoredResult& r) {
    const int group =
        r.status == replay::ResultStatus::kFinished ? 0 : (r.status == replay::ResultStatus::kToppedOut ? 1 : 2);
    const std::int64_t primary = by_time && group == 0 ? r.time_us : -(by_time ? r.lines : r.score);
    return std::make_tuple(group, primary, r.racer);
  };
  std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) { return key(a) < key(b); });
  for (std::size_t i = 0; i < order.size() && i < protocol::kMaxRacers; ++i) {
    const auto& r = order[i];
    s.duration_us = std::max(s.duration_us, std::clamp<engine::TimeUs>(r.time_us, 0, protocol::kMaxTimeUs));
    const bool ranked = r.status == replay::ResultStatus::kFinished || r.status == replay::ResultStatus::kToppedOut;
    s.racers.push_back({wire_name(r.player, r.key_id, r.name_shared), static_cast<std::uint8_t>(ranked ? i + 1 : 0),
                        wire_status(r.status), std::clamp<engine::TimeUs>(r.time_us, 0, protocol::kMaxTimeUs),
                        std::max<std::int64_t>(0, r.lines), std::max<std::int64_t>(0, r.score)});
  }
  return s;
}

std::vector<replay::StoredGame> games_or_empty(replay::Result<std::vector<replay::StoredGame>> games) {
  if (games.ok()) return std::move(games).value();
  spdlog::error("replay store: {}", games.error().describe());
  return {};
}

}  // namespace

sr::Status<std::string> ReplayService::open(const std::filesystem::path& dir) {
  // This store answers on the game loop: a database may hold it up for half a second a query at most (and, while it
  // is unreachable, for a reconnection attempt every 5 s), never for as long as a dead connection would.
  replay::StoreWaits waits;
  waits.max_wait_ms = 500;
  auto store = replay::ReplayStore::open(dir, true, waits);
  if (!store.ok()) return store.error().describe();
  store_.emplace(std::move(store).value());
  return {};
}

void ReplayService::list(PlayerId to, const std::string& asker, const protocol::ListGames& request, Outbox& outbox) {
  protocol::GameList answer;
  answer.kind = request.kind;
  answer.player = request.player;
  if (store_) {
    replay::StoreQuery query;
    query.mode = request.mode;
    query.limit = request.limit;
    if (request.kind == protocol::GameListKind::kPersonalBests) {
      query.player = request.player.empty() ? asker : request.player;
      auto bests = store_->best(query);
      if (!bests.ok()) spdlog::error("replay store: {}", bests.error().describe());
      for (const auto& b : bests.ok() ? bests.value() : std::vector<replay::BestResult>{}) {
        if (answer.games.size() >= protocol::kMaxGamesListed) break;
        protocol::GameSummary s;
        s.game_id = game_id_number(b.game_id);
        s.played_at_unix_s = b.created_unix_ms / 1000;
        s.mode = mode_summary(b.mode, b.limit, b.limit_value, b.goal);
        s.duration_us = std::clamp<engine::TimeUs>(b.time_us, 0, protocol::kMaxTimeUs);
        s.racers.push_back({wire_name(b.player, b.key_id, b.name_shared), 1, protocol::RacerStatus::kFinished,
                            s.duration_us, std::max<std::int64_t>(0, b.lines), std::max<std::int64_t>(0, b.score)});
        if (s.game_id != 0) answer.games.push_back(std::move(s));
      }
    } else {
      if (!request.player.empty()) query.player = request.player;
      // Paging: with before_game_id, the games listed after that one. The store finds the marker's place itself, so
      // a page reads at most `limit` games however deep it is.
      if (request.before_game_id != 0) query.after_id = game_id_text(request.before_game_id);
      for (const auto& g : games_or_empty(store_->recent(query))) {
        if (answer.games.size() >= request.limit) break;
        protocol::GameSummary s = summarize(g);
        if (s.game_id != 0 && !s.racers.empty()) answer.games.push_back(std::move(s));
      }
    }
  }
  outbox.send(to, answer, protocol::kChannelControl);
}

std::optional<std::size_t> ReplayService::download(PlayerId to, const protocol::DownloadReplay& request, Outbox& outbox,
                                                   std::size_t max_bytes) {
  auto unavailable = [&](const std::string& why, protocol::NoticeCode code = protocol::NoticeCode::kReplayNotFound) {
    outbox.send(to, protocol::ReplayUnavailable{request.game_id, code, why}, protocol::kChannelBulk);
  };
  if (!store_) {
    unavailable("this server keeps no replays");
    return 0;
  }
  if (store_->in_database()) {
    auto loaded = store_->load(game_id_text(request.game_id));
    if (!loaded.ok()) {
      spdlog::warn("replay download: {}", loaded.error().message);
      unavailable("no replay with that id");
      return 0;
    }
    const std::vector<std::uint8_t>& bytes = loaded.value();
    if (bytes.size() > protocol::kMaxReplayBytes) {
      unavailable("replay too large to send");
      return 0;
    }
    if (bytes.size() > max_bytes) {
      unavailable("downloads to your address are still being sent: ask again when they have arrived",
                  protocol::NoticeCode::kRateLimited);
      return std::nullopt;
    }
    for (const auto& chunk : protocol::split_replay(request.game_id, bytes))
      outbox.send(to, chunk, protocol::kChannelBulk);
    return bytes.size();
  }
  const auto path = store_->dir() / (game_id_text(request.game_id) + replay::ReplayStore::kExtension);
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) {
    unavailable("no replay with that id");
    return 0;
  }
  if (size > protocol::kMaxReplayBytes) {
    unavailable("replay too large to send");
    return 0;
  }
  if (size > max_bytes) {
    unavailable("downloads to your address are still being sent: ask again when they have arrived",
                protocol::NoticeCode::kRateLimited);
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    unavailable("no replay with that id");
    return 0;
  }
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() > protocol::kMaxReplayBytes) {
    unavailable("replay too large to send");
    return 0;
  }
  for (const auto& chunk : protocol::split_replay(request.game_id, bytes))
    outbox.send(to, chunk, protocol::kChannelBulk);
  return bytes.size();
}

}  // namespace sr::server
