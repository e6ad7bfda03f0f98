// Hostile counts and lengths: decode must refuse them before allocating anything near their size.
//
// This file replaces the global operator new/delete for the whole test program to record the largest single
// allocation made while a LargestAllocation probe is alive.
#include <gtest/gtest.h>

#include <cstdlib>
#include <new>
#include <vector>

#include "common/protocol/byte_io.h"
#include "common/protocol/codec.h"

namespace {

bool g_tracking = false;
std::size_t g_largest = 0;

}  // namespace

void* operator new(std::size_t size) {
  if (g_tracking && size > g_largest) g_largest = size;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace sr::protocol {
namespace {

using Bytes = std::vector<std::uint8_t>;

// Records the largest allocation made during its lifetime.
class LargestAllocation {
 public:
  LargestAllocation() {
    g_largest = 0;
    g_tracking = true;
  }
  ~LargestAllocation() { g_tracking = false; }
  [[nodiscard]] std::size_t bytes() const { return g_largest; }
};

constexpr std::uint64_t kHostile = std::uint64_t{1} << 40;

// Decodes and checks that it failed with `code` and allocated at most `limit` bytes in one go.
void expect_refused(const Bytes& bytes, DecodeErrorCode code, std::size_t limit = 4096) {
  std::size_t largest = 0;
  DecodeErrorCode got{};
  {
    LargestAllocation probe;
    const DecodeResult r = decode(bytes);
    ASSERT_FALSE(r.ok());
    got = r.error().code;
    largest = probe.bytes();
  }
  EXPECT_EQ(got, code);
  EXPECT_LE(largest, limit);
}

TEST(Hostile, TrackerSeesAllocations) {
  LargestAllocation probe;
  std::vector<std::uint8_t> v(100'000);
  EXPECT_GE(probe.bytes(), 100'000u);
}

TEST(Hostile, HugeListCountFailsWithoutAllocating) {
  ByteWriter w;
  w.u8(static_cast<std::uint8_t>(MessageId::kRacerInputs));
  w.varint(1);         // race_id
  w.varint(1);         // player_id
  w.varint(0);         // first_seq
  w.varint(0);         // now_us
  w.varint(kHostile);  // changes: 2^40
  expect_refused(w.take(), DecodeErrorCode::kTooLong);
}

TEST(Hostile, CountWithinLimitButBeyondTheBytesLeftFails) {
  // 4096 changes are allowed, but 3 bytes cannot hold them: refused before the vector is sized.
  ByteWriter w;
  w.u8(static_cast<std::uint8_t>(MessageId::kRacerInputs));
  w.varint(1);
  w.varint(1);
  w.varint(0);
  w.varint(0);
  w.varint(kMaxInputsPerRelay);
  w.u8(0);
  w.u8(0);
  w.u8(0);
  expect_refused(w.take(), DecodeErrorCode::kTruncated);
}

TEST(Hostile, HugeStringAndBlobLengthsFail) {
  ByteWriter hello;
  hello.u8(static_cast<std::uint8_t>(MessageId::kHello));
  hello.varint(kHostile);
  expect_refused(hello.take(), DecodeErrorCode::kTooLong);

  ByteWriter chunk;
  chunk.u8(static_cast<std::uint8_t>(MessageId::kReplayChunk));
  chunk.varint(1);                     // game_id
  chunk.varint(kMaxReplayBytes);       // total
  chunk.varint(0);                     // offset
  chunk.varint(kMaxReplayChunkBytes);  // allowed length, but nothing follows
  expect_refused(chunk.take(), DecodeErrorCode::kTruncated);
}

TEST(Hostile, NestedListCountsAreBoundedByTheBytesLeft) {
  // GameList: 50 games claimed, the first claiming 16 racers, then nothing.
  ByteWriter w;
  w.u8(static_cast<std::uint8_t>(MessageId::kGameList));
  w.u8(0);      // kind
  w.varint(0);  // player ""
  w.varint(kMaxGamesListed);
  expect_refused(w.take(), DecodeErrorCode::kTruncated);
}

TEST(Hostile, FixedSequenceCountFailsWithoutAllocating) {
  ByteWriter w;
  w.u8(static_cast<std::uint8_t>(MessageId::kChangeSettings));
  w.varint(1);
  w.u8('r');                            // name "r"
  for (int i = 0; i < 7; ++i) w.u8(0);  // mode .. generator (limit_value zigzag 0)
  w.varint(kHostile);                   // fixed_sequence count
  expect_refused(w.take(), DecodeErrorCode::kTooLong);
}

}  // namespace
}  // namespace sr::protocol
