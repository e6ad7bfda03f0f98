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

bool BitReader::get(int n, std::uint64_t& out) {
  assert(n >= 0 && n <= 64);
  if (static_cast<std::size_t>(n) > bits_left()) return false;
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) {
    const std::uint8_t byte = bytes_[pos_ / 8];
    v = (v << 1) | ((byte >> (7 - pos_ % 8)) & 1u);
    ++pos_;
  }
  out = v;
  return true;
}

bool BitReader::get_exp_golomb(int k, std::uint64_t& out) {
  assert(k >= 0 && k <= kMaxExpGolombOrder);
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
  out = w - (std::uint64_t{1} << k);  // may exceed 2^63 - 1: callers range-check
  return true;
}

bool BitReader::get_truncated(std::uint32_t n, std::uint32_t& out) {
  if (n == 0) return false;
  const int k = floor_log2(n);
  const std::uint32_t u = (std::uint32_t{2} << k) - n;
  std::uint64_t v = 0;
  if (!get(k, v)) return false;
  if (v >= u) {
    std::uint64_t extra = 0;
    if (!get(1, extra)) return false;
    v = ((v << 1) | extra) - u;
    if (v >= n) return false;
  }
  out = static_cast<std::uint32_t>(v);
  return true;
}

bool BitReader::rest_is_zero() const {
  for (std::size_t p = pos_; p < bytes_.size() * 8; ++p) {
    if ((bytes_[p / 8] >> (7 - p % 8)) & 1u) return false;
  }
  return true;
}

}  // namespace sr::replay
