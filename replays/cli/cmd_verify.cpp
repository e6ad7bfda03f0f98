// verify FILE... / verify --store STORE: re-simulates every racer of every file (or every game of a store, a folder
// or a database) and compares with what the replay recorded.
#include <fmt/core.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "common/replay/codec.h"
#include "common/replay/verify.h"
#include "replays/cli/commands.h"
#include "replays/cli/output.h"
#include "replays/store/file_io.h"
#include "replays/store/replay_store.h"

namespace sr::replay::cli {
namespace {

struct VerifyOptions {
  std::vector<std::string> files;
  std::string store;
  bool quiet = false;
};

// One replay to verify: its name in the output (a file, or a stored game's id) and its decoded value.
struct Item {
  std::string name;
  Result<Replay> replay;
};

// Racers whose late time or reconnects the server recorded: verified replays can hold them, since the inputs cannot
// show when they reached the server.
void print_late(const Replay& replay) {
  for (std::size_t i = 0; i < replay.racers.size(); ++i) {
    const std::string late = late_summary(replay.racers[i].result);
    if (!late.empty()) {
      fmt::print("  racer {} \"{}\": {} (recorded by the server, not re-simulated)\n", i, replay.racers[i].name, late);
    }
  }
}

// The files, then every game of the store (newest first), as their replays. Fails only when the store cannot be
// opened or listed (reported on stderr).
std::optional<std::vector<Item>> gather(const VerifyOptions& o) {
  std::vector<Item> items;
  for (const std::string& file : o.files) items.push_back({file, load_replay_file(file)});
  if (o.store.empty()) return items;
  Result<ReplayStore> store = ReplayStore::open(o.store);
  if (!store.ok()) {
    report_error(store_label(o.store), store.error());
    return std::nullopt;
  }
  StoreQuery all;
  all.limit = static_cast<std::size_t>(INT64_MAX);
  Result<std::vector<StoredGame>> games = store.value().recent(all);
  if (!games.ok()) {
    report_error(store_label(o.store), games.error());
    return std::nullopt;
  }
  for (const StoredGame& g : games.value()) {
    Result<std::vector<std::uint8_t>> bytes = store.value().load(g.id);
    items.push_back({g.id, bytes.ok() ? decode_binary(bytes.value()) : Result<Replay>(bytes.error())});
  }
  return items;
}

int run_verify(const VerifyOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  std::optional<std::vector<Item>> items = gather(o);
  if (!items) return kExitUnreadable;
  std::size_t verified = 0, mismatched = 0, unreadable = 0;
  for (Item& item : *items) {
    const std::string& file = item.name;
    Result<Replay>& r = item.replay;
    if (!r.ok()) {
      ++unreadable;
      fmt::print("UNREADABLE {}: {}\n", file, r.error().describe());
      continue;
    }
    const VerifyReport report = verify(r.value());
    switch (report.verdict) {
      case Verdict::kVerified:
        ++verified;
        if (!o.quiet) {
          fmt::print("OK {}: {}\n", file, report.message);
          print_late(r.value());
        }
        break;
      case Verdict::kMismatch:
        ++mismatched;
        fmt::print("MISMATCH {}: {}\n", file, report.message);
        for (std::size_t i = 1; i < report.disagreements.size(); ++i) {
          fmt::print("  also {}\n", report.disagreements[i].describe());
        }
        print_late(r.value());
        break;
      case Verdict::kUnsupportedRules:
        ++unreadable;
        fmt::print("UNSUPPORTED {}: {}\n", file, report.message);
        break;
    }
  }
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  fmt::print("verified {} of {} replays in {} ms\n", verified, items->size(), ms.count());
  if (unreadable > 0) return kExitUnreadable;
  return mismatched > 0 ? kExitMismatch : kExitOk;
}

}  // namespace

void add_verify(CLI::App& app, Run& run) {
  auto o = std::make_shared<VerifyOptions>();
  CLI::App* sub = app.add_subcommand(
      "verify",
      "Re-simulate every racer and compare with the recorded results and checkpoints.\n"
      "Exit 0: all verified; 1: some replay disagrees; 2: some file cannot be read or played by this build.\n"
      "The last line is always: verified N of M replays in T ms");
  sub->add_option("FILE", o->files, "Replay files (binary, or JSON exports)");
  sub->add_option("--store", o->store,
                  "Also every game of this store: a directory, or a database postgresql://[user[:password]@]host"
                  "[:port]/db (missing parts from PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE)");
  sub->add_flag("-q,--quiet", o->quiet, "Print only the files that did not verify, and the summary");
  sub->callback([&run, o] {
    if (o->files.empty() && o->store.empty()) throw CLI::RequiredError("FILE or --store");
    run = [o] { return run_verify(*o); };
  });
}

}  // namespace sr::replay::cli
