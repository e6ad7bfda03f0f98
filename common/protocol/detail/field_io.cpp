#include "common/protocol/detail/field_io.h"

#include <cassert>
#include <limits>

#include "common/engine/types.h"
#include "common/protocol/messages.h"

namespace sr::protocol::detail {

using Code = DecodeErrorCode;

// ---------------------------------------------------------------- FieldContext

void FieldContext::fail_at(std::size_t offset, DecodeErrorCode code, const char* field, const std::string& what) {
  if (error_) return;
  error_ = DecodeError{code, offset, describe(field) + ": " + what + " (byte " + std::to_string(offset) + ")"};
}

void FieldContext::push(const char* name, std::int64_t index) {
  assert(depth_ < steps_.size() && "message nesting deeper than FieldContext supports");
  if (depth_ < steps_.size()) steps_[depth_] = Step{name, index};
  ++depth_;
}

void FieldContext::pop() {
  assert(depth_ > 0);
  --depth_;
}

std::string FieldContext::describe(const char* field) const {
  std::string path = message_name_;
  for (std::size_t i = 0; i < depth_ && i < steps_.size(); ++i) {
    path += '.';
    path += steps_[i].name;
    if (steps_[i].index >= 0) path += "[" + std::to_string(steps_[i].index) + "]";
  }
  if (field != nullptr && *field != '\0') {
    path += '.';
    path += field;
  }
  return path;
}

// ---------------------------------------------------------------- shared rules

std::optional<Violation> range_violation(std::uint64_t v, std::uint64_t lo, std::uint64_t hi) {
  if (v >= lo && v <= hi) return std::nullopt;
  return Violation{Code::kOutOfRange,
                   "value " + std::to_string(v) + ", must be " + std::to_string(lo) + ".." + std::to_string(hi)};
}

std::optional<Violation> text_violation(std::string_view text, const TextRule& rule) {
  if (text.size() > rule.max_bytes) {
    return Violation{Code::kTooLong, std::to_string(text.size()) + " bytes, limit " + std::to_string(rule.max_bytes)};
  }
  if (text.size() < rule.min_bytes) {
    return Violation{Code::kOutOfRange,
                     std::to_string(text.size()) + " bytes, needs at least " + std::to_string(rule.min_bytes)};
  }
  if (auto content = check_text_content(text, rule.kind); !content) return Violation{Code::kBadText, content.error()};
  return std::nullopt;
}

std::optional<Violation> count_violation(std::size_t n, std::size_t max) {
  if (n <= max) return std::nullopt;
  return Violation{Code::kTooLong, std::to_string(n) + " elements, limit " + std::to_string(max)};
}

namespace {
constexpr auto kTimeMax = static_cast<std::uint64_t>(kMaxTimeUs);

std::optional<Violation> buttons_violation(std::uint64_t b) {
  if ((b & ~std::uint64_t{engine::button::kAll}) == 0) return std::nullopt;
  return Violation{Code::kOutOfRange, "buttons " + std::to_string(b) + " set bits outside 0xFF"};
}
}  // namespace

// ---------------------------------------------------------------- FieldWriter

void FieldWriter::u8(const std::uint8_t& v, std::uint8_t lo, std::uint8_t hi, const char* field) {
  note(range_violation(v, lo, hi), field);
  out_.u8(v);
}

void FieldWriter::boolean(const bool& v, const char* field) {
  (void)field;
  out_.u8(v ? 1 : 0);
}

void FieldWriter::time(const engine::TimeUs& v, const char* field) {
  if (v < 0 || v > kMaxTimeUs) {
    fail_here(Code::kOutOfRange, field, "value " + std::to_string(v) + ", must be 0.." + std::to_string(kTimeMax));
  }
  out_.varint(static_cast<std::uint64_t>(v));
}

void FieldWriter::count(const std::int64_t& v, const char* field, std::int64_t max) {
  if (v < 0 || v > max) {
    fail_here(Code::kOutOfRange, field, "value " + std::to_string(v) + ", must be 0.." + std::to_string(max));
  }
  out_.varint(static_cast<std::uint64_t>(v));
}

void FieldWriter::signed32(const std::int32_t& v, const char* field) {
  (void)field;
  out_.zigzag(v);
}

void FieldWriter::signed64(const std::int64_t& v, const char* field) {
  (void)field;
  out_.zigzag(v);
}

void FieldWriter::text(const std::string& v, const TextRule& rule, const char* field) {
  note(text_violation(v, rule), field);
  out_.varint(v.size());
  out_.bytes(std::string_view(v));
}

void FieldWriter::blob(const std::vector<std::uint8_t>& v, std::size_t max, const char* field) {
  if (v.size() > max) {
    fail_here(Code::kTooLong, field, std::to_string(v.size()) + " bytes, limit " + std::to_string(max));
  }
  out_.varint(v.size());
  out_.bytes(v);
}

void FieldWriter::inputs(const std::vector<engine::InputChange>& v, std::size_t max, const char* field) {
  note(count_violation(v.size(), max), field);
  out_.varint(v.size());
  engine::TimeUs previous = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    push(field, static_cast<std::int64_t>(i));
    const engine::InputChange& c = v[i];
    if (c.time_us < previous) fail_here(Code::kInconsistent, "time_us", "earlier than the change before");
    if (c.time_us > kMaxTimeUs) fail_here(Code::kOutOfRange, "time_us", "time passes " + std::to_string(kTimeMax));
    out_.varint(static_cast<std::uint64_t>(c.time_us - previous));
    note(buttons_violation(c.buttons), "buttons");
    out_.varint(c.buttons);
    previous = c.time_us;
    pop();
  }
}

// ---------------------------------------------------------------- FieldReader

FieldReader::FieldReader(const char* message_name, std::span<const std::uint8_t> bytes, std::size_t start_offset)
    : FieldContext(message_name), in_(bytes) {
  std::span<const std::uint8_t> skipped;
  [[maybe_unused]] const ReadStatus s = in_.bytes(start_offset, skipped);
  assert(s == ReadStatus::kOk);
}

bool FieldReader::status_ok(ReadStatus s, std::size_t at, const char* field) {
  switch (s) {
    case ReadStatus::kOk: return true;
    case ReadStatus::kTruncated: fail_at(at, Code::kTruncated, field, "input ends inside this field"); return false;
    case ReadStatus::kBadVarint:
      fail_at(at, Code::kBadVarint, field, "varint longer than its shortest form or over 64 bits");
      return false;
  }
  fail_at(at, Code::kTruncated, field, "unreadable");
  return false;
}

bool FieldReader::read_varint(std::uint64_t& v, std::uint64_t lo, std::uint64_t hi, const char* field) {
  if (!ok()) return false;
  const std::size_t at = offset();
  std::uint64_t raw = 0;
  if (!status_ok(in_.varint(raw), at, field)) return false;
  if (auto bad = range_violation(raw, lo, hi)) {
    fail_at(at, bad->code, field, bad->what);
    return false;
  }
  v = raw;
  return true;
}

bool FieldReader::read_count(std::size_t& n, std::size_t max, std::size_t min_element_bytes, const char* field) {
  if (!ok()) return false;
  const std::size_t at = offset();
  std::uint64_t raw = 0;
  if (!status_ok(in_.varint(raw), at, field)) return false;
  if (raw > max) {
    fail_at(at, Code::kTooLong, field, std::to_string(raw) + " elements, limit " + std::to_string(max));
    return false;
  }
  // raw <= max, so it fits size_t; the remaining bytes bound what may be allocated.
  if (min_element_bytes > 0 && raw > remaining() / min_element_bytes) {
    fail_at(at, Code::kTruncated, field,
            std::to_string(raw) + " elements cannot fit in the " + std::to_string(remaining()) + " bytes left");
    return false;
  }
  n = static_cast<std::size_t>(raw);
  return true;
}

void FieldReader::u8(std::uint8_t& v, std::uint8_t lo, std::uint8_t hi, const char* field) {
  if (!ok()) return;
  const std::size_t at = offset();
  std::uint8_t raw = 0;
  if (!status_ok(in_.u8(raw), at, field)) return;
  if (auto bad = range_violation(raw, lo, hi)) return fail_at(at, bad->code, field, bad->what);
  v = raw;
}

void FieldReader::boolean(bool& v, const char* field) {
  std::uint8_t raw = 0;
  u8(raw, 0, 1, field);
  if (ok()) v = raw != 0;
}

void FieldReader::time(engine::TimeUs& v, const char* field) {
  std::uint64_t raw = 0;
  if (read_varint(raw, 0, kTimeMax, field)) v = static_cast<engine::TimeUs>(raw);
}

void FieldReader::count(std::int64_t& v, const char* field, std::int64_t max) {
  std::uint64_t raw = 0;
  if (read_varint(raw, 0, static_cast<std::uint64_t>(max), field)) v = static_cast<std::int64_t>(raw);
}

void FieldReader::signed32(std::int32_t& v, const char* field) {
  if (!ok()) return;
  const std::size_t at = offset();
  std::int64_t raw = 0;
  if (!status_ok(in_.zigzag(raw), at, field)) return;
  if (raw < std::numeric_limits<std::int32_t>::min() || raw > std::numeric_limits<std::int32_t>::max()) {
    return fail_at(at, Code::kOutOfRange, field, "value " + std::to_string(raw) + " does not fit 32 bits");
  }
  v = static_cast<std::int32_t>(raw);
}

void FieldReader::signed64(std::int64_t& v, const char* field) {
  if (!ok()) return;
  const std::size_t at = offset();
  std::int64_t raw = 0;
  if (status_ok(in_.zigzag(raw), at, field)) v = raw;
}

void FieldReader::fixed32(std::uint32_t& v, const char* field) {
  if (!ok()) return;
  const std::size_t at = offset();
  std::uint32_t raw = 0;
  if (status_ok(in_.u32(raw), at, field)) v = raw;
}

void FieldReader::fixed64(std::uint64_t& v, const char* field) {
  if (!ok()) return;
  const std::size_t at = offset();
  std::uint64_t raw = 0;
  if (status_ok(in_.u64(raw), at, field)) v = raw;
}

void FieldReader::text(std::string& v, const TextRule& rule, const char* field) {
  if (!ok()) return;
  const std::size_t at = offset();
  std::uint64_t n = 0;
  if (!status_ok(in_.varint(n), at, field)) return;
  if (n > rule.max_bytes) {
    return fail_at(at, Code::kTooLong, field, std::to_string(n) + " bytes, limit " + std::to_string(rule.max_bytes));
  }
  std::span<const std::uint8_t> view;
  if (!status_ok(in_.bytes(static_cast<std::size_t>(n), view), at, field)) return;
  const std::string_view s(reinterpret_cast<const char*>(view.data()), view.size());
  if (auto bad = text_violation(s, rule)) return fail_at(at, bad->code, field, bad->what);
  v.assign(s);
}

void FieldReader::blob(std::vector<std::uint8_t>& v, std::size_t max, const char* field) {
  if (!ok()) return;
  const std::size_t at = offset();
  std::uint64_t n = 0;
  if (!status_ok(in_.varint(n), at, field)) return;
  if (n > max) {
    return fail_at(at, Code::kTooLong, field, std::to_string(n) + " bytes, limit " + std::to_string(max));
  }
  std::span<const std::uint8_t> view;
  if (!status_ok(in_.bytes(static_cast<std::size_t>(n), view), at, field)) return;
  v.assign(view.begin(), view.end());
}

void FieldReader::inputs(std::vector<engine::InputChange>& v, std::size_t max, const char* field) {
  std::size_t n = 0;
  if (!read_count(n, max, 2, field)) return;  // each change is at least a 1-byte delta and 1-byte buttons
  v.assign(n, engine::InputChange{});
  std::uint64_t time = 0;
  for (std::size_t i = 0; i < n && ok(); ++i) {
    push(field, static_cast<std::int64_t>(i));
    const std::size_t at = offset();
    std::uint64_t delta = 0;
    if (read_varint(delta, 0, kTimeMax, "time_us")) {
      if (delta > kTimeMax - time) {
        fail_at(at, Code::kOutOfRange, "time_us", "time passes " + std::to_string(kTimeMax));
      }
      time += delta;
    }
    const std::size_t buttons_at = offset();
    std::uint64_t buttons = 0;
    if (read_varint(buttons, 0, ~std::uint64_t{0}, "buttons")) {
      if (auto bad = buttons_violation(buttons)) fail_at(buttons_at, bad->code, "buttons", bad->what);
    }
    v[i] = engine::InputChange{static_cast<engine::TimeUs>(time), static_cast<engine::Buttons>(buttons)};
    pop();
  }
}

}  // namespace sr::protocol::detail
