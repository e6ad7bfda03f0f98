// A child process we talk to in lines over its standard input and output (POSIX: fork, exec, pipes, poll). Used
// for external TBP bots; its standard error is left connected to ours, so its diagnostics stay visible.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

#include "common/result.h"

namespace sr::botcli {

class BotProcess {
 public:
  // Starts `command` with /bin/sh -c: the process, or why it cannot be created ("fork: ...").
  [[nodiscard]] static sr::Result<BotProcess, std::string> start(const std::string& command);

  BotProcess(BotProcess&& other) noexcept;
  BotProcess& operator=(BotProcess&& other) noexcept;
  BotProcess(const BotProcess&) = delete;
  BotProcess& operator=(const BotProcess&) = delete;
  ~BotProcess();  // closes the pipes, waits briefly, then kills the child if it is still there

  // Writes one line (a '\n' is added). False if the child has gone away.
  bool send(const std::string& line);
  // The next line from the child without its '\n', or nullopt on end of file, error or after `timeout_ms`
  // (`timed_out` tells which). A timeout of 0 takes only what has arrived, without waiting. Lines longer than
  // 16 MiB count as an error.
  std::optional<std::string> receive(int timeout_ms, bool* timed_out = nullptr);
  // Closes the child's input and waits up to `timeout_ms` for it to exit; kills it after that.
  void finish(int timeout_ms);

 private:
  BotProcess() = default;
  void close_fds();

  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  std::string buffer_;
};

}  // namespace sr::botcli
