// A player's key (PROTOCOL.md "Player keys"): an Ed25519 key pair (libsodium) made on the game's first start and kept
// in the config directory, readable by its owner only. At Hello the game signs the server's random challenge with it;
// each server binds a name to the first key that uses it, so the same person keeps their name from any address and
// no one else can take it. The file holds the key's 32-byte seed as text, so it can be exported (copied) and imported
// on another computer. Bots derive one key per bot name from a single key file (derived_key).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/protocol/records.h"
#include "common/result.h"
#include "net/identity/key_id.h"

namespace sr::net {

inline constexpr std::size_t kKeySeedBytes = 32;
using PublicKey = protocol::PublicKeyBytes;  // as Hello carries them
using Signature = protocol::SignatureBytes;

class PlayerKey {
 public:
  // A new key from the system's random source.
  [[nodiscard]] static PlayerKey generate();
  // The key of a 32-byte seed (the same seed always gives the same key).
  [[nodiscard]] static PlayerKey from_seed(std::span<const std::uint8_t, kKeySeedBytes> seed);
  // A key file's text: "stackrace-key 1 " and 64 hexadecimal digits (the seed), then a newline (optional), and
  // nothing else. An error sentence for anything else.
  [[nodiscard]] static sr::Result<PlayerKey, std::string> parse(std::string_view text);

  PlayerKey(const PlayerKey&) = default;
  PlayerKey& operator=(const PlayerKey&) = default;
  ~PlayerKey();

  // What parse() reads.
  [[nodiscard]] std::string text() const;
  [[nodiscard]] const PublicKey& public_key() const { return public_; }
  // short_key_id(public_key()).
  [[nodiscard]] std::string short_id() const;
  [[nodiscard]] Signature sign(std::span<const std::uint8_t> message) const;
  // The key of bot `name` under this one: its seed is BLAKE2b-256 of the name keyed by this key's seed. One key file
  // gives a fleet of bots a stable key each (the same name, the same key, run after run).
  [[nodiscard]] PlayerKey derived(std::string_view name) const;

 private:
  PlayerKey() = default;
  std::array<std::uint8_t, kKeySeedBytes> seed_{};
  std::array<std::uint8_t, 64> secret_{};  // libsodium's secret key: the seed and the public key
  PublicKey public_{};
};

// Whether `signature` is `key`'s signature of `message`.
[[nodiscard]] bool verify_signature(const PublicKey& key, std::span<const std::uint8_t> message,
                                    const Signature& signature);

// A key's short id, as players see it beside a name: the first 8 hexadecimal digits of the BLAKE2b-256 hash of the
// public key ("3fa2c9d1").

// Reads the key from `file`, or, if the file does not exist, makes a new key there (its directory made with mode
// 0700, the file with 0600). `created` says which. An error sentence naming the file otherwise.
[[nodiscard]] sr::Result<PlayerKey, std::string> load_or_create_key(const std::filesystem::path& file, bool& created);
// Reads the key from `file` (an exported key being imported). An error sentence naming the file otherwise.
[[nodiscard]] sr::Result<PlayerKey, std::string> read_key_file(const std::filesystem::path& file);
// Writes `key` to `file` (replacing it; mode 0600; written to a temporary file, synced and renamed, so a crash leaves
// the old key or the new one). Ok, or an error sentence.
[[nodiscard]] sr::Status<std::string> save_key(const std::filesystem::path& file, const PlayerKey& key);

// $XDG_CONFIG_HOME/stackrace/player.key, or ~/.config/stackrace/player.key; an error sentence when neither
// XDG_CONFIG_HOME nor HOME is set.
[[nodiscard]] sr::Result<std::filesystem::path, std::string> default_key_file();

}  // namespace sr::net
