#include "replays/store/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string_view>

#include "common/replay/codec.h"

namespace sr::replay {
namespace {

std::string errno_text() { return std::strerror(errno); }

Error io_error(std::string message) { return Error{ErrorKind::kIo, std::move(message), {}, -1}; }

std::atomic<int> g_create_errno{0};
std::atomic<int> g_write_errno{0};

int open_for_write(const std::filesystem::path& path, int extra_flags) {
  if (const int e = g_create_errno.load(); e != 0) {
    errno = e;
    return -1;
  }
  return ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | extra_flags, 0644);
}

bool write_all(int fd, std::span<const std::uint8_t> bytes) {
  std::size_t done = 0;
  const int fault = g_write_errno.load();
  const std::size_t limit = fault != 0 ? bytes.size() / 2 : bytes.size();
  while (done < limit) {
    const ssize_t n = ::write(fd, bytes.data() + done, limit - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  if (fault != 0) {
    errno = fault;
    return false;
  }
  return true;
}

// Why `path` cannot be read, in the words of a check by name (stat) before any reading: missing, not a regular file,
// too large, or else (say, no read permission) just "cannot read". read_file() comes here only once something
// failed, so the sentences stay those of the std::filesystem::file_size() check it replaces.
Error read_failure(const std::string& path, std::uintmax_t max_bytes) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return io_error("cannot read " + path + ": " + errno_text());
  if (S_ISDIR(st.st_mode)) return io_error("cannot read " + path + ": " + std::strerror(EISDIR));
  if (!S_ISREG(st.st_mode)) return io_error("cannot read " + path + ": " + std::strerror(EOPNOTSUPP));
  const auto size = static_cast<std::uintmax_t>(st.st_size);
  if (size > max_bytes) {
    return io_error(path + " is " + std::to_string(size) + " bytes, more than the " + std::to_string(max_bytes) +
                    " a replay may have");
  }
  return io_error("cannot read " + path);
}

// read_file() of `path`, opened as `name` relative to the directory `dir_fd` (AT_FDCWD: `path` itself), into `bytes`.
// The errors are always those of `path`.
sr::Status<Error> read_file_at(int dir_fd, const char* name, const std::string& path, std::uintmax_t max_bytes,
                               std::vector<std::uint8_t>& bytes) {
  // One open, one fstat, one read for a file that is as it should be. O_NONBLOCK: opening a FIFO must not wait.
  const int fd = ::openat(dir_fd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return read_failure(path, max_bytes);
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || static_cast<std::uintmax_t>(st.st_size) > max_bytes) {
    ::close(fd);
    return read_failure(path, max_bytes);
  }
  bytes.resize(static_cast<std::size_t>(st.st_size));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (done != bytes.size()) return io_error("cannot read " + path);
  return {};
}

Result<Replay> decode_replay_file(std::span<const std::uint8_t> b) {
  std::size_t first = 0;
  while (first < b.size() && (b[first] == ' ' || b[first] == '\n' || b[first] == '\r' || b[first] == '\t')) ++first;
  if (first < b.size() && b[first] == '{') {
    return decode_json(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()));
  }
  return decode_binary(b);
}

}  // namespace

Result<std::vector<std::uint8_t>> read_file(const std::filesystem::path& path, std::uintmax_t max_bytes) {
  std::vector<std::uint8_t> bytes;
  if (auto s = read_file_at(AT_FDCWD, path.c_str(), path.native(), max_bytes, bytes); !s) return s.error();
  return bytes;
}

sr::Status<std::string> write_file_atomic(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  const std::filesystem::path tmp = dir / ("." + path.filename().string() + ".tmp-" + std::to_string(::getpid()));
  const int fd = open_for_write(tmp, O_TRUNC);
  if (fd < 0) return "cannot create " + tmp.string() + ": " + errno_text();
  const bool ok = write_all(fd, bytes) && ::fsync(fd) == 0;
  const std::string why = ok ? "" : errno_text();
  if (::close(fd) != 0 || !ok) {
    ::unlink(tmp.c_str());
    return "cannot write " + tmp.string() + ": " + (why.empty() ? errno_text() : why);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string e = errno_text();
    ::unlink(tmp.c_str());
    return "cannot rename " + tmp.string() + " to " + path.string() + ": " + e;
  }
  // The rename itself is durable only once the directory is synced.
  return sync_dir(dir);
}

long temp_file_pid(const std::string& name) {
  static constexpr std::string_view kTag = ".tmp-";
  if (name.size() < 2 || name[0] != '.') return 0;
  const std::size_t at = name.rfind(kTag);
  if (at == std::string::npos || at + kTag.size() == name.size()) return 0;
  long pid = 0;
  for (std::size_t i = at + kTag.size(); i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9' || pid > 100'000'000) return 0;
    pid = pid * 10 + (name[i] - '0');
  }
  return pid;
}

sr::Status<std::string> sync_dir(const std::filesystem::path& dir) {
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) return "cannot open " + dir.string() + ": " + errno_text();
  const bool ok = ::fsync(dfd) == 0;
  const std::string why = ok ? "" : errno_text();
  ::close(dfd);
  if (!ok) return "cannot sync " + dir.string() + ": " + why;
  return {};
}

sr::Status<std::string> check_writable(const std::filesystem::path& dir) {
  const std::filesystem::path probe = dir / (".write-probe.tmp-" + std::to_string(::getpid()));
  const int fd = open_for_write(probe, O_TRUNC);
  if (fd < 0) {
    const int e = errno;
    if (e == EROFS) return dir.string() + " is on a read-only file system";
    if (e == EACCES || e == EPERM) return dir.string() + " is not writable by this user (" + std::strerror(e) + ")";
    return "cannot create a file in " + dir.string() + ": " + std::strerror(e);
  }
  static constexpr std::uint8_t kByte[1] = {0};
  const bool ok = write_all(fd, kByte) && ::fsync(fd) == 0;
  const std::string why = ok ? "" : errno_text();
  ::close(fd);
  ::unlink(probe.c_str());
  if (!ok) return "cannot write a file in " + dir.string() + ": " + why;
  return {};
}

std::optional<std::uint64_t> free_bytes(const std::filesystem::path& path) {
  struct statvfs s {};
  if (::statvfs(path.c_str(), &s) != 0) return std::nullopt;
  return static_cast<std::uint64_t>(s.f_bavail) * static_cast<std::uint64_t>(s.f_frsize);
}

void set_io_faults(IoFaults faults) {
  g_create_errno.store(faults.create_errno);
  g_write_errno.store(faults.write_errno);
}

Result<Replay> load_replay_file(const std::filesystem::path& path) {
  Result<std::vector<std::uint8_t>> bytes = read_file(path);
  if (!bytes.ok()) return bytes.error();
  return decode_replay_file(bytes.value());
}

ReplayFileReader::~ReplayFileReader() {
  if (dir_fd_ >= 0) ::close(dir_fd_);
}

Result<Replay> ReplayFileReader::load(const std::string& p) {
  const std::size_t slash = p.rfind('/');
  int at = AT_FDCWD;
  const char* name = p.c_str();
  if (slash != std::string::npos && slash + 1 < p.size()) {
    const std::string_view dir(p.data(), slash == 0 ? 1 : slash);
    if (dir_fd_ < 0 || dir != dir_) {
      if (dir_fd_ >= 0) ::close(dir_fd_);
      dir_ = dir;
      // O_PATH: a directory that may be searched but not listed still works.
      dir_fd_ = ::open(dir_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    }
    // Without the directory (missing, not one), the whole path is opened, for its error.
    if (dir_fd_ >= 0) {
      at = dir_fd_;
      name = p.c_str() + slash + 1;
    }
  }
  if (auto s = read_file_at(at, name, p, kMaxReplayFileBytes, bytes_); !s) return s.error();
  return decode_replay_file(bytes_);
}

}  // namespace sr::replay
