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

ReplayService::~ReplayService() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (worker_.joinable()) worker_.join();
}

sr::Status<std::string> ReplayService::open(const std::filesystem::path& dir) {
  // A database's queries are cut off after half a second (and, while it is unreachable, a reconnection is tried at
  // most every 5 s), on the worker: the game loop never waits for them.
  replay::StoreWaits waits;
  waits.max_wait_ms = 500;
  auto store = replay::ReplayStore::open(dir, true, waits);
  if (!store.ok()) return store.error().describe();
  store_.emplace(std::move(store).value());
  if (store_->in_database()) worker_ = std::thread([this] { run(); });
  return {};
}

protocol::GameList ReplayService::answer(const std::string& asker, const protocol::ListGames& request) {
  protocol::GameList answer;
  answer.kind = request.kind;
  answer.player = request.player;
  if (!store_) return answer;
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
  return answer;
}

void ReplayService::list(PlayerId to, const std::string& asker, const protocol::ListGames& request, Outbox& outbox) {
  if (asynchronous()) {
    {
      std::lock_guard lock(mutex_);
      if (jobs_.size() < kMaxPending) {
        jobs_.push_back(ListJob{to, asker, request});
        wake_.notify_one();
        return;
      }
    }
    spdlog::warn("replay store: {} requests wait for the database; a games list is answered empty", kMaxPending);
    protocol::GameList empty;
    empty.kind = request.kind;
    empty.player = request.player;
    outbox.send(to, empty, protocol::kChannelControl);
    return;
  }
  outbox.send(to, answer(asker, request), protocol::kChannelControl);
}

void ReplayService::request_download(PlayerId to, const protocol::DownloadReplay& request, Outbox& outbox) {
  {
    std::lock_guard lock(mutex_);
    if (jobs_.size() < kMaxPending) {
      jobs_.push_back(DownloadJob{to, request});
      wake_.notify_one();
      return;
    }
  }
  spdlog::warn("replay store: {} requests wait for the database; a download is refused", kMaxPending);
  outbox.send(to,
              protocol::ReplayUnavailable{request.game_id, protocol::NoticeCode::kRateLimited,
                                          "the server is busy: ask again in a moment"},
              protocol::kChannelBulk);
}

std::vector<ReplayService::Finished> ReplayService::collect() {
  std::lock_guard lock(mutex_);
  std::vector<Finished> out;
  out.swap(finished_);
  return out;
}

std::size_t ReplayService::pending() const {
  std::lock_guard lock(mutex_);
  return jobs_.size();
}

void ReplayService::run() {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (stopping_) return;  // the players waiting for answers are going too
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    Finished done;
    if (const auto* l = std::get_if<ListJob>(&job)) {
      done.to = l->to;
      done.list = answer(l->asker, l->request);
    } else {
      const auto& d = std::get<DownloadJob>(job);
      done.to = d.to;
      done.download = d.request;
      auto loaded = store_->load(game_id_text(d.request.game_id));
      if (loaded.ok()) {
        done.bytes = std::move(loaded).value();
      } else {
        spdlog::warn("replay download: {}", loaded.error().message);
      }
    }
    std::lock_guard lock(mutex_);
    finished_.push_back(std::move(done));
  }
}

namespace {

void send_unavailable(Outbox& outbox, PlayerId to, std::uint64_t game_id, const char* why,
                      protocol::NoticeCode code = protocol::NoticeCode::kReplayNotFound) {
  outbox.send(to, protocol::ReplayUnavailable{game_id, code, why}, protocol::kChannelBulk);
}

// Whether a replay of `size` bytes may not go: too large for the protocol (answer 0), or more than the asker's address
// may still queue (answer nullopt: "busy"). Sends the refusal and sets `answer` (download()'s return value).
bool refused_for_size(PlayerId to, std::uint64_t game_id, std::uintmax_t size, std::size_t max_bytes, Outbox& outbox,
                      std::optional<std::size_t>& answer) {
  if (size > protocol::kMaxReplayBytes) {
    send_unavailable(outbox, to, game_id, "replay too large to send");
    answer = 0;
    return true;
  }
  if (size > max_bytes) {
    send_unavailable(outbox, to, game_id,
                     "downloads to your address are still being sent: ask again when they have arrived",
                     protocol::NoticeCode::kRateLimited);
    answer = std::nullopt;
    return true;
  }
  return false;
}

// The answer to a download whose bytes are known: chunks, or why not (download()'s return value).
std::optional<std::size_t> send_bytes(PlayerId to, const protocol::DownloadReplay& request,
                                      const std::vector<std::uint8_t>& bytes, Outbox& outbox, std::size_t max_bytes) {
  if (std::optional<std::size_t> answer; refused_for_size(to, request.game_id, bytes.size(), max_bytes, outbox, answer))
    return answer;
  for (const auto& chunk : protocol::split_replay(request.game_id, bytes))
    outbox.send(to, chunk, protocol::kChannelBulk);
  return bytes.size();
}

}  // namespace

std::optional<std::size_t> ReplayService::send_download(const Finished& done, Outbox& outbox, std::size_t max_bytes) {
  if (!done.download) return 0;
  if (!done.bytes) {
    send_unavailable(outbox, done.to, done.download->game_id, "no replay with that id");
    return 0;
  }
  return send_bytes(done.to, *done.download, *done.bytes, outbox, max_bytes);
}

std::optional<std::size_t> ReplayService::download(PlayerId to, const protocol::DownloadReplay& request, Outbox& outbox,
                                                   std::size_t max_bytes) {
  if (!store_) {
    send_unavailable(outbox, to, request.game_id, "this server keeps no replays");
    return 0;
  }
  // A database's service is asked through request_download(), never on the game loop.
  const auto path = store_->dir() / (game_id_text(request.game_id) + replay::ReplayStore::kExtension);
  std::error_code ec;
  const std::uintmax_t size = asynchronous() ? 0 : std::filesystem::file_size(path, ec);
  std::ifstream in;
  if (!asynchronous() && !ec) in.open(path, std::ios::binary);
  if (asynchronous() || ec || !in) {
    send_unavailable(outbox, to, request.game_id, "no replay with that id");
    return 0;
  }
  // Checked before reading, so that a file too large is never read.
  if (std::optional<std::size_t> answer; refused_for_size(to, request.game_id, size, max_bytes, outbox, answer))
    return answer;
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return send_bytes(to, request, bytes, outbox, max_bytes);
}

}  // namespace sr::server
