#include "common/protocol/byte_io.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

namespace sr::protocol {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes varint_bytes(std::uint64_t v) {
  ByteWriter w;
  w.varint(v);
  return w.take();
}

TEST(ByteIo, FixedWidthIsLittleEndian) {
  ByteWriter w;
  w.u8(0xAB);
  w.u16(0x1234);
  w.u32(0x89ABCDEF);
  w.u64(0x0102030405060708);
  EXPECT_EQ(w.data(),
            (Bytes{0xAB, 0x34, 0x12, 0xEF, 0xCD, 0xAB, 0x89, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01}));
  ByteReader r(w.data());
  std::uint8_t a = 0;
  std::uint16_t b = 0;
  std::uint32_t c = 0;
  std::uint64_t d = 0;
  ASSERT_EQ(r.u8(a), ReadStatus::kOk);
  ASSERT_EQ(r.u16(b), ReadStatus::kOk);
  ASSERT_EQ(r.u32(c), ReadStatus::kOk);
  ASSERT_EQ(r.u64(d), ReadStatus::kOk);
  EXPECT_EQ(a, 0xAB);
  EXPECT_EQ(b, 0x1234);
  EXPECT_EQ(c, 0x89ABCDEFu);
  EXPECT_EQ(d, 0x0102030405060708u);
  EXPECT_EQ(r.remaining(), 0u);
  EXPECT_EQ(r.u8(a), ReadStatus::kTruncated);
}

TEST(ByteIo, VarintEdges) {
  EXPECT_EQ(varint_bytes(0), Bytes{0x00});
  EXPECT_EQ(varint_bytes(127), Bytes{0x7F});
  EXPECT_EQ(varint_bytes(128), (Bytes{0x80, 0x01}));
  EXPECT_EQ(varint_bytes(16'383), (Bytes{0xFF, 0x7F}));
  EXPECT_EQ(varint_bytes(16'384), (Bytes{0x80, 0x80, 0x01}));
  EXPECT_EQ(varint_bytes(UINT64_MAX), (Bytes{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}));
  for (std::uint64_t v : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{300}, std::uint64_t{1} << 35,
                          std::uint64_t{1} << 63, UINT64_MAX}) {
    const Bytes bytes = varint_bytes(v);
    EXPECT_EQ(bytes.size(), varint_size(v));
    ByteReader r(bytes);
    std::uint64_t out = 0;
    ASSERT_EQ(r.varint(out), ReadStatus::kOk);
    EXPECT_EQ(out, v);
    EXPECT_EQ(r.remaining(), 0u);
  }
}

TEST(ByteIo, VarintRejectsLongerThanShortestForms) {
  std::uint64_t out = 42;
  for (const Bytes& bad :
       {Bytes{0x80, 0x00}, Bytes{0x81, 0x80, 0x00}, Bytes{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02},
        Bytes{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x81, 0x00}}) {
    ByteReader r(bad);
    EXPECT_EQ(r.varint(out), ReadStatus::kBadVarint);
    EXPECT_EQ(r.offset(), 0u) << "a failed read does not move";
    EXPECT_EQ(out, 42u) << "a failed read leaves the output alone";
  }
  const Bytes cut_bytes{0x80, 0x80};
  ByteReader cut(cut_bytes);
  EXPECT_EQ(cut.varint(out), ReadStatus::kTruncated);
}

TEST(ByteIo, ZigzagMapsSmallMagnitudesToSmallCodes) {
  EXPECT_EQ(zigzag_encode(0), 0u);
  EXPECT_EQ(zigzag_encode(-1), 1u);
  EXPECT_EQ(zigzag_encode(1), 2u);
  EXPECT_EQ(zigzag_encode(-2), 3u);
  EXPECT_EQ(zigzag_encode(std::numeric_limits<std::int64_t>::max()), UINT64_MAX - 1);
  EXPECT_EQ(zigzag_encode(std::numeric_limits<std::int64_t>::min()), UINT64_MAX);
  for (std::int64_t v : {std::int64_t{0}, std::int64_t{-1}, std::int64_t{167'000}, std::int64_t{-167'000},
                         std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min()}) {
    EXPECT_EQ(zigzag_decode(zigzag_encode(v)), v);
  }
}

TEST(ByteIo, BytesAreViewsWithinBounds) {
  const Bytes data{1, 2, 3};
  ByteReader r(data);
  std::span<const std::uint8_t> view;
  EXPECT_EQ(r.bytes(4, view), ReadStatus::kTruncated);
  ASSERT_EQ(r.bytes(2, view), ReadStatus::kOk);
  EXPECT_EQ(view.data(), data.data());
  EXPECT_EQ(view.size(), 2u);
  EXPECT_EQ(r.remaining(), 1u);
}

}  // namespace
}  // namespace sr::protocol
