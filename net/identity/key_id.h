// A player key's short id (PROTOCOL.md "Player keys"): the first 4 bytes of the BLAKE2b-256 hash of the Ed25519
// public key, as 8 lower-case hex digits. Settings shows it for the player's own key; replay lists show it beside a
// name that two keys raced under. Apart from player_key.h so that the replay store and stackrace-replay need only
// libsodium's hash, not the key files.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace sr::net {

[[nodiscard]] std::string short_key_id(const std::array<std::uint8_t, 32>& public_key);

}  // namespace sr::net
