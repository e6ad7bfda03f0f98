// stackrace-replay: inspect, verify, convert and index replays. See replays/README.md for every command.
#include <CLI/CLI.hpp>

#include "replays/cli/commands.h"

int main(int argc, char** argv) {
  using namespace sr::replay::cli;
  CLI::App app{"stackrace-replay: inspect, verify, convert and index stackrace replays"};
  app.require_subcommand(1);
  Run run;
  add_info(app, run);
  add_verify(app, run);
  add_export(app, run);
  add_import(app, run);
  add_board(app, run);
  add_fumen(app, run);
  add_list(app, run);
  add_reindex(app, run);
  add_add(app, run);
  add_make_goldens(app, run);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help is a "parse error" that exits 0; real usage errors exit 2.
    const int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitUnreadable;
  }
  return run ? run() : kExitUnreadable;
}
