#include "tests/fuzz/fuzz_checks.h"

#include <cstdio>
#include <cstdlib>

#include "common/replay/codec.h"
#include "common/replay/verify.h"

namespace sr::replay::fuzz {
namespace {

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "fuzz property broken: %s\n", what);
  std::abort();
}

// Playing is linear in game time (every gravity and auto-repeat step is an event), so only short games are played:
// the point is to reach the engine with odd configs and logs, not to time out.
bool quick_to_play(const Replay& r) {
  for (const Racer& racer : r.racers) {
    if (racer.result.stats.time_us > 2'000'000 || racer.inputs.size() > 5000) return false;
    if (!racer.inputs.empty() && racer.inputs.back().time_us > 2'000'000) return false;
  }
  return true;
}

}  // namespace

void check_decoded(const Replay& replay) {
  if (!check_replay(replay)) fail("a decoded replay is not valid");
  const std::vector<std::uint8_t> bytes = encode_binary(replay);
  Result<Replay> from_bytes = decode_binary(bytes);
  if (!from_bytes.ok()) fail("the binary encoding of a decoded replay does not decode");
  if (!(from_bytes.value() == replay)) fail("binary round trip changed the replay");
  if (encode_binary(from_bytes.value()) != bytes) fail("binary encoding is not deterministic");
  const std::string json = encode_json(replay);
  Result<Replay> from_json = decode_json(json);
  if (!from_json.ok()) fail("the JSON encoding of a decoded replay does not decode");
  if (!(from_json.value() == replay)) fail("JSON round trip changed the replay");
  if (quick_to_play(replay)) (void)verify(replay);
}

}  // namespace sr::replay::fuzz
