#include "common/replay/bit_stream.h"

#include <bit>
#include <cassert>

namespace sr::replay {
namespace {

int floor_log2(std::uint32_t n) { return std::bit_width(n) - 1; }

}  // namespace

int exp_golomb_bits(std::uint64_t v, int k) {
  assert(k >= 0 && k <= kMaxExpGolombOrder && v < (std::uint64_t{1} << 63));
  const int n = std::bit_width(v + (std::uint64_t{1} << k));
  return 2 * n - k - 1;
}

void BitWriter::put(std::uint64_t value, int n) {
  assert(n >= 0 && n <= 64);
  for (int i = n - 1; i >= 0; --i) {
    if (bits_ % 8 == 0) bytes_.push_back(0);
    if ((value >> i) & 1u) bytes_.back() = static_cast<std::uint8_t>(bytes_.back() | (0x80u >> (bits_ % 8)));
    ++bits_;
  }
}

void BitWriter::put_exp_golomb(std::uint64_t v, int k) {
  assert(k >= 0 && k <= kMaxExpGolombOrder && v < (std::uint64_t{1} << 63));
  const std::uint64_t w = v + (std::uint64_t{1} << k);
  const int n = std::bit_width(w);
  put(0, n - k - 1);
  put(w, n);
}

void BitWriter::put_truncated(std::uint32_t value, std::uint32_t n) {
  assert(n >= 1 && value < n);
  const int k = floor_log2(n);
  const std::uint32_t u = (std::uint32_t{2} << k) - n;  // this many values take k bits, the rest k + 1
  if (value < u) {
    put(value, k);
  } else {
    put(value + u, k + 1);
  }
}

bool BitReader::get_long(int n, std::uint64_t& out) {
  if (static_cast<std::size_t>(n) > bits_left()) return false;
  std::uint64_t high = 0, low = 0;
  if (!get(n - 32, high) || !get(32, low)) return false;
  out = (high << 32) | low;
  return true;
}

bool BitReader::slow_exp_golomb(int k, std::uint64_t& out) {
  int zeros = 0;
  for (;;) {
    std::uint64_t bit = 0;
    if (!get(1, bit)) return false;
    if (bit == 1) break;
    if (++zeros > 63 - k) return false;  // w would not fit in 64 bits
  }
  std::uint64_t rest = 0;
  if (!get(zeros + k, rest)) return false;
  const std::uint64_t w = (std::uint64_t{1} << (zeros + k)) | rest;
  out = w - (std::uint64_t{1} << k);
  return true;
}

bool BitReader::rest_is_zero() const {
  if (s_.buf != 0) return false;
  for (const std::uint8_t* p = s_.next; p != s_.end; ++p) {
    if (*p != 0) return false;
  }
  return true;
}

}  // namespace sr::replay
