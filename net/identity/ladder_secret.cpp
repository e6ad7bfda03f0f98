#include "net/identity/ladder_secret.h"

#include <fmt/format.h>

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

sr::Result<std::filesystem::path, std::string> config_dir(std::string_view option) {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && *xdg != '\0') {
    return std::filesystem::path(xdg) / "stackrace";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::filesystem::path(home) / ".config" / "stackrace";
  }
  return sr::fail(fmt::format("neither XDG_CONFIG_HOME nor HOME is set: give the file with {}", option));
}

sr::Result<std::filesystem::path, std::string> default_secret_file(const std::string& entrant) {
  auto dir = config_dir("--secret-file");
  if (!dir) return sr::fail(dir.error());
  return ladder_secret_file_in(dir.value() / "ladder", entrant);
}

sr::Result<std::optional<protocol::LadderSecret>, std::string> read_legacy_secret(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) {
    if (ec) return sr::fail(fmt::format("cannot look at {}: {}", file.string(), ec.message()));
    return std::optional<protocol::LadderSecret>();
  }
  auto secret = read_secret(file);
  if (!secret) return sr::fail(secret.error());
  return std::optional<protocol::LadderSecret>(secret.value());
}

}  // namespace sr::net
