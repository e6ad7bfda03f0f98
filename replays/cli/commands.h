// stackrace-replay: one function per subcommand. Each registers its CLI11 subcommand and options on `app`, and
// sets `run` to the code that runs when that subcommand was chosen. Exit codes: 0 success, 1 a replay did not
// verify (or make-goldens found a problem), 2 a usage error or an input that cannot be read or played.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace sr::replay::cli {

using Run = std::function<int()>;

void add_info(CLI::App& app, Run& run);
void add_verify(CLI::App& app, Run& run);
void add_export(CLI::App& app, Run& run);
void add_import(CLI::App& app, Run& run);
void add_board(CLI::App& app, Run& run);
void add_fumen(CLI::App& app, Run& run);
void add_list(CLI::App& app, Run& run);
void add_reindex(CLI::App& app, Run& run);
void add_add(CLI::App& app, Run& run);
void add_make_goldens(CLI::App& app, Run& run);  // hidden: regenerates tests/data

inline constexpr int kExitOk = 0;
inline constexpr int kExitMismatch = 1;
inline constexpr int kExitUnreadable = 2;

}  // namespace sr::replay::cli
