// A fleet's store in PostgreSQL at 1,000,000 games: how long its leaderboard and list queries take. The games are
// generated in the database itself from real replays (the golden files in tests/data: a 2-racer 40-line sprint, a
// 120 s ultra, a 150-line marathon, ...), copied under new ids with other times, scores and 10,000 players, so that
// every query runs the SQL the server and stackrace-replay run (PgStore) on the rows they would find.
//
// Needs a PostgreSQL server: run under pg_virtualenv (the program starts itself there when PGHOST is not set, so
// `./stackrace.sh bench` runs it as it runs the others). The database (sr_bench_games) is made once per cluster and
// kept while the cluster lives; --games=N makes another size.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "common/replay/replay.h"
#include "replays/store/file_io.h"
#include "replays/store/pg_db.h"
#include "replays/store/replay_store.h"
#include "replays/store/store_sql.h"

namespace {

using namespace sr;

long g_games = 1'000'000;
const char* kDatabase = "sr_bench_games";
std::optional<replay::ReplayStore> g_store;

[[noreturn]] void die(const std::string& why) {
  std::fprintf(stderr, "pg_leaderboard_bench: %s\n", why.c_str());
  std::exit(2);
}

void exec(replay::pg::Conn& c, const std::string& sql) {
  if (auto done = c.exec(sql.c_str()); !done) die(done.error() + "\n  in: " + sql.substr(0, 200));
}

// The store with g_games games: the golden replays added as any server adds them, then copied in SQL.
void prepare() {
  auto admin = replay::pg::Conn::connect("postgresql://");
  if (!admin.ok()) die(admin.error());
  auto exists = admin.value().query("SELECT 1 FROM pg_database WHERE datname = $1", {std::string(kDatabase)});
  if (!exists.ok()) die(exists.error());
  if (exists.value().size() == 0) exec(admin.value(), std::string("CREATE DATABASE ") + kDatabase);
  const std::string locator = std::string("postgresql:///") + kDatabase;
  auto store = replay::ReplayStore::open(locator);
  if (!store.ok()) die(store.error().message);
  auto c = replay::pg::Conn::connect(locator);
  if (!c.ok()) die(c.error());
  auto count = c.value().query("SELECT count(*) FROM games", {});
  if (!count.ok()) die(count.error());
  if (count.value().int_at(0, 0) != g_games) {
    std::fprintf(stderr, "pg_leaderboard_bench: generating %ld games in %s (once per cluster) ...\n", g_games,
                 kDatabase);
    const auto start = std::chrono::steady_clock::now();
    exec(c.value(), "TRUNCATE games CASCADE");
    int seeds = 0;
    for (const char* name : {"race_sprint.srr", "mode_sprint.srr", "bot_sprint.srr", "mode_ultra.srr", "bot_ultra.srr",
                             "mode_marathon.srr", "mode_master.srr", "mode_contest.srr"}) {
      auto r = replay::load_replay_file(std::filesystem::path(STACKRACE_TEST_DATA) / name);
      if (!r.ok()) die(std::string(name) + ": " + r.error().message);
      if (auto added = store.value().add(r.value()); !added.ok()) die(added.error().message);
      ++seeds;
    }
    // Game i copies seed game (i mod seeds) under the id 'b' + 15 hex digits of i, played a second after game i-1;
    // its racers are other players (10,000 in all), their times and scores spread over -25% to +25%.
    exec(c.value(), "CREATE TEMP TABLE seeds AS SELECT row_number() OVER (ORDER BY id) - 1 AS k, * FROM games");
    exec(c.value(),
         "CREATE TEMP TABLE seed_results AS SELECT s.k, r.* FROM results r JOIN seeds s ON s.id = r.game_id");
    exec(c.value(), "DELETE FROM games");
    const std::string n = std::to_string(g_games);
    exec(c.value(),
         "INSERT INTO games SELECT 'b' || lpad(to_hex(i), 15, '0'), s.replay, 1767225600000 + i * 1000, "
         "s.place, s.mode, s.limit_kind, s.limit_value, s.goal, s.rules_version, s.racers, s.verified, "
         "s.verify_note FROM generate_series(0, " +
             n + " - 1) i JOIN seeds s ON s.k = i % " + std::to_string(seeds));
    // The results with the columns of the leaderboard's index as the store writes them (pg_store.cpp's
    // write_results: the same rule fragments). The seeds' modes stay in modes_played.
    exec(c.value(),
         "INSERT INTO results (game_id, racer, player, status, top_out, time_us, lines, score, pieces, key_id, mode, "
         "limit_kind, limit_value, created_unix_ms, ranked, rank_value) SELECT r.game_id, r.racer, r.player, r.status, "
         "r.top_out, r.time_us, r.lines, r.score, r.pieces, r.key_id, g.mode, g.limit_kind, g.limit_value, "
         "g.created_unix_ms, g.verified AND " +
             std::string(replay::sql::kBestCounts) + ", " + replay::sql::kRankValue +
             " FROM (SELECT 'b' || lpad(to_hex(i), 15, '0') AS game_id, s.racer, "
             "'p' || ((i * 7 + s.racer * 13) % 10000) AS player, s.status, s.top_out, "
             "(s.time_us * (75 + (i * 31 + s.racer) % 50)) / 100 AS time_us, s.lines, "
             "(s.score * (75 + (i * 17 + s.racer) % 50)) / 100 AS score, s.pieces, "
             "substr(md5('p' || ((i * 7 + s.racer * 13) % 10000)), 1, 8) AS key_id "
             "FROM generate_series(0, " +
             n + " - 1) i JOIN seed_results s ON s.k = i % " + std::to_string(seeds) +
             ") r JOIN games g ON g.id = r.game_id");
    exec(c.value(), "ANALYZE");
    std::fprintf(stderr, "pg_leaderboard_bench: generated in %.0f s\n",
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  // The index must give what ranking every result gives (kBestRank over all of them, as version 2 did): checked
  // once, and the time that took is the figure before the index.
  const auto t0 = std::chrono::steady_clock::now();
  auto full = c.value().query(("SELECT game_id, player FROM (SELECT r.game_id, r.player, g.mode, g.limit_kind, "
                               "g.limit_value, " +
                               std::string(replay::sql::kBestRank) +
                               " AS rank FROM results r JOIN games g ON g.id = r.game_id WHERE g.verified AND " +
                               replay::sql::kBestCounts + ") x WHERE rank = 1 ORDER BY mode, limit_kind, limit_value")
                                  .c_str(),
                              {});
  const double full_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (!full.ok()) die(full.error());
  auto indexed = store.value().best({});
  if (!indexed.ok()) die(indexed.error().message);
  bool same = static_cast<std::size_t>(full.value().size()) == indexed.value().size();
  for (int i = 0; same && i < full.value().size(); ++i) {
    same = full.value().text_at(i, 0) == indexed.value()[static_cast<std::size_t>(i)].game_id &&
           full.value().text_at(i, 1) == indexed.value()[static_cast<std::size_t>(i)].player;
  }
  if (!same) die("the leaderboard's index and a ranking of every result disagree");
  std::fprintf(stderr,
               "pg_leaderboard_bench: %zu boards; the index agrees with ranking all %ld games' results, which took "
               "%.0f ms\n",
               indexed.value().size(), g_games, full_ms);
  g_store.emplace(std::move(store).value());
}

template <typename F>
void run(benchmark::State& state, F query) {
  std::size_t rows = 0;
  for (auto _ : state) {
    auto got = query();
    if (!got.ok()) {
      state.SkipWithError(got.error().message.c_str());
      return;
    }
    rows = got.value().size();
    benchmark::DoNotOptimize(rows);
  }
  state.counters["games"] = static_cast<double>(g_games);
  state.counters["rows"] = static_cast<double>(rows);
}

// The fleet's leaderboard: the best result of every mode and limit (stackrace-replay best, the web's records).
void BM_BestOfEveryBoard(benchmark::State& state) {
  run(state, [] { return g_store->best({}); });
}
// One player's bests (their page).
void BM_BestOfOnePlayer(benchmark::State& state) {
  replay::StoreQuery q;
  q.player = "p4242";
  run(state, [&] { return g_store->best(q); });
}
// The newest 20 sprints (the games list).
void BM_RecentSprints(benchmark::State& state) {
  replay::StoreQuery q;
  q.mode = engine::ModeKind::kSprint;
  q.limit = 20;
  run(state, [&] { return g_store->recent(q); });
}
// One player's newest 20 games.
void BM_RecentOfOnePlayer(benchmark::State& state) {
  replay::StoreQuery q;
  q.player = "p4242";
  q.limit = 20;
  run(state, [&] { return g_store->recent(q); });
}
// A server's replay writer storing a 2-racer sprint (verifying it, one transaction: the game, its board, its two
// results) into the 1,000,000-game store: games stored per second by one server.
void BM_AddRaceSprint(benchmark::State& state) {
  auto race = replay::load_replay_file(std::filesystem::path(STACKRACE_TEST_DATA) / "race_sprint.srr");
  if (!race.ok()) {
    state.SkipWithError(race.error().message.c_str());
    return;
  }
  static std::int64_t next = 0;
  for (auto _ : state) {
    race.value().created_unix_ms = 1900000000000 + ++next;  // another game each time: another id
    auto added = g_store->add(race.value());
    if (!added.ok()) {
      state.SkipWithError(added.error().message.c_str());
      return;
    }
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AddRaceSprint)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BestOfEveryBoard)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(BM_BestOfOnePlayer)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RecentSprints)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RecentOfOnePlayer)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--games=", 8) == 0) {
      g_games = std::strtol(argv[i] + 8, nullptr, 10);
      if (g_games < 1 || g_games > 100'000'000) die("--games=N wants 1 to 100000000");
    } else {
      rest.push_back(argv[i]);
    }
  }
  if (std::getenv("PGHOST") == nullptr) {
    // A throwaway cluster of our own (postgresql-common; deploy/install-deps.sh installs it).
    std::vector<char*> again = {const_cast<char*>("pg_virtualenv")};
    for (int i = 0; i < argc; ++i) again.push_back(argv[i]);
    again.push_back(nullptr);
    execvp("pg_virtualenv", again.data());
    die(std::string("PGHOST is not set and pg_virtualenv cannot start: ") + std::strerror(errno));
  }
  int rest_argc = static_cast<int>(rest.size());
  benchmark::Initialize(&rest_argc, rest.data());
  prepare();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
