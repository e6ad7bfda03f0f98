// make-goldens DIR (hidden): writes the golden replay set (common/replay/sample/goldens.h) and the JSON golden.
#include <fmt/core.h>

#include <filesystem>
#include <memory>

#include "common/replay/codec.h"
#include "common/replay/sample/goldens.h"
#include "common/replay/verify.h"
#include "replays/cli/commands.h"
#include "replays/cli/output.h"
#include "replays/store/file_io.h"

namespace sr::replay::cli {

void add_make_goldens(CLI::App& app, Run& run) {
  auto dir = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand(
      "make-goldens", "Regenerate the golden replays (tests/data/current) with the scripted players; see FORMAT.md");
  sub->group("");  // hidden from the main --help
  sub->add_option("DIR", *dir, "Directory to write into (tests/data/current)")->required();
  sub->callback([&run, dir] {
    run = [dir] {
      const sample::GoldenSet set = sample::make_goldens();
      int rc = kExitOk;
      std::error_code ec;
      std::filesystem::create_directories(*dir, ec);
      for (const sample::Golden& g : set.goldens) {
        const std::filesystem::path path = std::filesystem::path(*dir) / g.file;
        const std::vector<std::uint8_t> bytes = encode_binary(g.replay);
        if (auto written = write_file_atomic(path, bytes); !written) {
          report_error(path.string(), written.error());
          return kExitUnreadable;
        }
        const VerifyReport report = verify(g.replay);
        fmt::print("{} ({} bytes): {}; {}\n", path.string(), bytes.size(), g.describes, report.message);
        if (report.verdict != Verdict::kVerified) rc = kExitMismatch;
        if (g.file == sample::kJsonGolden) {
          const std::string json = encode_json(g.replay);
          std::filesystem::path json_path = path;
          json_path.replace_extension(".json");
          const auto* p = reinterpret_cast<const std::uint8_t*>(json.data());
          if (auto written = write_file_atomic(json_path, std::span<const std::uint8_t>(p, json.size())); !written) {
            report_error(json_path.string(), written.error());
            return kExitUnreadable;
          }
          fmt::print("{} ({} bytes): JSON export of {}\n", json_path.string(), json.size(), g.file);
        }
      }
      for (const std::string& p : set.problems) {
        fmt::print(stderr, "stackrace-replay: golden not as designed: {}\n", p);
        rc = kExitMismatch;
      }
      return rc;
    };
  });
}

}  // namespace sr::replay::cli
