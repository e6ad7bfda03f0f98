// Bit-level writer and reader for the input log (FORMAT.md, "Input log"). Bits are packed most significant bit
// first within each byte; the last byte is padded with zero bits.
//
// Exp-Golomb of order k (k = 0..15) codes v >= 0 as: w = v + 2^k has n significant bits; write n - k - 1 zero
// bits, then w in n bits. Values 0 .. 2^k - 1 take k + 1 bits; every doubling of the value adds two bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace sr::replay {

inline constexpr int kMaxExpGolombOrder = 15;

// Bits taken by exp_golomb(v, k). v must be < 2^63.
[[nodiscard]] int exp_golomb_bits(std::uint64_t v, int k);

class BitWriter {
 public:
  // Appends the low n bits of value (n = 0..64), most significant first.
  void put(std::uint64_t value, int n);
  void put_exp_golomb(std::uint64_t v, int k);
  // A value in [0, n) in truncated binary: floor(log2 n) or one more bits. n >= 1; n == 1 takes no bits.
  void put_truncated(std::uint32_t value, std::uint32_t n);
  // The bytes so far, the last one padded with zero bits.
  [[nodiscard]] const std::vector<std::uint8_t>& bytes() const { return bytes_; }
  [[nodiscard]] std::size_t bit_count() const { return bits_; }

 private:
  std::vector<std::uint8_t> bytes_;
  std::size_t bits_ = 0;
};

// Every getter returns false (and leaves `out` alone) when the bits run out or the code is malformed.
class BitReader {
 public:
  explicit BitReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  [[nodiscard]] bool get(int n, std::uint64_t& out);
  [[nodiscard]] bool get_exp_golomb(int k, std::uint64_t& out);
  [[nodiscard]] bool get_truncated(std::uint32_t n, std::uint32_t& out);
  [[nodiscard]] std::size_t bits_left() const { return bytes_.size() * 8 - pos_; }
  // Whether every bit not read yet is zero.
  [[nodiscard]] bool rest_is_zero() const;

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
};

}  // namespace sr::replay
