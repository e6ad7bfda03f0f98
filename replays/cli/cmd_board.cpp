// board FILE and fumen FILE: a racer's matrix as text at a chosen moment, and the whole game as a fumen.
#include <fmt/core.h>

#include <memory>
#include <string>

#include "common/replay/board_text.h"
#include "common/replay/fumen.h"
#include "common/replay/simulate.h"
#include "replays/cli/commands.h"
#include "replays/cli/output.h"
#include "replays/store/file_io.h"

namespace sr::replay::cli {

void add_board(CLI::App& app, Run& run) {
  struct Options {
    std::string file;
    std::size_t racer = 0;
    std::int64_t piece = -1;
    std::int64_t time_ms = -1;
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand(
      "board",
      "Print a racer's matrix as text: the 20 visible rows, top row first ('.' empty, IJLOSTZ blocks, G garbage),\n"
      "then the current piece, hold, queue and stats lines. Default: the end of the recording.");
  sub->add_option("FILE", o->file, "Replay file")->required();
  sub->add_option("--racer", o->racer, "Racer index (0 = first; see info)");
  CLI::Option* piece = sub->add_option("--piece", o->piece, "Right after this many pieces locked (0 = the start)")
                           ->check(CLI::NonNegativeNumber);
  CLI::Option* time =
      sub->add_option("--time-ms", o->time_ms, "At this game time in milliseconds")->check(CLI::NonNegativeNumber);
  piece->excludes(time);
  sub->callback([&run, o] {
    run = [o] {
      const std::optional<Replay> replay = load_or_report(o->file);
      if (!replay) return kExitUnreadable;
      ViewPoint at;
      if (o->piece >= 0) at = {ViewPoint::Kind::kPiece, o->piece};
      if (o->time_ms >= 0) at = {ViewPoint::Kind::kTime, o->time_ms * 1000};
      Result<engine::Game> game = game_at(*replay, o->racer, at);
      if (!game.ok()) {
        report_error(o->file, game.error());
        return kExitUnreadable;
      }
      fmt::print("{}", board_text(game.value()));
      return kExitOk;
    };
  });
}

void add_fumen(CLI::App& app, Run& run) {
  struct Options {
    std::string file;
    std::size_t racer = 0;
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand(
      "fumen", "Print a racer's game as a fumen v115 string, one page per placed piece (paste it into a fumen editor)");
  sub->add_option("FILE", o->file, "Replay file")->required();
  sub->add_option("--racer", o->racer, "Racer index (0 = first; see info)");
  sub->callback([&run, o] {
    run = [o] {
      const std::optional<Replay> replay = load_or_report(o->file);
      if (!replay) return kExitUnreadable;
      Result<FumenExport> f = replay_fumen(*replay, o->racer);
      if (!f.ok()) {
        report_error(o->file, f.error());
        return kExitUnreadable;
      }
      fmt::print("{}\n", f.value().fumen);
      if (f.value().pages < f.value().pieces_locked) {
        fmt::print(stderr,
                   "stackrace-replay: {}: the fumen stops after {} of {} pieces (a piece locked above row 22)\n",
                   o->file, f.value().pages, f.value().pieces_locked);
      }
      return kExitOk;
    };
  });
}

}  // namespace sr::replay::cli
