#include "common/replay/detail/binary_reader.h"

#include <algorithm>

#include "common/replay/input_log_codec.h"

namespace sr::replay::detail {

void BinaryReader::text(const char* name, std::string& s, std::size_t max_bytes, Need) {
  Scope scope(ctx_, name);
  const std::uint64_t n = varint();
  if (n > max_bytes) {
    fail(ErrorKind::kBadValue, "text of " + std::to_string(n) + " bytes, at most " + std::to_string(max_bytes));
  }
  need(n);
  const std::span<const std::uint8_t> bytes = ctx_.take(static_cast<std::size_t>(n));
  s.assign(bytes.begin(), bytes.end());
  if (!valid_text(s, max_bytes)) fail(ErrorKind::kBadValue, "text is not UTF-8 without control characters");
}

void BinaryReader::key(const char* name, std::optional<RacerKey>& k) {
  Scope s(ctx_, name);
  bool present = false;
  flag("present", present, kReq);
  if (!present) {
    k.reset();
    return;
  }
  need(kRacerKeyBytes);
  const std::span<const std::uint8_t> bytes = ctx_.take(kRacerKeyBytes);
  k.emplace();
  std::copy(bytes.begin(), bytes.end(), k->begin());
}

void BinaryReader::pieces(const char* name, std::vector<engine::Piece>& v, Need) {
  Scope s(ctx_, name);
  const std::uint64_t n = varint();
  need(n);
  v.resize(static_cast<std::size_t>(n));
  for (auto& p : v) p = cell(true);
}

void BinaryReader::board(const char* name, std::vector<engine::BoardRow>& rows, Need) {
  Scope s(ctx_, name);
  const std::uint64_t n = varint();
  if (n > static_cast<std::uint64_t>(engine::kMatrixHeight)) {
    fail(ErrorKind::kBadValue, std::to_string(n) + " rows, at most 40");
  }
  need_items(n, engine::kMatrixWidth);
  rows.assign(static_cast<std::size_t>(n), engine::BoardRow(engine::kMatrixWidth, engine::Piece::kNone));
  for (auto& row : rows) {
    for (auto& p : row) p = cell(false);
  }
}

void BinaryReader::inputs(const char* name, std::vector<engine::InputChange>& v) {
  Scope outer(ctx_, name);
  (void)class_version<InputLogRef>();
  InputLogView log;
  {
    Scope s(ctx_, "count");
    log.count = varint();
  }
  if (log.count == 0) {
    v.clear();
    return;
  }
  {
    Scope s(ctx_, "unit_us");
    log.unit_us = varint();
  }
  {
    Scope s(ctx_, "orders");
    log.orders = byte();
  }
  Scope s(ctx_, "stream");
  const std::uint64_t n = varint();
  need(n);
  log.bits = ctx_.take(static_cast<std::size_t>(n));  // decoded where it lies in the input
  if (auto decoded = decode_input_log(log, v); !decoded) fail(ErrorKind::kBadValue, decoded.error());
}

bool BinaryReader::checkpoints(const char* name, std::vector<engine::Checkpoint>& list, Need) {
  Scope outer(ctx_, name);
  (void)class_version<CheckpointsRef>();
  std::uint64_t n = 0;
  {
    Scope s(ctx_, "count");
    n = varint();
    need_items(n, 9);  // a checkpoint takes at least 9 bytes
  }
  list.assign(static_cast<std::size_t>(n), engine::Checkpoint{});
  engine::TimeUs last = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    Scope s(ctx_, nullptr, static_cast<std::int64_t>(i));
    const std::uint64_t delta = varint();
    if (delta > static_cast<std::uint64_t>(std::numeric_limits<engine::TimeUs>::max() - last)) {
      fail(ErrorKind::kBadValue, "checkpoint time overflows");
    }
    last += static_cast<engine::TimeUs>(delta);
    list[i].time_us = last;
    list[i].state_hash = u64();
  }
  return true;
}

std::uint32_t BinaryReader::u32_of_class_version() {
  if (ctx_.remaining() < 4) {
    // Cereal read what there was before it gave up, so the error's offset (outside any field) is the input's end.
    (void)ctx_.take(ctx_.remaining());
    fail(ErrorKind::kTruncated, "the input ends inside a field");
  }
  const std::span<const std::uint8_t> b = ctx_.take(4);
  return static_cast<std::uint32_t>(b[0]) | static_cast<std::uint32_t>(b[1]) << 8 |
         static_cast<std::uint32_t>(b[2]) << 16 | static_cast<std::uint32_t>(b[3]) << 24;
}

std::uint64_t BinaryReader::u64() {
  need(8);
  const std::span<const std::uint8_t> b = ctx_.take(8);
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | b[static_cast<std::size_t>(i)];
  return v;
}

engine::Piece BinaryReader::cell(bool tetromino_only) {
  const std::uint8_t b = byte();
  const auto p = static_cast<engine::Piece>(b);
  const bool ok = tetromino_only ? engine::is_tetromino(p) : b <= static_cast<std::uint8_t>(engine::Piece::kGarbage);
  if (!ok) fail(ErrorKind::kBadValue, "unknown cell value " + std::to_string(b));
  return p;
}

void BinaryReader::fail_need(std::uint64_t n) const {
  fail(ErrorKind::kTruncated,
       "needs " + std::to_string(n) + " more bytes, the input has " + std::to_string(ctx_.remaining()));
}

void BinaryReader::need_items(std::uint64_t count, std::uint64_t each) const {
  if (count > ctx_.remaining() / each) {
    fail(ErrorKind::kTruncated, "count " + std::to_string(count) + " exceeds what the remaining " +
                                    std::to_string(ctx_.remaining()) + " bytes can hold");
  }
}

}  // namespace sr::replay::detail
