// The record book: what the records hub keeps of every accepted submission (common/protocol/RECORDS.md sections 3-5),
// in DATA_DIR/records.sqlite: the servers seen, the submissions (server key, sequence, when, from where), the accepted
// runs (board, list, player key and name, result, rules version, server, played time, game id, racer) and each
// player's best per board and list. The replays themselves are in the replay store beside it (DATA_DIR/replays,
// replays/store/replay_store.h); a run names its game there.
//
// # Schema
// Plain SQL types (TEXT, BIGINT, INTEGER) and statements PostgreSQL runs too (ON CONFLICT upserts, window functions,
// LIMIT/OFFSET); only the PRAGMAs are SQLite's. Its version is SQLite's user_version (kRecordBookVersion): open()
// makes a new book, and refuses one of a newer build.
//
// # Lists and trust
// A run is on the trusted list when its server's key is in the operator's trust list and its unverified_us is 0
// (the caller decides, NewRun::list). The book remembers the trust list it was last opened with; open() with another
// one moves every stored run to the list the new one gives and recomputes the bests, so `--trust` changes apply to
// the records already kept.
//
// # Ranking
// One best per (board, list, player key): the lowest rank_value (board.h), ties to the earlier run (lower id, the
// order runs were accepted in). A place is 1 + the bests ranked before it.
//
// Not thread-safe: the records hub calls it under a mutex.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/engine/stats.h"
#include "common/result.h"
#include "hub/records/board.h"
#include "hub/records/detail/book_db.h"
#include "hub/records/trust.h"

namespace sr::hub::records {

inline constexpr std::int64_t kRecordBookVersion = 1;

// Values are stored and sent ("trusted", "other"): never rename.
enum class ListKind : std::uint8_t { kTrusted = 0, kOther = 1 };
[[nodiscard]] const char* list_name(ListKind list);
[[nodiscard]] std::optional<ListKind> list_from_name(std::string_view name);

struct NewRun {
  std::uint32_t racer = 0;
  Board board;
  ListKind list = ListKind::kOther;
  std::string player_key;       // 64 lower-case hex digits
  std::string player;           // the racer's name in the replay
  std::string run_digest;       // 64 lower-case hex digits (net::run_digest)
  engine::Stats stats;          // the re-simulated result (time_us, score, lines, pieces are kept)
  std::int64_t rank_value = 0;  // board.h: lower is better
  std::int64_t unverified_us = 0;
};

struct NewSubmission {
  std::string replay_hash;  // 64 hex: BLAKE2b-256 of the replay's bytes as submitted
  std::string game_id;      // the replay store's id of the replay
  std::string server_key;   // 64 hex
  std::string server_name;
  std::string server_web;
  std::string server_game;  // the server's own id of the game ("" if it sent none)
  std::uint64_t sequence = 0;
  std::int64_t received_unix_ms = 0;
  std::string source;  // the source address the submission came from
  std::uint32_t rules_version = 0;
  std::int64_t played_unix_ms = 0;  // the replay's created_unix_ms
  std::vector<NewRun> runs;         // racers in increasing order
};

// How a stored run went on its list.
struct StoredRun {
  std::uint32_t racer = 0;
  std::string record;  // "<game>-<racer>"
  std::string board;
  ListKind list = ListKind::kOther;
  std::int64_t place = 0;  // where it places among the other players' bests on the list once the submission is in
  bool best = false;       // it is now the player's best there
};

struct AddResult {
  bool duplicate = false;  // the book holds a submission with this replay_hash: nothing was stored
  std::string game_id;     // duplicate: the game id stored with it
  std::vector<StoredRun> stored;
  // Runs not stored because the book holds the same run (same player key and run digest) already: (racer, its record).
  std::vector<std::pair<std::uint32_t, std::string>> duplicate_runs;
};

// One run of the book as the read API shows it (RECORDS.md section 5, ENTRY).
struct Entry {
  std::string record;
  std::int64_t place = 0;   // its place on its list when it is the player's best there, else 0
  bool best = false;        // the player's best on its board and list
  std::string best_record;  // the player's best there (== record when best)
  Board board;
  ListKind list = ListKind::kOther;
  std::string player;
  std::string key;  // 64 hex
  std::string key_id;
  std::int64_t time_us = 0, score = 0, lines = 0, pieces = 0, unverified_us = 0;
  std::uint32_t rules_version = 0, racer = 0;
  std::string server_name, server_key, server_key_id, server_web;
  std::int64_t played_unix_ms = 0, submitted_unix_ms = 0;
  std::string game_id;
};

struct BoardSummary {
  Board board;
  std::int64_t trusted = 0;  // players on each list
  std::int64_t other = 0;
};

struct BoardPage {
  Board board;
  std::int64_t total = 0;      // players on the list
  std::vector<Entry> entries;  // best first, from the page's offset
};

struct Place {
  std::int64_t place = 0;  // where such a result would place: 1 + the bests ranked at or before it
  std::int64_t of = 0;     // players on the list
};

struct PlayerRecords {
  std::string key, key_id;
  std::vector<std::string> names;  // every name the key's runs were stored under, first used first
  std::vector<Entry> records;      // the player's best on every board and list, by board then list
};

class RecordBook {
 public:
  inline static const char* kFile = "records.sqlite";

  // Opens or creates the book at `file` and applies `trust` (above). # Errors: a sentence naming the file.
  [[nodiscard]] static sr::Result<RecordBook, std::string> open(const std::filesystem::path& file,
                                                                const TrustList& trust);

  // The game id stored with the submission of this replay hash, if any.
  [[nodiscard]] sr::Result<std::optional<std::string>, std::string> find_replay(const std::string& replay_hash);
  // The record holding the run of this player key and digest, if any.
  [[nodiscard]] sr::Result<std::optional<std::string>, std::string> find_run(const std::string& player_key,
                                                                             const std::string& run_digest);
  // Stores a submission and its runs in one transaction (synced at commit): the submission once per replay_hash, each
  // run once per (player key, digest); nothing at all when no run is left. `runs` must not be empty.
  [[nodiscard]] sr::Result<AddResult, std::string> add(const NewSubmission& submission);

  // Every board, by id.
  [[nodiscard]] sr::Result<std::vector<BoardSummary>, std::string> boards();
  // `limit` bests of `list` from `offset`, or none when the book has no board `id`.
  [[nodiscard]] sr::Result<std::optional<BoardPage>, std::string> board(const std::string& id, ListKind list,
                                                                        std::int64_t offset, std::int64_t limit);
  // Where a result of `rank_value` would place on `list` (ties: after those there), or none for no such board.
  [[nodiscard]] sr::Result<std::optional<Place>, std::string> place(const std::string& board, ListKind list,
                                                                    std::int64_t rank_value);
  // One run by its record id, or none.
  [[nodiscard]] sr::Result<std::optional<Entry>, std::string> run(const std::string& record);
  // A player's records, or none when the key has none.
  [[nodiscard]] sr::Result<std::optional<PlayerRecords>, std::string> player(const std::string& key_hex);
  // The keys (64 hex) with runs in the book whose short id is `key_id`.
  [[nodiscard]] sr::Result<std::vector<std::string>, std::string> keys_with_id(const std::string& key_id);
  // Servers with an accepted submission.
  [[nodiscard]] sr::Result<std::int64_t, std::string> server_count();

 private:
  explicit RecordBook(detail::BookDb db) : db_(std::move(db)) {}
  [[nodiscard]] sr::Status<std::string> apply_trust(const TrustList& trust);
  [[nodiscard]] sr::Result<std::int64_t, std::string> place_of_best(const std::string& board, ListKind list,
                                                                    std::int64_t rank_value, std::int64_t run_id);
  [[nodiscard]] sr::Status<std::string> fill_best(Entry& entry, std::int64_t run_id, std::int64_t rank_value);

  detail::BookDb db_;
};

}  // namespace sr::hub::records
