#include "common/protocol/byte_io.h"

namespace sr::protocol {

std::size_t varint_size(std::uint64_t v) {
  std::size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

void ByteWriter::u16(std::uint16_t v) {
  for (int i = 0; i < 2; ++i) out_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

void ByteWriter::u32(std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

void ByteWriter::u64(std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

void ByteWriter::varint(std::uint64_t v) {
  while (v >= 0x80) {
    out_.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out_.push_back(static_cast<std::uint8_t>(v));
}

template <class T>
ReadStatus ByteReader::fixed(T& out) {
  if (remaining() < sizeof(T)) return ReadStatus::kTruncated;
  T v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) v = static_cast<T>(v | (static_cast<T>(bytes_[offset_ + i]) << (8 * i)));
  out = v;
  offset_ += sizeof(T);
  return ReadStatus::kOk;
}

ReadStatus ByteReader::u8(std::uint8_t& out) { return fixed(out); }
ReadStatus ByteReader::u16(std::uint16_t& out) { return fixed(out); }
ReadStatus ByteReader::u32(std::uint32_t& out) { return fixed(out); }
ReadStatus ByteReader::u64(std::uint64_t& out) { return fixed(out); }

ReadStatus ByteReader::varint(std::uint64_t& out) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < kMaxVarintBytes; ++i) {
    if (offset_ + i >= bytes_.size()) return ReadStatus::kTruncated;
    const std::uint8_t b = bytes_[offset_ + i];
    const std::uint64_t payload = b & 0x7F;
    // The tenth byte holds only bit 63; a zero last byte (other than a lone 0) is a longer-than-needed form.
    if (i == kMaxVarintBytes - 1 && b > 1) return ReadStatus::kBadVarint;
    v |= payload << (7 * i);
    if ((b & 0x80) == 0) {
      if (i > 0 && b == 0) return ReadStatus::kBadVarint;
      out = v;
      offset_ += i + 1;
      return ReadStatus::kOk;
    }
  }
  return ReadStatus::kBadVarint;
}

ReadStatus ByteReader::zigzag(std::int64_t& out) {
  std::uint64_t u = 0;
  const ReadStatus s = varint(u);
  if (s == ReadStatus::kOk) out = zigzag_decode(u);
  return s;
}

ReadStatus ByteReader::bytes(std::size_t n, std::span<const std::uint8_t>& out) {
  if (remaining() < n) return ReadStatus::kTruncated;
  out = bytes_.subspan(offset_, n);
  offset_ += n;
  return ReadStatus::kOk;
}

}  // namespace sr::protocol
