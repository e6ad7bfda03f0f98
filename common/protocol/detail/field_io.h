// Internal: FieldWriter and FieldReader, the two sides of every message's field list.
//
// Each message is described once, by a `fields(io, message)` template (record_fields.h, message_fields.h) that
// calls the same methods on either class: FieldWriter appends the bytes and records the first field that breaks
// its rule; FieldReader reads them, checks the same rule, and stops at the first failure (every later call is a
// no-op). Because both sides run the same description, encode and decode cannot drift apart.
//
// Every method takes the field's name for error messages; `nullptr` means "the enclosing scope is the field".
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "common/engine/types.h"
#include "common/protocol/byte_io.h"
#include "common/protocol/codec.h"
#include "common/protocol/detail/enum_ranges.h"
#include "common/protocol/records.h"
#include "common/protocol/text.h"

namespace sr::protocol::detail {

// `M` is T or const T: lets one field-list template serve the writer (const) and the reader (mutable).
template <class M, class T>
concept Is = std::same_as<std::remove_const_t<M>, T>;

// The dotted path of the field being processed ("RoomList.rooms[2].mode") and the first error.
class FieldContext {
 public:
  explicit FieldContext(const char* message_name) : message_name_(message_name) {}

  [[nodiscard]] bool ok() const { return !error_; }
  [[nodiscard]] const std::optional<DecodeError>& error() const { return error_; }
  // Records an error at byte `offset` unless one is already recorded.
  void fail_at(std::size_t offset, DecodeErrorCode code, const char* field, const std::string& what);

 protected:
  void push(const char* name, std::int64_t index = -1);
  void pop();

 private:
  struct Step {
    const char* name;
    std::int64_t index;  // -1: not a list element
  };
  [[nodiscard]] std::string describe(const char* field) const;

  const char* message_name_;
  std::array<Step, 8> steps_{};
  std::size_t depth_ = 0;
  std::optional<DecodeError> error_;
};

// Shared rule checks: nullopt if fine, otherwise the error code and text both sides report.
struct Violation {
  DecodeErrorCode code;
  std::string what;
};
[[nodiscard]] std::optional<Violation> range_violation(std::uint64_t v, std::uint64_t lo, std::uint64_t hi);
[[nodiscard]] std::optional<Violation> text_violation(std::string_view text, const TextRule& rule);
[[nodiscard]] std::optional<Violation> count_violation(std::size_t n, std::size_t max);

class FieldWriter : public FieldContext {
 public:
  using FieldContext::FieldContext;

  [[nodiscard]] std::size_t offset() const { return out_.size(); }
  [[nodiscard]] std::vector<std::uint8_t> take() { return out_.take(); }
  void check_at(std::size_t at, bool good, DecodeErrorCode code, const char* field, const char* what) {
    if (!good) fail_at(at, code, field, what);
  }

  void u8(const std::uint8_t& v, std::uint8_t lo, std::uint8_t hi, const char* field);
  void boolean(const bool& v, const char* field);
  template <class E>
  void enumeration(const E& v, const char* field) {
    const auto raw = static_cast<std::uint8_t>(v);
    note(range_violation(raw, 0, static_cast<std::uint8_t>(last_value(E{}))), field);
    out_.u8(raw);
  }
  template <class T>
  void varint(const T& v, std::type_identity_t<T> lo, std::type_identity_t<T> hi, const char* field) {
    static_assert(std::is_unsigned_v<T>);
    note(range_violation(v, lo, hi), field);
    out_.varint(v);
  }
  template <class T>
  void id(const T& v, const char* field) {  // >= 1
    varint(v, T{1}, static_cast<T>(~T{0}), field);
  }
  void time(const engine::TimeUs& v, const char* field);  // 0..kMaxTimeUs, varint
  // 0..max, varint.
  void count(const std::int64_t& v, const char* field, std::int64_t max = std::numeric_limits<std::int64_t>::max());
  void signed32(const std::int32_t& v, const char* field);
  void signed64(const std::int64_t& v, const char* field);
  void fixed32(const std::uint32_t& v, const char* field) {
    out_.u32(v);
    (void)field;
  }
  void fixed64(const std::uint64_t& v, const char* field) {
    out_.u64(v);
    (void)field;
  }
  // Exactly N raw bytes (keys, signatures), no length.
  template <std::size_t N>
  void fixed_bytes(const std::array<std::uint8_t, N>& v, const char* field) {
    out_.bytes(v);
    (void)field;
  }
  void text(const std::string& v, const TextRule& rule, const char* field);
  void blob(const std::vector<std::uint8_t>& v, std::size_t max, const char* field);
  void inputs(const std::vector<engine::InputChange>& v, std::size_t max, const char* field);

  template <class T, class F>
  void list(const std::vector<T>& v, std::size_t max, std::size_t min_element_bytes, const char* field, F&& f) {
    (void)min_element_bytes;
    note(count_violation(v.size(), max), field);
    out_.varint(v.size());
    elements(v, field, f);
  }
  // Exactly n elements, no count on the wire.
  template <class T, class F>
  void fixed_list(const std::vector<T>& v, std::size_t n, const char* field, F&& f) {
    if (v.size() != n) fail_here(DecodeErrorCode::kOutOfRange, field, "must have exactly " + std::to_string(n));
    elements(v, field, f);
  }
  template <class T, class F>
  void optional(const std::optional<T>& v, const char* field, F&& f) {
    out_.u8(v ? 1 : 0);
    if (v) scope(field, [&] { f(*v); });
  }
  template <class F>
  void scope(const char* name, F&& f) {
    push(name);
    f();
    pop();
  }

 private:
  template <class T, class F>
  void elements(const std::vector<T>& v, const char* field, F& f) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      push(field, static_cast<std::int64_t>(i));
      f(v[i]);
      pop();
    }
  }
  void fail_here(DecodeErrorCode code, const char* field, const std::string& what) {
    fail_at(offset(), code, field, what);
  }
  void note(const std::optional<Violation>& v, const char* field) {
    if (v) fail_here(v->code, field, v->what);
  }

  ByteWriter out_;
};

class FieldReader : public FieldContext {
 public:
  // Reads `bytes` from `start_offset` on; offsets in errors count from bytes[0].
  FieldReader(const char* message_name, std::span<const std::uint8_t> bytes, std::size_t start_offset);

  [[nodiscard]] std::size_t offset() const { return in_.offset(); }
  [[nodiscard]] std::size_t remaining() const { return in_.remaining(); }
  void check_at(std::size_t at, bool good, DecodeErrorCode code, const char* field, const char* what) {
    if (!good) fail_at(at, code, field, what);
  }

  void u8(std::uint8_t& v, std::uint8_t lo, std::uint8_t hi, const char* field);
  void boolean(bool& v, const char* field);
  template <class E>
  void enumeration(E& v, const char* field) {
    std::uint8_t raw = 0;
    u8(raw, 0, static_cast<std::uint8_t>(last_value(E{})), field);
    if (ok()) v = static_cast<E>(raw);
  }
  template <class T>
  void varint(T& v, std::type_identity_t<T> lo, std::type_identity_t<T> hi, const char* field) {
    static_assert(std::is_unsigned_v<T>);
    std::uint64_t raw = 0;
    if (read_varint(raw, lo, hi, field)) v = static_cast<T>(raw);
  }
  template <class T>
  void id(T& v, const char* field) {
    varint(v, T{1}, static_cast<T>(~T{0}), field);
  }
  void time(engine::TimeUs& v, const char* field);
  void count(std::int64_t& v, const char* field, std::int64_t max = std::numeric_limits<std::int64_t>::max());
  void signed32(std::int32_t& v, const char* field);
  void signed64(std::int64_t& v, const char* field);
  void fixed32(std::uint32_t& v, const char* field);
  void fixed64(std::uint64_t& v, const char* field);
  template <std::size_t N>
  void fixed_bytes(std::array<std::uint8_t, N>& v, const char* field) {
    if (!ok()) return;
    const std::size_t at = offset();
    std::span<const std::uint8_t> view;
    if (!status_ok(in_.bytes(N, view), at, field)) return;
    std::copy(view.begin(), view.end(), v.begin());
  }
  void text(std::string& v, const TextRule& rule, const char* field);
  void blob(std::vector<std::uint8_t>& v, std::size_t max, const char* field);
  void inputs(std::vector<engine::InputChange>& v, std::size_t max, const char* field);

  template <class T, class F>
  void list(std::vector<T>& v, std::size_t max, std::size_t min_element_bytes, const char* field, F&& f) {
    std::size_t n = 0;
    if (!read_count(n, max, min_element_bytes, field)) return;
    v.clear();
    v.resize(n);
    elements(v, field, f);
  }
  template <class T, class F>
  void fixed_list(std::vector<T>& v, std::size_t n, const char* field, F&& f) {
    if (!ok()) return;
    v.assign(n, T{});
    elements(v, field, f);
  }
  template <class T, class F>
  void optional(std::optional<T>& v, const char* field, F&& f) {
    bool present = false;
    boolean(present, field);
    if (!ok()) return;
    v.reset();
    if (present) scope(field, [&] { f(v.emplace()); });
  }
  template <class F>
  void scope(const char* name, F&& f) {
    if (!ok()) return;
    push(name);
    f();
    pop();
  }

 private:
  template <class T, class F>
  void elements(std::vector<T>& v, const char* field, F& f) {
    for (std::size_t i = 0; i < v.size() && ok(); ++i) {
      push(field, static_cast<std::int64_t>(i));
      f(v[i]);
      pop();
    }
  }
  // Reads a varint in lo..hi; false (error recorded) otherwise.
  bool read_varint(std::uint64_t& v, std::uint64_t lo, std::uint64_t hi, const char* field);
  // Reads a list count: at most max, and at most what the remaining bytes could hold at min_element_bytes each.
  bool read_count(std::size_t& n, std::size_t max, std::size_t min_element_bytes, const char* field);
  bool status_ok(ReadStatus s, std::size_t at, const char* field);

  ByteReader in_;
};

}  // namespace sr::protocol::detail
