// libFuzzer target: the binary replay decoder on arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <span>

#include "common/replay/codec.h"
#include "tests/fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const sr::replay::Result<sr::replay::Replay> r = sr::replay::decode_binary(std::span<const std::uint8_t>(data, size));
  if (r.ok()) sr::replay::fuzz::check_decoded(r.value());
  return 0;
}
