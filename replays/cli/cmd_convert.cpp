// export --json FILE and import JSON OUT.
#include <fmt/core.h>

#include <memory>
#include <string>

#include "common/replay/codec.h"
#include "replays/cli/commands.h"
#include "replays/cli/output.h"
#include "replays/store/file_io.h"

namespace sr::replay::cli {

void add_export(CLI::App& app, Run& run) {
  struct Options {
    std::string file;
    std::string out;
    bool json = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("export", "Write a replay in another format (JSON; see FORMAT.md)");
  sub->add_flag("--json", o->json, "Export as JSON (the only export format; fumen has its own command)")->required();
  sub->add_option("FILE", o->file, "Replay file")->required();
  sub->add_option("-o,--output", o->out, "Write here instead of standard output");
  sub->callback([&run, o] {
    run = [o] {
      const std::optional<Replay> replay = load_or_report(o->file);
      if (!replay) return kExitUnreadable;
      const std::string json = encode_json(*replay);
      if (o->out.empty()) {
        fmt::print("{}", json);
        return kExitOk;
      }
      const auto* p = reinterpret_cast<const std::uint8_t*>(json.data());
      if (auto written = write_file_atomic(o->out, std::span<const std::uint8_t>(p, json.size())); !written) {
        report_error(o->out, written.error());
        return kExitUnreadable;
      }
      return kExitOk;
    };
  });
}

void add_import(CLI::App& app, Run& run) {
  struct Options {
    std::string json;
    std::string out;
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub =
      app.add_subcommand("import",
                         "Read a JSON replay (an export, or hand-written; FORMAT.md) and write it as a binary replay.\n"
                         "Racers without a \"result\" or \"checkpoints\" get them recorded by playing their inputs.");
  sub->add_option("JSON", o->json, "JSON replay")->required();
  sub->add_option("OUT", o->out, "Binary replay to write (.srr)")->required();
  sub->callback([&run, o] {
    run = [o] {
      Result<std::vector<std::uint8_t>> text = read_file(o->json);
      if (!text.ok()) {
        report_error(o->json, text.error());
        return kExitUnreadable;
      }
      const auto& b = text.value();
      Result<Replay> r = decode_json(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()),
                                     JsonOptions{.record_missing = true});
      if (!r.ok()) {
        report_error(o->json, r.error());
        return kExitUnreadable;
      }
      const std::vector<std::uint8_t> bytes = encode_binary(r.value());
      if (auto written = write_file_atomic(o->out, bytes); !written) {
        report_error(o->out, written.error());
        return kExitUnreadable;
      }
      fmt::print("wrote {} ({} bytes, {} racers)\n", o->out, bytes.size(), r.value().racers.size());
      return kExitOk;
    };
  });
}

}  // namespace sr::replay::cli
