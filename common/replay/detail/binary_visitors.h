// Internal: the schema visitor that writes the binary body (FORMAT.md, "Binary layout"); binary_reader.h reads it.
// Numbers are unsigned LEB128 varints in their shortest form, flags one byte 0/1, enums a varint of their stored
// value, text a varint length and UTF-8 bytes, seeds and hashes 8 bytes little-endian. Nested stored types go through
// Cereal, which writes each type's class version (uint32) the first time the type appears.
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
  // A flag, then the key's 32 bytes when there is one.
  void key(const char*, const std::optional<RacerKey>& k) {
    byte(k ? 1 : 0);
    if (k) ar_(cereal::binary_data(k->data(), k->size()));
  }

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

}  // namespace sr::replay::detail
