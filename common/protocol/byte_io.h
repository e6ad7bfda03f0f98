// The protocol's primitive encodings: fixed-width little-endian integers and LEB128 varints.
//
// # Format
// - Fixed u8/u16/u32/u64: little-endian, exactly 1/2/4/8 bytes, whatever the host's byte order.
// - varint: unsigned LEB128, 7 bits per byte, low bits first, high bit = "more follows"; 1..10 bytes for 64 bits.
//   Writers always produce the shortest form, and readers accept only it (no trailing 0x80 0x00 padding, no bits
//   beyond 64), so every value has exactly one encoding.
// - zigzag varint for signed values: 0, -1, 1, -2, ... map to 0, 1, 2, 3, ... then varint.
//
// # Errors
// ByteReader never reads past its span. A failed read returns a status other than kOk, leaves the output and the
// offset unchanged, and can be retried with another type; nothing here allocates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace sr::protocol {

inline constexpr std::size_t kMaxVarintBytes = 10;

[[nodiscard]] constexpr std::uint64_t zigzag_encode(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ (v < 0 ? ~std::uint64_t{0} : std::uint64_t{0});
}
[[nodiscard]] constexpr std::int64_t zigzag_decode(std::uint64_t u) {
  return static_cast<std::int64_t>((u >> 1) ^ (~(u & 1) + 1));
}
// Bytes varint(v) takes: 1..10.
[[nodiscard]] std::size_t varint_size(std::uint64_t v);

// Appends to a growing byte vector. Cannot fail.
class ByteWriter {
 public:
  void u8(std::uint8_t v) { out_.push_back(v); }
  void u16(std::uint16_t v);
  void u32(std::uint32_t v);
  void u64(std::uint64_t v);
  void varint(std::uint64_t v);
  void zigzag(std::int64_t v) { varint(zigzag_encode(v)); }
  void bytes(std::span<const std::uint8_t> b) { out_.insert(out_.end(), b.begin(), b.end()); }
  void bytes(std::string_view s) { out_.insert(out_.end(), s.begin(), s.end()); }

  [[nodiscard]] std::size_t size() const { return out_.size(); }
  [[nodiscard]] const std::vector<std::uint8_t>& data() const { return out_; }
  [[nodiscard]] std::vector<std::uint8_t> take() { return std::move(out_); }

 private:
  std::vector<std::uint8_t> out_;
};

enum class ReadStatus : std::uint8_t {
  kOk = 0,
  kTruncated = 1,  // fewer bytes left than the value needs
  kBadVarint = 2,  // a varint longer than its shortest form, or with bits beyond 64
};

// Reads from a span it does not own (the span must outlive the reader).
class ByteReader {
 public:
  explicit ByteReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  [[nodiscard]] ReadStatus u8(std::uint8_t& out);
  [[nodiscard]] ReadStatus u16(std::uint16_t& out);
  [[nodiscard]] ReadStatus u32(std::uint32_t& out);
  [[nodiscard]] ReadStatus u64(std::uint64_t& out);
  [[nodiscard]] ReadStatus varint(std::uint64_t& out);
  [[nodiscard]] ReadStatus zigzag(std::int64_t& out);
  // A view of the next n bytes (no copy).
  [[nodiscard]] ReadStatus bytes(std::size_t n, std::span<const std::uint8_t>& out);

  [[nodiscard]] std::size_t offset() const { return offset_; }
  [[nodiscard]] std::size_t remaining() const { return bytes_.size() - offset_; }

 private:
  template <class T>
  ReadStatus fixed(T& out);

  std::span<const std::uint8_t> bytes_;
  std::size_t offset_ = 0;
};

}  // namespace sr::protocol
