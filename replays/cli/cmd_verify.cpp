// verify FILE...: re-simulates every racer of every file and compares with what the file recorded.
#include <fmt/core.h>

#include <chrono>
#include <memory>
#include <vector>

#include "common/replay/verify.h"
#include "replays/cli/commands.h"
#include "replays/cli/output.h"
#include "replays/store/file_io.h"

namespace sr::replay::cli {
namespace {

struct VerifyOptions {
  std::vector<std::string> files;
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

int run_verify(const VerifyOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  std::size_t verified = 0, mismatched = 0, unreadable = 0;
  ReplayFileReader reader;  // files of one directory, the usual case, are opened by their names in it
  for (const std::string& file : o.files) {
    Result<Replay> r = reader.load(file);
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
  fmt::print("verified {} of {} replays in {} ms\n", verified, o.files.size(), ms.count());
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
  sub->add_option("FILE", o->files, "Replay files (binary, or JSON exports)")->required();
  sub->add_flag("-q,--quiet", o->quiet, "Print only the files that did not verify, and the summary");
  sub->callback([&run, o] { run = [o] { return run_verify(*o); }; });
}

}  // namespace sr::replay::cli
