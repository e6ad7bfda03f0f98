// A process's memory as Linux reports it in /proc/PID/status: what stackrace-abuse samples of the server.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string_view>

namespace sr::abuse {

struct MemoryFigures {
  std::int64_t rss_kb = 0;  // VmRSS: resident now
  std::int64_t hwm_kb = 0;  // VmHWM: the most ever resident
};

// The VmRSS and VmHWM lines of a /proc/PID/status text ("VmRSS:\t  1234 kB"); nullopt when either is missing or
// not a number in kB (a kernel thread, or a process that is gone has neither).
[[nodiscard]] std::optional<MemoryFigures> parse_proc_status(std::string_view text);

// Reads /proc/`pid`/status; nullopt when the process is gone or the file has no figures.
[[nodiscard]] std::optional<MemoryFigures> read_memory(pid_t pid);

}  // namespace sr::abuse
