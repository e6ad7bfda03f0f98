// Running a program from a test as a user types it: one shell command line, its standard output and error merged.
// (tests/deploy/process.h runs children with timeouts and signals; this is for programs that simply run to the end.)
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace sr::test {

struct CommandRun {
  int exit_code = -1;  // -1: it could not start, or a signal ended it
  std::string output;  // stdout and stderr together
};

inline CommandRun run_command(const std::string& command_line) {
  CommandRun r;
  FILE* pipe = ::popen((command_line + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace sr::test
