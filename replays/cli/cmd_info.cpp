// info FILE: the header, the rules, and every racer's result.
#include <fmt/core.h>

#include <filesystem>
#include <memory>

#include "common/replay/detail/text_codec.h"
#include "common/replay/names.h"
#include "net/identity/player_key.h"
#include "replays/cli/commands.h"
#include "replays/cli/output.h"
#include "replays/store/file_io.h"

namespace sr::replay::cli {
namespace {

void print_info(const std::string& file, const Replay& r) {
  const engine::GameConfig& c = r.config;
  std::error_code ec;
  const auto size = std::filesystem::file_size(file, ec);
  fmt::print("file: {} ({} bytes)\n", file, ec ? 0 : size);
  fmt::print("format: v{}, rules: v{}\n", kFormatVersion, r.rules_version);
  fmt::print("created: {}\n", format_date(r.created_unix_ms));
  fmt::print("place: {}\n", r.place);
  fmt::print("mode: {}, ranked by {}\n", mode_summary(c), names::name_of(names::kGoal, c.goal));
  fmt::print(
      "rules: rotation {}{}, generator {}, hold {}, preview {}, gravity {} from level {}{}, lock down {} "
      "({} ms, {} resets), scoring {}{}\n",
      names::name_of(names::kRotation, c.rotation), c.allow_180 ? "" : " (no 180)",
      names::name_of(names::kGenerator, c.generator), c.hold_enabled ? "on" : "off", c.preview,
      names::name_of(names::kGravity, c.gravity), c.start_level, c.level_up ? "" : " (no level up)",
      names::name_of(names::kLockDown, c.lock_down), c.lock_delay_us / 1000, c.max_lock_resets,
      names::name_of(names::kScoring, c.scoring), c.all_spin ? ", all-spin" : "");
  if (!c.fixed_sequence.empty()) fmt::print("fixed sequence: {}\n", detail::pieces_text(c.fixed_sequence));
  if (!c.initial_board.empty()) fmt::print("initial board: {} rows\n", c.initial_board.size());
  fmt::print("seed: {}\n", r.seed);
  fmt::print("checkpoints: every {} pieces\n", r.checkpoint_every);
  fmt::print("racers: {}\n", r.racers.size());
  for (std::size_t i = 0; i < r.racers.size(); ++i) {
    const Racer& racer = r.racers[i];
    const engine::Handling& h = racer.handling;
    fmt::print("  {} {}: {}\n", i, racer.name, result_summary(racer.result, c));
    fmt::print(
        "    {} inputs, {} checkpoints; handling: das {} ms, arr {} ms, sdf {}, dcd {} ms, are {} ms, "
        "line clear {} ms{}{}\n",
        racer.inputs.size(), racer.checkpoints.size(), h.das_us / 1000.0, h.arr_us / 1000.0, h.sdf, h.dcd_us / 1000.0,
        h.are_us / 1000.0, h.line_clear_delay_us / 1000.0, h.irs ? ", irs" : "", h.ihs ? ", ihs" : "");
    if (racer.key) fmt::print("    key {} ({})\n", net::short_key_id(*racer.key), key_hex(*racer.key));
  }
}

}  // namespace

void add_info(CLI::App& app, Run& run) {
  auto file = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand("info", "Show a replay's header, rules and every racer's result");
  sub->add_option("FILE", *file, "Replay file (binary, or its JSON export)")->required();
  sub->callback([&run, file] {
    run = [file] {
      const std::optional<Replay> replay = load_or_report(*file);
      if (!replay) return kExitUnreadable;
      print_info(*file, *replay);
      return kExitOk;
    };
  });
}

}  // namespace sr::replay::cli
