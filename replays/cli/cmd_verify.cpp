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

// Counts and prints the verdicts, one replay at a time (files are read as they come: a verify of a million files
// holds one replay at a time).
class Verifier {
 public:
  explicit Verifier(bool quiet) : quiet_(quiet) {}

  void check(const std::string& name, const Result<Replay>& r) {
    ++total_;
    if (!r.ok()) {
      ++unreadable_;
      fmt::print("UNREADABLE {}: {}\n", name, r.error().describe());
      return;
    }
    const VerifyReport report = verify(r.value());
    switch (report.verdict) {
      case Verdict::kVerified:
        ++verified_;
        if (!quiet_) {
          fmt::print("OK {}: {}\n", name, report.message);
          print_late(r.value());
        }
        break;
      case Verdict::kMismatch:
        ++mismatched_;
        fmt::print("MISMATCH {}: {}\n", name, report.message);
        for (std::size_t i = 1; i < report.disagreements.size(); ++i) {
          fmt::print("  also {}\n", report.disagreements[i].describe());
        }
        print_late(r.value());
        break;
      case Verdict::kUnsupportedRules:
        ++unreadable_;
        fmt::print("UNSUPPORTED {}: {}\n", name, report.message);
        break;
    }
  }

  [[nodiscard]] int exit_code() const {
    if (unreadable_ > 0) return kExitUnreadable;
    return mismatched_ > 0 ? kExitMismatch : kExitOk;
  }
  [[nodiscard]] std::size_t verified() const { return verified_; }
  [[nodiscard]] std::size_t total() const { return total_; }

 private:
  bool quiet_;
  std::size_t verified_ = 0, mismatched_ = 0, unreadable_ = 0, total_ = 0;
};

// Every game of the store (newest first). False only when the store cannot be opened or listed (said on stderr).
bool verify_store(const std::string& locator, Verifier& v) {
  Result<ReplayStore> store = ReplayStore::open(locator);
  if (!store.ok()) {
    report_error(store_label(locator), store.error());
    return false;
  }
  StoreQuery all;
  all.limit = static_cast<std::size_t>(INT64_MAX);
  Result<std::vector<StoredGame>> games = store.value().recent(all);
  if (!games.ok()) {
    report_error(store_label(locator), games.error());
    return false;
  }
  for (const StoredGame& g : games.value()) {
    Result<std::vector<std::uint8_t>> bytes = store.value().load(g.id);
    v.check(g.id, bytes.ok() ? decode_binary(bytes.value()) : Result<Replay>(bytes.error()));
  }
  return true;
}

int run_verify(const VerifyOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  Verifier v(o.quiet);
  ReplayFileReader reader;  // files of one directory, the usual case, are opened by their names in it
  for (const std::string& file : o.files) v.check(file, reader.load(file));
  const bool store_read = o.store.empty() || verify_store(o.store, v);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  fmt::print("verified {} of {} replays in {} ms\n", v.verified(), v.total(), ms.count());
  return store_read ? v.exit_code() : kExitUnreadable;
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
