// libFuzzer target: the JSON replay decoder on arbitrary text (without recording missing results, which would play
// the game: that is the verifier's job and is bounded in fuzz_checks.cpp).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/replay/codec.h"
#include "tests/fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const sr::replay::Result<sr::replay::Replay> r = sr::replay::decode_json(text);
  if (r.ok()) sr::replay::fuzz::check_decoded(r.value());
  return 0;
}
