// File edges of the replay tools: whole-file reads with a size cap, and atomic writes (temporary file in the same
// directory, fsync, rename, fsync of the directory), so a crash leaves either the old file or the new one.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/replay/error.h"
#include "common/replay/replay.h"
#include "common/result.h"

namespace sr::replay {

inline constexpr std::uintmax_t kMaxReplayFileBytes = std::uintmax_t{64} << 20;

// The file's bytes. # Errors: kIo (missing, unreadable, larger than max_bytes).
[[nodiscard]] Result<std::vector<std::uint8_t>> read_file(const std::filesystem::path& path,
                                                          std::uintmax_t max_bytes = kMaxReplayFileBytes);

// Writes `bytes` to `path` atomically. Returns ok, or an error message. A failed write (a full disk) leaves no
// temporary file behind; one interrupted by a crash leaves `.<name>.tmp-<pid>`, which temp_file_pid() recognises.
[[nodiscard]] sr::Status<std::string> write_file_atomic(const std::filesystem::path& path,
                                                        std::span<const std::uint8_t> bytes);

// The process id in the name of a temporary file write_file_atomic() makes (".<name>.tmp-<pid>"), or 0 when `name`
// is not one.
[[nodiscard]] long temp_file_pid(const std::string& name);

// Makes the rename or unlink of an entry of `dir` durable. Returns ok, or an error message.
[[nodiscard]] sr::Status<std::string> sync_dir(const std::filesystem::path& dir);

// Ok if a file can be created, written, synced and removed in `dir`; otherwise a sentence saying what is wrong
// ("... is on a read-only file system", "... is not writable by this user").
[[nodiscard]] sr::Status<std::string> check_writable(const std::filesystem::path& dir);

// Bytes an unprivileged user may still write on the file system holding `path` (statvfs), or nullopt if unknown.
[[nodiscard]] std::optional<std::uint64_t> free_bytes(const std::filesystem::path& path);

// # Fault injection (tests only)
// Makes the next file writes of this process fail the way a full disk or a read-only disk does, so that the store's
// handling of those can be tested by a test running as root (for whom chmod does not block writes). errno values:
// create_errno fails open() (EROFS, EACCES); write_errno fails write() after half the bytes (ENOSPC), leaving a
// partial temporary file for write_file_atomic() to clean. 0 = no fault. Not for concurrent use with writes.
struct IoFaults {
  int create_errno = 0;
  int write_errno = 0;
};
void set_io_faults(IoFaults faults);

// Reads a replay file: binary (starts with "SRRP"), or its JSON export (starts with '{' after white space).
// JSON is read as exported: a hand-written file with missing results needs `stackrace-replay import` first.
[[nodiscard]] Result<Replay> load_replay_file(const std::filesystem::path& path);

// load_replay_file() for a caller that reads many files, such as a verifier: the same replays and the same errors,
// with fewer system calls. It keeps the directory of the last file open and opens a file of that same directory by
// its name in it (the kernel walks one path component, not the whole path again), and reuses one buffer for the
// bytes. A directory renamed between two loads keeps being read where it now is.
class ReplayFileReader {
 public:
  ReplayFileReader() = default;
  ReplayFileReader(const ReplayFileReader&) = delete;
  ReplayFileReader& operator=(const ReplayFileReader&) = delete;
  ~ReplayFileReader();

  // A path as given (a std::filesystem::path is made of it only for an error: splitting it into its components costs
  // an allocation per file).
  [[nodiscard]] Result<Replay> load(const std::string& path);

 private:
  std::string dir_;  // the directory of dir_fd_, as the last path spelled it
  int dir_fd_ = -1;
  std::vector<std::uint8_t> bytes_;
};

}  // namespace sr::replay
