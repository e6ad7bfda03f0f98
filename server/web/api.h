// The JSON API (web/API.md): version 1 under /api/v1. Built from the lobby snapshot the game loop publishes (server,
// rooms, ladder: answered on the web thread, no lock) and from the replay store (games, records, exports: answered
// by the worker threads, each with its own read-only connection to the index). Only GET; nothing here changes any
// state of the server.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "replays/store/replay_store.h"
#include "server/live_tap.h"
#include "server/web/http_response.h"
#include "server/web/routes.h"

namespace sr::server::web {

inline constexpr int kApiVersion = 1;
inline constexpr std::size_t kMaxGamesPerPage = 100;
inline constexpr std::size_t kDefaultGamesPerPage = 20;
// A replay larger than this is offered as .srr only (its JSON form would be several times its size).
inline constexpr std::uint64_t kMaxJsonExportSourceBytes = 4u << 20;

using QueryParams = std::vector<std::pair<std::string, std::string>>;

// /api/v1: what there is, with links.
[[nodiscard]] std::string api_index_json();
// /api/v1/server: name, message of the day, game port, versions, players, rooms, races running, contest ladder.
// `snapshot` may be null (the loop has not published one yet).
[[nodiscard]] std::string server_json(const LobbySnapshot* snapshot, bool has_engine);
// /api/v1/rooms
[[nodiscard]] std::string rooms_json(const LobbySnapshot* snapshot);
// /api/v1/rooms/<id>, or nullopt when there is no such public room.
[[nodiscard]] std::optional<std::string> room_json(const LobbySnapshot* snapshot, std::uint32_t room);
// /api/v1/ladder, or nullopt when the server runs no contest ladder.
[[nodiscard]] std::optional<std::string> ladder_json(const LobbySnapshot* snapshot);

// The filters of /api/v1/games and /api/v1/records (web/API.md): mode, player, since, until (YYYY-MM-DD, UTC, or
// unix milliseconds), result (a status name, "verified" or "unverified"), after (a game id: the next page), limit
// (1..kMaxGamesPerPage). # Errors: a sentence naming the bad parameter.
[[nodiscard]] sr::Result<replay::StoreQuery, std::string> games_query(const QueryParams& params);

// "YYYY-MM-DD" (UTC midnight) or decimal unix milliseconds -> unix milliseconds.
[[nodiscard]] std::optional<std::int64_t> parse_day_or_ms(std::string_view text);

// /api/v1/games: {"games": [...], "next_after": id or null}; `limit` the page size asked (a full page has a next).
[[nodiscard]] std::string games_json(const std::vector<replay::StoredGame>& games, std::size_t limit);
// /api/v1/records: {"records": [...]}
[[nodiscard]] std::string records_json(const std::vector<replay::BestResult>& records);

// The store side, for a worker thread: its own connection to the index, opened on first use.
class StoreReader {
 public:
  explicit StoreReader(std::filesystem::path data_dir) : dir_(std::move(data_dir)) {}
  // Answers kApiGames, kApiGame, kApiRecords and kReplayJson; and kReplayFile when the store is in a database
  // (a postgresql:// locator in place of the directory).
  [[nodiscard]] HttpResponse answer(const Route& route, const QueryParams& params);

 private:
  [[nodiscard]] replay::ReplayStore* store();
  std::filesystem::path dir_;
  std::optional<replay::ReplayStore> store_;
};

}  // namespace sr::server::web
