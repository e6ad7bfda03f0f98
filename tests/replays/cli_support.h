// Helpers of the tests that run the built stackrace-replay (cli_test.cpp, cli_verify_test.cpp).
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

#include "tests/support/run_command.h"

namespace sr::replay::testing {

struct ToolRun {
  int exit_code = -1;
  std::string out;  // stdout and stderr together
};

// Runs the tool with `args` (already shell-quoted where needed) in the current directory, or in `dir` when given.
inline ToolRun tool(const std::string& args, const std::filesystem::path& dir = {}) {
  const std::string cd = dir.empty() ? "" : "cd '" + dir.string() + "' && ";
  const test::CommandRun r = test::run_command(cd + STACKRACE_REPLAY_BIN + " " + args);
  return {r.exit_code, r.output};
}

// A fresh directory for one test, removed with everything in it at the end.
class TempDir {
 public:
  explicit TempDir(const std::string& tag = "sr_cli_test")
      : path_(std::filesystem::temp_directory_path() / (tag + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace sr::replay::testing
