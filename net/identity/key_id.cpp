#include "net/identity/key_id.h"

#include <sodium.h>

#include <cstdlib>

namespace sr::net {

std::string short_key_id(const std::array<std::uint8_t, 32>& public_key) {
  // sodium_init() may run again (it returns 1); < 0 only when the system's random source is unusable.
  if (sodium_init() < 0) std::abort();
  std::array<std::uint8_t, 32> hash{};
  crypto_generichash(hash.data(), hash.size(), public_key.data(), public_key.size(), nullptr, 0);
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < 4; ++i) {
    out.push_back(kDigits[hash[i] >> 4]);
    out.push_back(kDigits[hash[i] & 15]);
  }
  return out;
}

}  // namespace sr::net
