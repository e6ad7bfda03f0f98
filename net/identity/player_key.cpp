#include "net/identity/player_key.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "net/identity/ladder_secret.h"

namespace sr::net {
namespace {

constexpr std::string_view kFileTag = "stackrace-key 1 ";
constexpr std::size_t kMaxFileBytes = 256;

void ensure_sodium() {
  // sodium_init() is safe to call again (it returns 1); < 0 only when the system's random source is unusable, which
  // no key can be made without.
  if (sodium_init() < 0) std::abort();
}

std::string hex(std::span<const std::uint8_t> bytes) {
  std::string out(bytes.size() * 2 + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), bytes.data(), bytes.size());
  out.pop_back();
  return out;
}

std::string why(const std::filesystem::path& file, const char* doing) {
  return fmt::format("cannot {} the player key file {}: {}", doing, file.string(), std::strerror(errno));
}

sr::Result<PlayerKey, std::string> read_key(const std::filesystem::path& file) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) {
    return sr::fail(fmt::format("cannot read the player key file {}: it is a directory", file.string()));
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) return sr::fail(why(file, "read"));
  std::string text(kMaxFileBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  auto key = PlayerKey::parse(text);
  if (!key) return sr::fail(fmt::format("the player key file {} {}", file.string(), key.error()));
  return key;
}

}  // namespace

PlayerKey PlayerKey::generate() {
  ensure_sodium();
  std::array<std::uint8_t, kKeySeedBytes> seed{};
  randombytes_buf(seed.data(), seed.size());
  PlayerKey key = from_seed(seed);
  sodium_memzero(seed.data(), seed.size());
  return key;
}

PlayerKey PlayerKey::from_seed(std::span<const std::uint8_t, kKeySeedBytes> seed) {
  ensure_sodium();
  PlayerKey key;
  std::copy(seed.begin(), seed.end(), key.seed_.begin());
  crypto_sign_seed_keypair(key.public_.data(), key.secret_.data(), key.seed_.data());
  return key;
}

sr::Result<PlayerKey, std::string> PlayerKey::parse(std::string_view text) {
  if (text.size() > kMaxFileBytes) return sr::fail(std::string("is too long to be a player key"));
  if (!text.starts_with(kFileTag)) return sr::fail(std::string("does not start with \"stackrace-key 1\""));
  std::string_view digits = text.substr(kFileTag.size());
  if (digits.ends_with('\n')) digits.remove_suffix(1);
  if (digits.ends_with('\r')) digits.remove_suffix(1);
  if (digits.size() != kKeySeedBytes * 2) {
    return sr::fail(std::string("does not hold a key (64 hexadecimal digits after \"stackrace-key 1\")"));
  }
  std::array<std::uint8_t, kKeySeedBytes> seed{};
  std::size_t got = 0;
  const char* end = nullptr;
  if (sodium_hex2bin(seed.data(), seed.size(), digits.data(), digits.size(), nullptr, &got, &end) != 0 ||
      got != seed.size() || end != digits.data() + digits.size()) {
    return sr::fail(std::string("does not hold a key (64 hexadecimal digits after \"stackrace-key 1\")"));
  }
  PlayerKey key = from_seed(seed);
  sodium_memzero(seed.data(), seed.size());
  return key;
}

PlayerKey::~PlayerKey() {
  sodium_memzero(seed_.data(), seed_.size());
  sodium_memzero(secret_.data(), secret_.size());
}

std::string PlayerKey::text() const { return std::string(kFileTag) + hex(seed_) + "\n"; }

std::string PlayerKey::short_id() const { return short_key_id(public_); }

Signature PlayerKey::sign(std::span<const std::uint8_t> message) const {
  Signature out{};
  crypto_sign_detached(out.data(), nullptr, message.data(), message.size(), secret_.data());
  return out;
}

bool verify_signature(const PublicKey& key, std::span<const std::uint8_t> message, const Signature& signature) {
  ensure_sodium();
  return crypto_sign_verify_detached(signature.data(), message.data(), message.size(), key.data()) == 0;
}

PlayerKey PlayerKey::derived(std::string_view name) const {
  std::array<std::uint8_t, kKeySeedBytes> seed{};
  crypto_generichash(seed.data(), seed.size(), reinterpret_cast<const unsigned char*>(name.data()), name.size(),
                     seed_.data(), seed_.size());
  PlayerKey key = from_seed(seed);
  sodium_memzero(seed.data(), seed.size());
  return key;
}

sr::Result<PlayerKey, std::string> read_key_file(const std::filesystem::path& file) { return read_key(file); }

sr::Result<PlayerKey, std::string> load_or_create_key(const std::filesystem::path& file, bool& created) {
  created = false;
  std::error_code ec;
  if (std::filesystem::exists(file, ec)) return read_key(file);
  if (ec) return sr::fail(fmt::format("cannot look at {}: {}", file.string(), ec.message()));
  if (file.has_parent_path() && !std::filesystem::exists(file.parent_path(), ec)) {
    std::filesystem::create_directories(file.parent_path(), ec);
    if (ec) {
      return sr::fail(fmt::format("cannot make the directory {} for the player key: {}", file.parent_path().string(),
                                  ec.message()));
    }
    std::filesystem::permissions(file.parent_path(), std::filesystem::perms::owner_all, ec);
  }
  const PlayerKey key = PlayerKey::generate();
  const std::string text = key.text();
  // O_EXCL: two programs starting together must not both make a key; the second reads the first's.
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    if (errno == EEXIST) return read_key(file);
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
  return key;
}

sr::Status<std::string> save_key(const std::filesystem::path& file, const PlayerKey& key) {
  std::error_code ec;
  if (file.has_parent_path()) {
    std::filesystem::create_directories(file.parent_path(), ec);
    if (ec) {
      return fmt::format("cannot make the directory {} for the player key: {}", file.parent_path().string(),
                         ec.message());
    }
  }
  std::filesystem::path temp = file;
  temp += ".new";
  const std::string text = key.text();
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return why(temp, "create");
  ::fchmod(fd, 0600);  // an older .new of other permissions is made owner-only too
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && ::fsync(fd) == 0;
  const int saved = errno;
  ::close(fd);
  if (!written) {
    errno = saved;
    const std::string error = why(temp, "write");
    std::filesystem::remove(temp, ec);
    return error;
  }
  if (::rename(temp.c_str(), file.c_str()) != 0) {
    const std::string error = why(file, "replace");
    std::filesystem::remove(temp, ec);
    return error;
  }
  return {};
}

sr::Result<std::filesystem::path, std::string> default_key_file() {
  auto dir = config_dir("--key");
  if (!dir) return sr::fail(dir.error());
  return dir.value() / "player.key";
}

}  // namespace sr::net
