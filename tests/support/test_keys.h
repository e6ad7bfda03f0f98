// Player keys for tests (net/identity/player_key.h): a stable key per name, and a Hello signed for the challenge a
// server sent (PROTOCOL.md "Player keys").
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/protocol/messages.h"
#include "net/identity/player_key.h"

namespace sr::test {

// The same name always gives the same key (derived from one fixed seed), so a test that comes back under a name
// comes back with its key; two names, two keys.
inline net::PlayerKey test_key(std::string_view name) {
  static const net::PlayerKey base = [] {
    std::array<std::uint8_t, net::kKeySeedBytes> seed{};
    for (std::size_t i = 0; i < seed.size(); ++i) seed[i] = static_cast<std::uint8_t>(i * 7 + 1);
    return net::PlayerKey::from_seed(seed);
  }();
  return base.derived(name);
}

// A Hello from `name`, signed by `key` for `challenge`.
inline protocol::Hello signed_hello(const std::string& name, const protocol::KeyChallengeBytes& challenge,
                                    const net::PlayerKey& key) {
  return protocol::Hello{name, "test", key.public_key(), key.sign(protocol::key_proof_message(challenge))};
}

}  // namespace sr::test
