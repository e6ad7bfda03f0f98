#include "net/identity/ladder_secret.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace sr::net {
namespace {

std::string why(const std::filesystem::path& file, const char* doing) {
  return fmt::format("cannot {} the ladder secret file {}: {}", doing, file.string(), std::strerror(errno));
}

std::optional<std::uint64_t> parse_hex64(const std::string& text) {
  if (text.size() != 16) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : text) {
    int d = 0;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      d = c - 'A' + 10;
    else
      return std::nullopt;
    v = (v << 4) | static_cast<std::uint64_t>(d);
  }
  return v;
}

sr::Result<protocol::LadderSecret, std::string> read_secret(const std::filesystem::path& file) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) {
    return sr::fail(fmt::format("cannot read the ladder secret file {}: it is a directory", file.string()));
  }
  std::ifstream in(file);
  if (!in) return sr::fail(why(file, "read"));
  std::string line;
  std::getline(in, line);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  const auto hi = line.size() == 32 ? parse_hex64(line.substr(0, 16)) : std::nullopt;
  const auto lo = line.size() == 32 ? parse_hex64(line.substr(16)) : std::nullopt;
  if (!hi || !lo) {
    return sr::fail(
        fmt::format("the ladder secret file {} does not hold a secret (32 hexadecimal digits)", file.string()));
  }
  return protocol::LadderSecret{*hi, *lo};
}

}  // namespace

namespace {

std::string file_name(std::string_view entrant, bool lower) {
  std::string name(entrant);
  for (char& c : name) {
    if (c == '/') c = '_';
    if (lower && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return name + ".secret";
}

}  // namespace

std::string ladder_secret_file_name(std::string_view entrant) { return file_name(entrant, true); }

std::filesystem::path ladder_secret_file_in(const std::filesystem::path& dir, std::string_view entrant) {
  const std::filesystem::path file = dir / ladder_secret_file_name(entrant);
  std::error_code ec;
  if (std::filesystem::exists(file, ec)) return file;
  const std::filesystem::path exact = dir / file_name(entrant, false);
  return exact != file && std::filesystem::exists(exact, ec) ? exact : file;
}

sr::Result<std::filesystem::path, std::string> default_secret_file(const std::string& entrant) {
  std::filesystem::path base;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && *xdg != '\0') {
    base = xdg;
  } else if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    base = std::filesystem::path(home) / ".config";
  } else {
    return sr::fail(std::string("neither XDG_CONFIG_HOME nor HOME is set: give the secret file with --secret-file"));
  }
  return ladder_secret_file_in(base / "stackrace" / "ladder", entrant);
}

sr::Result<protocol::LadderSecret, std::string> load_or_create_secret(const std::filesystem::path& file,
                                                                      bool& created) {
  created = false;
  std::error_code ec;
  if (std::filesystem::exists(file, ec)) return read_secret(file);
  if (ec) return sr::fail(fmt::format("cannot look at {}: {}", file.string(), ec.message()));
  if (file.has_parent_path() && !std::filesystem::exists(file.parent_path(), ec)) {
    std::filesystem::create_directories(file.parent_path(), ec);
    if (ec) {
      return sr::fail(fmt::format("cannot make the directory {} for the ladder secret: {}", file.parent_path().string(),
                                  ec.message()));
    }
    std::filesystem::permissions(file.parent_path(), std::filesystem::perms::owner_all, ec);
  }
  std::array<unsigned char, 16> bytes{};
  if (getrandom(bytes.data(), bytes.size(), 0) != static_cast<ssize_t>(bytes.size())) {
    return sr::fail(fmt::format("cannot draw random bits for a ladder secret: {}", std::strerror(errno)));
  }
  protocol::LadderSecret secret;
  for (std::size_t i = 0; i < 8; ++i) {
    secret.hi = (secret.hi << 8) | bytes[i];
    secret.lo = (secret.lo << 8) | bytes[8 + i];
  }
  const std::string text = fmt::format("{:016x}{:016x}\n", secret.hi, secret.lo);
  // O_EXCL: two bots starting together must not both make a secret; the second reads the first's.
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    if (errno == EEXIST) return read_secret(file);
    return sr::fail(why(file, "create"));
  }
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && ::fsync(fd) == 0;
  const int saved = errno;
  ::close(fd);
  if (!written) {
    errno = saved;
    const std::string error = why(file, "write");
    std::filesystem::remove(file, ec);
    return sr::fail(error);
  }
  created = true;
  return secret;
}

}  // namespace sr::net
