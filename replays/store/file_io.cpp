#include "replays/store/file_io.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "common/replay/codec.h"

namespace sr::replay {
namespace {

std::string errno_text() { return std::strerror(errno); }

Error io_error(std::string message) { return Error{ErrorKind::kIo, std::move(message), {}, -1}; }

bool write_all(int fd, std::span<const std::uint8_t> bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

Result<std::vector<std::uint8_t>> read_file(const std::filesystem::path& path, std::uintmax_t max_bytes) {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return io_error("cannot read " + path.string() + ": " + ec.message());
  if (size > max_bytes) {
    return io_error(path.string() + " is " + std::to_string(size) + " bytes, more than the " +
                    std::to_string(max_bytes) + " a replay may have");
  }
  std::ifstream in(path, std::ios::binary);
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
  if (!in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()))) {
    return io_error("cannot read " + path.string());
  }
  return bytes;
}

sr::Status<std::string> write_file_atomic(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  const std::filesystem::path tmp = dir / ("." + path.filename().string() + ".tmp-" + std::to_string(::getpid()));
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
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
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    (void)::fsync(dfd);
    ::close(dfd);
  }
  return {};
}

Result<Replay> load_replay_file(const std::filesystem::path& path) {
  Result<std::vector<std::uint8_t>> bytes = read_file(path);
  if (!bytes.ok()) return bytes.error();
  const std::vector<std::uint8_t>& b = bytes.value();
  std::size_t first = 0;
  while (first < b.size() && (b[first] == ' ' || b[first] == '\n' || b[first] == '\r' || b[first] == '\t')) ++first;
  if (first < b.size() && b[first] == '{') {
    return decode_json(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()));
  }
  return decode_binary(b);
}

}  // namespace sr::replay
