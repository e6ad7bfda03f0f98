// Run signatures (common/protocol/RECORDS.md, "2. Run signatures"): when a player's game ends, the game signs the
// digest of its own run (the rules, the config with the player's handling, the seed and the inputs it sent, as
// replay::encode_run_binary lays them out) with the player's key and sends the signature to the server (RunSigned).
// The server checks it against the inputs it received and passes it on with the replay to a records hub, which
// recomputes the digest from the replay. So a run can be listed under a key only if that key's owner played it: no
// server can put someone else's run, or a run it made up, under a player's name.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "common/engine/config.h"
#include "common/engine/input.h"
#include "common/replay/replay.h"
#include "net/identity/player_key.h"

namespace sr::net {

inline constexpr std::size_t kRunDigestBytes = 32;
using RunDigest = std::array<std::uint8_t, kRunDigestBytes>;

// BLAKE2b-256 of replay::encode_run_binary(rules_version, config, seed, inputs). `config` is the racer's own (their
// handling in it); `inputs` must pass replay::check_input_log (asserted).
[[nodiscard]] RunDigest run_digest(std::uint32_t rules_version, const engine::GameConfig& config, std::uint64_t seed,
                                   const std::vector<engine::InputChange>& inputs);
// The digest of racer `racer` of `replay` (racer_config, the replay's seed and rules); `racer` must be in range.
[[nodiscard]] RunDigest run_digest(const replay::Replay& replay, std::size_t racer);

// What a run signature signs: the 16 bytes "stackrace run 1\n" (so that no other signed message of ours, such as a
// Hello's challenge, can pass for one), then the digest.
[[nodiscard]] std::array<std::uint8_t, 16 + kRunDigestBytes> run_signed_message(const RunDigest& digest);

[[nodiscard]] Signature sign_run(const PlayerKey& key, const RunDigest& digest);
[[nodiscard]] bool verify_run(const PublicKey& key, const RunDigest& digest, const Signature& signature);

}  // namespace sr::net
