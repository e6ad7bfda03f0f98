// Internal: the schema visitors for the binary body (FORMAT.md, "Binary layout"). Numbers are unsigned LEB128
// varints in their shortest form, flags one byte 0/1, enums a varint of their stored value, text a varint length
// and UTF-8 bytes, seeds and hashes 8 bytes little-endian. Nested stored types go through Cereal, which writes
// each type's class version (uint32) the first time the type appears.
#pragma once

#include <cereal/archives/portable_binary.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "common/replay/detail/class_versions.h"
#include "common/replay/detail/decode_context.h"
#include "common/replay/detail/schema.h"

namespace sr::replay::detail {

void append_varint(std::vector<std::uint8_t>& out, std::uint64_t v);

template <class Archive>
class BinaryWriter {
 public:
  static constexpr bool kLoading = false;
  explicit BinaryWriter(Archive& ar) : ar_(ar) {}

  template <class I>
  void number(const char*, const I& v, Need) {
    varint(static_cast<std::uint64_t>(v));
  }
  void flag(const char*, const bool& v, Need) { byte(v ? 1 : 0); }
  template <class E, std::size_t N>
  void choice(const char*, const E& v, const std::array<const char*, N>&, Need) {
    varint(static_cast<std::uint64_t>(v));
  }
  void text(const char*, const std::string& s, std::size_t, Need) {
    varint(s.size());
    ar_(cereal::binary_data(s.data(), s.size()));
  }
  void fixed64(const char*, const std::uint64_t& v, Need) { ar_(v); }
  void hash(const char*, const std::uint64_t& v) { ar_(v); }
  void pieces(const char*, const std::vector<engine::Piece>& v, Need) {
    varint(v.size());
    for (engine::Piece p : v) byte(static_cast<std::uint8_t>(p));
  }
  void board(const char*, const std::vector<engine::BoardRow>& rows, Need) {
    varint(rows.size());
    for (const auto& row : rows) {
      for (engine::Piece p : row) byte(static_cast<std::uint8_t>(p));
    }
  }
  template <class T>
  bool object(const char*, const T& v, Need) {
    ar_(v);
    return true;
  }
  template <class T>
  void objects(const char*, const std::vector<T>& v, std::size_t, std::size_t) {
    varint(v.size());
    for (const T& e : v) ar_(e);
  }
  void inputs(const char*, const std::vector<engine::InputChange>& v) {
    ar_(InputLogRef{const_cast<std::vector<engine::InputChange>*>(&v)});
  }
  bool checkpoints(const char*, const std::vector<engine::Checkpoint>& v, Need) {
    ar_(CheckpointsRef{const_cast<std::vector<engine::Checkpoint>*>(&v)});
    return true;
  }
  void recording(bool, bool) {}

  void varint(std::uint64_t v) {
    buf_.clear();
    append_varint(buf_, v);
    ar_(cereal::binary_data(buf_.data(), buf_.size()));
  }
  void byte(std::uint8_t b) { ar_(b); }

 private:
  Archive& ar_;
  std::vector<std::uint8_t> buf_;
};

template <class Archive>
class BinaryReader {
 public:
  static constexpr bool kLoading = true;
  explicit BinaryReader(Archive& ar) : ar_(ar), ctx_(context_of(ar)) {}

  template <class I>
  void number(const char* name, I& v, Need) {
    Scope s(ctx_, name);
    const std::uint64_t x = varint();
    if (x > type_max<I>()) fail(ErrorKind::kBadValue, std::to_string(x) + " is too large");
    v = static_cast<I>(x);
  }
  void flag(const char* name, bool& v, Need) {
    Scope s(ctx_, name);
    const std::uint8_t b = byte();
    if (b > 1) fail(ErrorKind::kBadValue, "a flag must be 0 or 1, not " + std::to_string(b));
    v = b == 1;
  }
  template <class E, std::size_t N>
  void choice(const char* name, E& v, const std::array<const char*, N>&, Need) {
    Scope s(ctx_, name);
    const std::uint64_t x = varint();
    if (x >= N)
      fail(ErrorKind::kBadValue, "unknown value " + std::to_string(x) + " (known: 0.." + std::to_string(N - 1) + ")");
    v = static_cast<E>(x);
  }
  void text(const char* name, std::string& s, std::size_t max_bytes, Need) {
    Scope scope(ctx_, name);
    const std::uint64_t n = varint();
    if (n > max_bytes)
      fail(ErrorKind::kBadValue, "text of " + std::to_string(n) + " bytes, at most " + std::to_string(max_bytes));
    need(n);
    s.resize(static_cast<std::size_t>(n));
    ar_(cereal::binary_data(s.data(), s.size()));
    if (!valid_text(s, max_bytes)) fail(ErrorKind::kBadValue, "text is not UTF-8 without control characters");
  }
  void fixed64(const char* name, std::uint64_t& v, Need) {
    Scope s(ctx_, name);
    need(8);
    ar_(v);
  }
  void hash(const char* name, std::uint64_t& v) { fixed64(name, v, kReq); }
  void pieces(const char* name, std::vector<engine::Piece>& v, Need) {
    Scope s(ctx_, name);
    const std::uint64_t n = varint();
    need(n);
    v.resize(static_cast<std::size_t>(n));
    for (auto& p : v) p = cell(true);
  }
  void board(const char* name, std::vector<engine::BoardRow>& rows, Need) {
    Scope s(ctx_, name);
    const std::uint64_t n = varint();
    if (n > static_cast<std::uint64_t>(engine::kMatrixHeight))
      fail(ErrorKind::kBadValue, std::to_string(n) + " rows, at most 40");
    need_items(n, engine::kMatrixWidth);
    rows.assign(static_cast<std::size_t>(n), engine::BoardRow(engine::kMatrixWidth, engine::Piece::kNone));
    for (auto& row : rows) {
      for (auto& p : row) p = cell(false);
    }
  }
  template <class T>
  bool object(const char* name, T& v, Need) {
    Scope s(ctx_, name);
    ar_(v);
    return true;
  }
  template <class T>
  void objects(const char* name, std::vector<T>& v, std::size_t max_count, std::size_t min_bytes) {
    Scope s(ctx_, name);
    const std::uint64_t n = varint();
    if (n > max_count)
      fail(ErrorKind::kBadValue, "count " + std::to_string(n) + ", at most " + std::to_string(max_count));
    need_items(n, min_bytes);
    v.resize(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < v.size(); ++i) {
      Scope e(ctx_, nullptr, static_cast<std::int64_t>(i));
      ar_(v[i]);
    }
  }
  void inputs(const char* name, std::vector<engine::InputChange>& v) {
    Scope s(ctx_, name);
    ar_(InputLogRef{&v});
  }
  bool checkpoints(const char* name, std::vector<engine::Checkpoint>& v, Need) {
    Scope s(ctx_, name);
    ar_(CheckpointsRef{&v});
    return true;
  }
  void recording(bool, bool) {}

  // The shortest-form LEB128 varint of a uint64.
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int i = 0; i < 10; ++i) {
      const std::uint8_t b = byte();
      if (i == 9 && b > 1) fail(ErrorKind::kBadValue, "number does not fit in 64 bits");
      v |= static_cast<std::uint64_t>(b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0) {
        if (b == 0 && i > 0) fail(ErrorKind::kBadValue, "number is not in its shortest form");
        return v;
      }
    }
    fail(ErrorKind::kBadValue, "number is longer than 10 bytes");
  }
  std::uint8_t byte() {
    need(1);
    std::uint8_t b = 0;
    ar_(b);
    return b;
  }
  // Fails unless `n` more bytes are left: checked before any allocation sized by the input.
  void need(std::uint64_t n) const {
    if (n > ctx_.remaining()) {
      fail(ErrorKind::kTruncated,
           "needs " + std::to_string(n) + " more bytes, the input has " + std::to_string(ctx_.remaining()));
    }
  }
  // Fails unless `count` items of at least `each` bytes fit in what is left.
  void need_items(std::uint64_t count, std::uint64_t each) const {
    if (count > ctx_.remaining() / each) {
      fail(ErrorKind::kTruncated, "count " + std::to_string(count) + " exceeds what the remaining " +
                                      std::to_string(ctx_.remaining()) + " bytes can hold");
    }
  }
  [[nodiscard]] DecodeContext& context() { return ctx_; }

 private:
  engine::Piece cell(bool tetromino_only) {
    const std::uint8_t b = byte();
    const auto p = static_cast<engine::Piece>(b);
    const bool ok = tetromino_only ? engine::is_tetromino(p) : b <= static_cast<std::uint8_t>(engine::Piece::kGarbage);
    if (!ok) fail(ErrorKind::kBadValue, "unknown cell value " + std::to_string(b));
    return p;
  }

  Archive& ar_;
  DecodeContext& ctx_;
};

}  // namespace sr::replay::detail
