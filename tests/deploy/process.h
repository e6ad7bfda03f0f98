// Running the built programs and scripts from a test: a child process with extra environment variables and its
// standard output and error merged into one text.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sr::test {

struct ProcessResult {
  int exit_code = -1;  // -1: killed by a signal or timed out
  std::string output;  // stdout and stderr
};

class ChildProcess {
 public:
  ChildProcess() = default;
  ~ChildProcess();  // kills a child still running
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Starts argv[0] (a path) with the environment plus `extra_env` ("NAME=value"). False if it could not start.
  bool start(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env = {});
  // Reads output until `done(output so far)` holds, the child exits, or the timeout. Returns done's last answer.
  bool read_until(const std::function<bool(const std::string&)>& done, std::chrono::milliseconds timeout);
  // Waits for the exit (reading output meanwhile). The exit code, or nullopt on timeout or a signal.
  std::optional<int> wait(std::chrono::milliseconds timeout);
  void signal(int sig);
  [[nodiscard]] const std::string& output() const { return output_; }
  [[nodiscard]] bool running() const { return pid_ > 0 && !exited_; }

 private:
  bool read_some(std::chrono::milliseconds timeout);
  void reap(bool block);

  pid_t pid_ = -1;
  int out_fd_ = -1;
  bool exited_ = false;
  std::optional<int> exit_code_;
  std::string output_;
};

// Runs a program to its end.
[[nodiscard]] ProcessResult run_process(const std::vector<std::string>& argv,
                                        const std::vector<std::string>& extra_env = {},
                                        std::chrono::milliseconds timeout = std::chrono::seconds(120));

// A TCP port that was free a moment ago (bound to 127.0.0.1:0, then released).
[[nodiscard]] std::uint16_t free_tcp_port();

// A fresh empty directory under the system's temporary directory; removed by the destructor.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

[[nodiscard]] std::string read_text_file(const std::filesystem::path& path);

}  // namespace sr::test
