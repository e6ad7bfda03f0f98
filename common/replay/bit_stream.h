// Bit-level writer and reader for the input log (FORMAT.md, "Input log"). Bits are packed most significant bit
// first within each byte; the last byte is padded with zero bits.
//
// Exp-Golomb of order k (k = 0..15) codes v >= 0 as: w = v + 2^k has n significant bits; write n - k - 1 zero
// bits, then w in n bits. Values 0 .. 2^k - 1 take k + 1 bits; every doubling of the value adds two bits.
#pragma once

#include <bit>
#include <cassert>
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

// Every getter returns false when the bits run out or the code is malformed; `out` is then left alone, and how far
// the reader moved is unspecified (a caller stops at the first failure). Inline, over a 64-bit buffer refilled 7
// bytes at a time: the input log decoder reads a few codes per change, and a verifier decodes every change it checks.
class BitReader {
 public:
  // After State::refill() at least this many bits are buffered, or every bit the stream has left.
  static constexpr int kWindowBits = 56;

  // The reader's whole position: a decoder that reads many codes in a row can work on a copy of it, which the
  // compiler keeps in registers, and hand it back before it calls the getters again.
  struct State {
    const std::uint8_t* next;  // the first byte not buffered yet
    const std::uint8_t* end;
    std::uint64_t buf = 0;  // the buffered bits, most significant first
    int avail = 0;          // buffered bits, 0..63

    // Buffers bits until at least kWindowBits are, or the stream ends. The bits of buf past avail are 0 or the
    // stream's next ones (a load of 8 bytes counts only its whole bytes), so loading them again changes nothing.
    void refill() {
      if (avail >= kWindowBits) return;
      if (end - next >= 8) {
        std::uint64_t w = 0;
        for (int i = 0; i < 8; ++i) w = (w << 8) | next[i];  // big-endian: one load and a byte swap
        buf |= w >> avail;
        next += (63 - avail) >> 3;
        avail |= 56;
        return;
      }
      while (avail < kWindowBits && next != end) {
        buf |= std::uint64_t{*next++} << (56 - avail);
        avail += 8;
      }
    }
    void skip(int n) {
      assert(n >= 0 && n <= avail && n < 64);
      buf <<= n;
      avail -= n;
    }
  };

  explicit BitReader(std::span<const std::uint8_t> bytes) : s_{bytes.data(), bytes.data() + bytes.size()} {}
  [[nodiscard]] const State& state() const { return s_; }
  void set_state(const State& state) { s_ = state; }

  [[nodiscard]] bool get(int n, std::uint64_t& out) {
    assert(n >= 0 && n <= 64);
    if (n > kWindowBits) return get_long(n, out);
    if (n > s_.avail) {
      refill();
      if (n > s_.avail) return false;
    }
    out = (s_.buf >> 1) >> (63 - n);  // n == 0 reads 0
    skip(n);
    return true;
  }

  [[nodiscard]] bool get_exp_golomb(int k, std::uint64_t& out) {
    assert(k >= 0 && k <= kMaxExpGolombOrder);
    refill();
    const int zeros = std::countl_zero(s_.buf);
    if (zeros >= s_.avail || zeros >= kWindowBits) {
      // The stream ends before a 1, or kWindowBits zeros or more come (only in a value near 2^63, or a bad one).
      return s_.avail >= kWindowBits && slow_exp_golomb(k, out);
    }
    if (zeros > 63 - k) return false;  // w would not fit in 64 bits
    skip(zeros + 1);
    std::uint64_t rest = 0;
    if (!get(zeros + k, rest)) return false;
    const std::uint64_t w = (std::uint64_t{1} << (zeros + k)) | rest;
    out = w - (std::uint64_t{1} << k);  // may exceed 2^63 - 1: callers range-check
    return true;
  }

  // A value in [0, n) in truncated binary (BitWriter::put_truncated). False for n == 0.
  [[nodiscard]] bool get_truncated(std::uint32_t n, std::uint32_t& out) {
    if (n == 0) return false;
    const int k = std::bit_width(n) - 1;
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

  [[nodiscard]] std::size_t bits_left() const {
    return static_cast<std::size_t>(s_.avail) + static_cast<std::size_t>(s_.end - s_.next) * 8;
  }
  // Whether every bit not read yet is zero.
  [[nodiscard]] bool rest_is_zero() const;

 private:
  void refill() { s_.refill(); }
  void skip(int n) { s_.skip(n); }
  // get() of more bits than the buffer holds: the high part first, as the bits come.
  [[nodiscard]] bool get_long(int n, std::uint64_t& out);
  // get_exp_golomb() bit by bit, when kWindowBits zeros come before any 1.
  [[nodiscard]] bool slow_exp_golomb(int k, std::uint64_t& out);

  State s_;
};

}  // namespace sr::replay
