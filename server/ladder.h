// The contest ladder (PROTOCOL.md "Contest ladder"): named entrants play contest games alone, each ranked game spent
// when its countdown starts, scored by the server's own referee, and kept with its stored replay. The lobby asks it
// whether an entrant may play, tells it when a game starts, ends and is stored, and asks it for the leaderboard.
// The games live in a LadderStore (ladder.sqlite), with a copy of the ranked ones in memory for the leaderboard
// (at most max_entrants x ranked_games); practice games are unlimited, so only their number and the ones being played
// are kept. Main loop only; reads no clock (times are passed in).
//
// # In a database (stackrace-server --database)
// open_database() keeps the ladder in PostgreSQL (ladder_pg_store.h), shared by every server of a fleet, and talks
// to it from a worker thread of its own, so that a slow or unreachable database never holds up the game loop:
// request_enter() queues an entry (the name claimed, the entrant's ranked games counted fleet-wide and the game spent,
// in one transaction), and collect() hands back the answers for the lobby to start (started()) or give back
// (cancel()). Scores and replays are written behind; a write the database refuses is tried again every second, in
// order, until it is taken or the server stops (stop() waits up to kStopWaitMs for them). refresh() reads the whole
// fleet's ladder again (the server asks every kRefreshEveryUs): the leaderboard shows other servers' games.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "common/engine/config.h"
#include "common/protocol/messages.h"
#include "common/result.h"
#include "server/ladder_pg_store.h"
#include "server/ladder_ranking.h"
#include "server/ladder_store.h"
#include "server/player.h"

namespace sr::server {

struct LadderOptions {
  bool enabled = false;  // without it LadderEnter is refused ("this server runs no contest ladder")
  LadderRules rules;
  // The contest's length. The ranked rules are 90 s (engine::make_contest()); only tests shorten it.
  std::int64_t contest_seconds = 90;
  // Most entrants: a new name beyond it is refused (each name is a row kept for good; the join rate bounds how fast
  // one address can make them, this bounds them all).
  std::size_t max_entrants = 10'000;
};

// What the metrics show of the ladder.
struct LadderStats {
  std::size_t entrants = 0;
  std::uint64_t ranked_games = 0;
  std::uint64_t practice_games = 0;
  // The top entrants (at most kTopInMetrics) and their rank score's sum (average = sum / counted_best).
  std::vector<std::pair<std::string, std::int64_t>> top;
  int counted_best = 3;
  // Its store's failures (an entry it could not read, a game, score or replay it could not write), and, in a
  // database, the scores and replays still to be written.
  std::uint64_t store_errors = 0;
  std::size_t writes_pending = 0;
};

// What the worker answered to request_enter(): the game spent (seq), or the sentence the player is told.
struct LadderEntered {
  PlayerId player = 0;
  std::string entrant;
  bool ranked = true;
  std::optional<std::string> refused;
  std::int64_t seq = 0;
  bool new_entrant = false;
  std::uint64_t job = 0;  // the worker's job number (a refresh read after it holds the game already)
};

class Ladder {
 public:
  static constexpr std::size_t kTopInMetrics = 10;
  static constexpr std::size_t kMaxPending = 1000;     // entries queued for the worker at most
  static constexpr std::int64_t kQueryWaitMs = 2'000;  // each database query is cut off after this
  static constexpr std::int64_t kStopWaitMs = 3'000;
  static constexpr std::int64_t kRefreshEveryUs = 5'000'000;

  // The rules are brought within the protocol's limits: ranked_games 1..kMaxLadderRankedGames, counted_best
  // 1..min(ranked_games, kMaxLadderCountedBest).
  explicit Ladder(LadderOptions options);
  ~Ladder();
  Ladder(const Ladder&) = delete;
  Ladder& operator=(const Ladder&) = delete;

  // Opens (creating) the store and reads it. Ok, or a sentence naming the problem.
  [[nodiscard]] sr::Status<std::string> open(const std::filesystem::path& file);
  // The ladder in the database at `uri` (postgresql://...), shared with the other servers on it; `server_name` is
  // kept with each game. Connects, migrates and reads it, then starts the worker. Ok, or a sentence (no password).
  [[nodiscard]] sr::Status<std::string> open_database(const std::string& uri, const std::string& server_name);
  // Whether entries go through request_enter() and collect() (a ladder in a database) instead of check() and start().
  [[nodiscard]] bool asynchronous() const { return worker_.joinable(); }

  // The asynchronous entry: check() and start() in one, answered through collect(). Beyond kMaxPending queued the
  // answer is a refusal at once (in the next collect()).
  void request_enter(PlayerId player, const std::string& name, const protocol::PublicKeyBytes& holder, bool ranked,
                     std::int64_t unix_ms);
  // The worker's answers since the last call (the entrants and games they admitted are on the board already), after
  // applying the newest refresh().
  [[nodiscard]] std::vector<LadderEntered> collect();
  // An admitted game's countdown starts in room `room`, race `race_id` (as start() records it for a file's ladder).
  void started(const LadderEntered& entered, RoomId room, std::uint32_t race_id);
  // An admitted game that never started (its player left, or the room refused them): not spent after all.
  void cancel(const LadderEntered& entered);
  // Reads the database's ladder again (every server's games); collect() applies it.
  void refresh();
  // Waits (at most kStopWaitMs) for the queued writes, then ends the worker. Nothing without one.
  void stop();
  // Queued for the worker, writes waiting to be tried again included (tests, metrics).
  [[nodiscard]] std::size_t pending() const;

  // The rules every ladder game is played with: engine::make_contest() (LadderOptions::contest_seconds long).
  [[nodiscard]] engine::GameConfig contest_config() const;
  [[nodiscard]] const LadderRules& rules() const { return options_.rules; }

  // May `name`, for the player holding key `holder`, play a game (ranked or not)? Claims a free name for the key (or,
  // with the old secret that holds it, an entrant from before player keys). Ok, or the sentence the player is told
  // ("entrant 'x' has played its 10 ranked games").
  [[nodiscard]] sr::Status<std::string> check(const std::string& name, const protocol::PublicKeyBytes& holder,
                                              const std::optional<LadderSecret>& legacy_secret, bool ranked,
                                              std::int64_t unix_ms);
  // The game's countdown starts in room `room`, race `race_id`: a ranked game is spent from now on. Ok, or why it
  // could not be recorded (the disk; the game must then not start).
  [[nodiscard]] sr::Status<std::string> start(const std::string& name, bool ranked, RoomId room, std::uint32_t race_id,
                                              std::int64_t unix_ms);
  // Any race ended, with the referee's results: a ladder game's score is recorded (a racer the referee removed
  // scores 0). Not a ladder race: nothing.
  void race_ended(RoomId room, const protocol::RaceResults& results);
  // Any race's replay was stored (game_id) or not (nullopt).
  void replay_written(RoomId room, std::uint32_t race_id, std::optional<std::uint64_t> game_id);

  // The leaderboard message (ListLadder's answer).
  [[nodiscard]] protocol::Ladder board() const;
  [[nodiscard]] LadderStats stats() const;
  [[nodiscard]] const std::vector<LadderStanding>& standings() const { return standings_; }
  // Games held in memory: the ranked ones and the practice games being played (tests: practice does not grow it).
  [[nodiscard]] std::size_t games_in_memory() const;

 private:
  struct Running {
    std::int64_t seq = 0;
    bool ranked = true;
    bool scored = false;
    std::string entrant;  // for the log lines of a practice game (ranked ones are in games_)
  };
  [[nodiscard]] LadderEntry* entry(std::int64_t seq);
  void rerank();
  [[nodiscard]] std::string refusal(PgLadderStore::Outcome outcome, const std::string& name) const;

  // The worker's jobs, run in order on its connection.
  struct EnterJob {
    LadderEntered asked;
    protocol::PublicKeyBytes holder{};
    std::int64_t unix_ms = 0;
  };
  struct ResultJob {
    std::int64_t seq = 0;
    std::int64_t score = 0;
    std::int64_t lines = 0;
  };
  struct ReplayJob {
    std::int64_t seq = 0;
    std::uint64_t game_id = 0;
  };
  struct CancelJob {
    std::int64_t seq = 0;
  };
  struct RefreshJob {};
  using Job = std::variant<EnterJob, ResultJob, ReplayJob, CancelJob, RefreshJob>;
  struct Loaded {
    std::uint64_t tag = 0;  // the job number of the refresh: older than a write queued after it, it is stale
    LadderStore::Contents contents;
  };
  void queue(Job job);
  void count_store_error();
  void work();
  [[nodiscard]] sr::Status<std::string> write(PgLadderStore& store, const Job& job);

  LadderOptions options_;
  LadderStore store_;
  std::string where_;  // the file or the database, for the log

  // The worker (a ladder in a database) and what it shares with the game loop, under mutex_.
  std::thread worker_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  PgLadderStore pg_;
  std::deque<std::pair<std::uint64_t, Job>> jobs_;   // with their job numbers
  std::deque<std::pair<std::uint64_t, Job>> retry_;  // writes the database refused, oldest first
  std::vector<LadderEntered> answers_;
  std::optional<Loaded> loaded_;
  bool busy_ = false;
  bool stopping_ = false;
  bool refresh_queued_ = false;
  std::uint64_t store_errors_ = 0;  // under mutex_
  std::uint64_t next_tag_ = 1;
  std::uint64_t last_write_tag_ = 0;  // game loop only

  std::vector<std::string> entrants_;
  std::vector<LadderEntry> games_;  // the ranked games, in sequence order
  std::uint64_t practice_games_ = 0;
  std::vector<LadderStanding> standings_;
  std::map<std::pair<RoomId, std::uint32_t>, Running> running_;  // ladder races not yet stored, by room and race
};

}  // namespace sr::server
