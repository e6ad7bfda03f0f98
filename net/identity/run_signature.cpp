#include "net/identity/run_signature.h"

#include <sodium.h>

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <string_view>

#include "common/replay/codec.h"

namespace sr::net {
namespace {

constexpr std::string_view kRunTag = "stackrace run 1\n";
static_assert(kRunTag.size() == 16);

}  // namespace

RunDigest run_digest(std::uint32_t rules_version, const engine::GameConfig& config, std::uint64_t seed,
                     const std::vector<engine::InputChange>& inputs) {
  if (sodium_init() < 0) std::abort();  // no hash without libsodium; < 0 only when it cannot start at all
  const std::vector<std::uint8_t> bytes = replay::encode_run_binary(rules_version, config, seed, inputs);
  RunDigest digest{};
  crypto_generichash(digest.data(), digest.size(), bytes.data(), bytes.size(), nullptr, 0);
  return digest;
}

RunDigest run_digest(const replay::Replay& replay, std::size_t racer) {
  assert(racer < replay.racers.size());
  return run_digest(replay.rules_version, replay::racer_config(replay, racer), replay.seed,
                    replay.racers[racer].inputs);
}

std::array<std::uint8_t, 16 + kRunDigestBytes> run_signed_message(const RunDigest& digest) {
  std::array<std::uint8_t, 16 + kRunDigestBytes> message{};
  std::copy(kRunTag.begin(), kRunTag.end(), message.begin());
  std::copy(digest.begin(), digest.end(), message.begin() + 16);
  return message;
}

Signature sign_run(const PlayerKey& key, const RunDigest& digest) { return key.sign(run_signed_message(digest)); }

bool verify_run(const PublicKey& key, const RunDigest& digest, const Signature& signature) {
  return verify_signature(key, run_signed_message(digest), signature);
}

}  // namespace sr::net
