// list, reindex and add: the replay store (a directory of replays plus its SQLite index, or a PostgreSQL database).
#include <fmt/core.h>

#include <memory>
#include <string>
#include <vector>

#include "common/replay/names.h"
#include "replays/cli/commands.h"
#include "replays/cli/output.h"
#include "replays/store/file_io.h"
#include "replays/store/replay_store.h"

namespace sr::replay::cli {
namespace {

constexpr const char* kStoreHelp =
    "Store: a directory (replay files plus index.sqlite), or a database, postgresql://[user[:password]@]host[:port]/db "
    "(missing parts from PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE)";

std::string limit_text(engine::LimitKind limit, std::int64_t value) {
  switch (limit) {
    case engine::LimitKind::kTime: return fmt::format("{} s", value);
    case engine::LimitKind::kLines: return fmt::format("{} lines", value);
    case engine::LimitKind::kPieces: return fmt::format("{} pieces", value);
    case engine::LimitKind::kLevel: return fmt::format("level {}", value);
    case engine::LimitKind::kScore: return fmt::format("{} points", value);
    default: return "no limit";
  }
}

int print_games(const std::vector<StoredGame>& games, bool in_database) {
  if (games.empty() && in_database) fmt::print("no games\n");
  if (games.empty() && !in_database)
    fmt::print("no games (is the index built? stackrace-replay reindex --store DIR)\n");
  for (const StoredGame& g : games) {
    fmt::print("{}  {}  {} ({})  {}  {}\n", g.id, format_date(g.created_unix_ms), names::name_of(names::kMode, g.mode),
               limit_text(g.limit, g.limit_value), g.place, g.verified ? "verified" : "NOT VERIFIED: " + g.verify_note);
    for (const StoredResult& r : g.results) {
      fmt::print("    {}: {} at {}, {} lines, score {}, {} pieces\n", r.player, status_name(r.status),
                 format_seconds(r.time_us), r.lines, r.score, r.pieces);
    }
  }
  return kExitOk;
}

int print_best(const std::vector<BestResult>& best) {
  if (best.empty()) fmt::print("no verified results\n");
  for (const BestResult& b : best) {
    const std::string value = b.goal == engine::GoalKind::kTime    ? format_seconds(b.time_us)
                              : b.goal == engine::GoalKind::kScore ? fmt::format("score {}", b.score)
                                                                   : fmt::format("{} lines", b.lines);
    fmt::print("{} ({}): {} by {} ({}, game {})\n", names::name_of(names::kMode, b.mode),
               limit_text(b.limit, b.limit_value), value, b.player, format_date(b.created_unix_ms), b.game_id);
  }
  return kExitOk;
}

}  // namespace

void add_list(CLI::App& app, Run& run) {
  struct Options {
    std::string store;
    std::string mode;
    std::string player;
    bool best = false;
    std::size_t limit = 20;
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand(
      "list", "List the store's games, newest first, or (--best) the best verified result per mode and limit");
  sub->add_option("--store", o->store, kStoreHelp)->required();
  sub->add_option("--mode", o->mode, "Only this mode (sprint, ultra, marathon, master, endless, contest, custom)");
  sub->add_option("--player", o->player, "Only games of this player (with --best: this player's bests)");
  sub->add_flag("--best", o->best, "Best results: fastest finish for timed goals, highest score otherwise");
  sub->add_option("--limit", o->limit, "At most this many games (default 20)");
  sub->callback([&run, o] {
    run = [o] {
      StoreQuery q;
      q.limit = o->limit;
      if (!o->player.empty()) q.player = o->player;
      if (!o->mode.empty()) {
        const auto m = names::index_of(names::kMode, o->mode);
        if (!m) {
          report_error("--mode", "unknown mode \"" + o->mode + "\"");
          return kExitUnreadable;
        }
        q.mode = static_cast<engine::ModeKind>(*m);
      }
      Result<ReplayStore> store = ReplayStore::open(o->store);
      if (!store.ok()) {
        report_error(store_label(o->store), store.error());
        return kExitUnreadable;
      }
      if (o->best) {
        Result<std::vector<BestResult>> best = store.value().best(q);
        if (!best.ok()) {
          report_error(store_label(o->store), best.error());
          return kExitUnreadable;
        }
        return print_best(best.value());
      }
      Result<std::vector<StoredGame>> games = store.value().recent(q);
      if (!games.ok()) {
        report_error(store_label(o->store), games.error());
        return kExitUnreadable;
      }
      return print_games(games.value(), store.value().in_database());
    };
  });
}

void add_reindex(CLI::App& app, Run& run) {
  auto dir = std::make_shared<std::string>();
  CLI::App* sub =
      app.add_subcommand("reindex",
                         "Rebuild the store's index from its *.srr files (decoding and verifying each); in a "
                         "database, decode and verify every stored replay again");
  sub->add_option("--store", *dir, kStoreHelp)->required();
  sub->callback([&run, dir] {
    run = [dir] {
      Result<ReplayStore> store = ReplayStore::open(*dir);
      if (!store.ok()) {
        report_error(store_label(*dir), store.error());
        return kExitUnreadable;
      }
      Result<ReindexReport> report = store.value().reindex();
      if (!report.ok()) {
        report_error(store_label(*dir), report.error());
        return kExitUnreadable;
      }
      for (const std::string& u : report.value().unreadable) fmt::print("UNREADABLE {}\n", u);
      fmt::print("indexed {} replays ({} verified), {} unreadable\n", report.value().indexed, report.value().verified,
                 report.value().unreadable.size());
      return report.value().unreadable.empty() ? kExitOk : kExitUnreadable;
    };
  });
}

void add_add(CLI::App& app, Run& run) {
  struct Options {
    std::string store;
    std::vector<std::string> files;
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("add", "Copy replay files into a store (created if missing) and index them");
  sub->add_option("--store", o->store, kStoreHelp)->required();
  sub->add_option("FILE", o->files, "Replay files")->required();
  sub->callback([&run, o] {
    run = [o] {
      Result<ReplayStore> store = ReplayStore::open(o->store, true);
      if (!store.ok()) {
        report_error(store_label(o->store), store.error());
        return kExitUnreadable;
      }
      int rc = kExitOk;
      for (const std::string& file : o->files) {
        const std::optional<Replay> replay = load_or_report(file);
        if (!replay) {
          rc = kExitUnreadable;
          continue;
        }
        Result<std::string> id = store.value().add(*replay);
        if (!id.ok()) {
          report_error(file, id.error());
          rc = kExitUnreadable;
          continue;
        }
        fmt::print("{} -> {}\n", file, id.value());
      }
      return rc;
    };
  });
}

}  // namespace sr::replay::cli
