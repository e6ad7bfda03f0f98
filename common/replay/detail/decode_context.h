// Internal: state shared by the decoders while Cereal walks a replay, and the one exception type they throw.
//
// Cereal calls our load functions with only the archive, so the context travels as Cereal "user data"
// (cereal::UserDataAdapter). It knows how many input bytes are left (for count checks before any allocation),
// and which field is being read (for error messages). DecodeFailure never leaves codec_binary.cpp/codec_json.cpp:
// the decode boundary catches it (and Cereal's own exceptions) and returns an Error.
#pragma once

#define CEREAL_FUTURE_EXPERIMENTAL 1  // enables cereal::UserDataAdapter / get_user_data

#include <cereal/archives/adapters.hpp>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <span>
#include <streambuf>
#include <string>
#include <utility>
#include <vector>

#include "common/engine/types.h"
#include "common/replay/error.h"

namespace sr::replay::detail {

struct DecodeFailure : std::exception {
  DecodeFailure(ErrorKind k, std::string m) : kind(k), message(std::move(m)) {}
  [[nodiscard]] const char* what() const noexcept override { return message.c_str(); }
  ErrorKind kind;
  std::string message;
};

[[noreturn]] void fail(ErrorKind kind, std::string message);

// A read-only stream buffer over memory that can tell its position.
class InBuf : public std::streambuf {
 public:
  InBuf(const std::uint8_t* data, std::size_t size);
  [[nodiscard]] std::size_t offset() const { return static_cast<std::size_t>(gptr() - eback()); }
  [[nodiscard]] std::size_t remaining() const { return static_cast<std::size_t>(egptr() - gptr()); }
  // The next n bytes (n <= remaining()), read past in place.
  [[nodiscard]] std::span<const std::uint8_t> take(std::size_t n) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(gptr());
    setg(eback(), gptr() + n, egptr());
    return {p, n};
  }
};

// JSON import: what a racer object left out, so that the importer can record it (codec.h, JsonOptions).
struct RecordingRequest {
  bool has_result = true;
  bool has_checkpoints = true;
  engine::TimeUs end_time_us = -1;  // "end_time_us" when given, else -1 (the last input's time)
};

class DecodeContext {
 public:
  // Binary: `in` is the body's buffer and `base_offset` the bytes before it. JSON: in == nullptr.
  DecodeContext(InBuf* in, std::int64_t base_offset)
      : in_(in), base_offset_(base_offset), uncaught_(std::uncaught_exceptions()) {
    path_.reserve(16);
  }

  [[nodiscard]] bool binary() const { return in_ != nullptr; }
  // Bytes of the body not read yet (binary only).
  [[nodiscard]] std::size_t remaining() const { return in_ ? in_->remaining() : 0; }
  // Binary only: the next n bytes (n <= remaining()), passed over without a copy.
  [[nodiscard]] std::span<const std::uint8_t> take(std::size_t n) { return in_->take(n); }
  // Byte offset from the start of the file, -1 for JSON.
  [[nodiscard]] std::int64_t offset() const {
    return in_ ? base_offset_ + static_cast<std::int64_t>(in_->offset()) : -1;
  }

  void push(const char* name, std::int64_t index) { path_.push_back(Part{name, index, offset()}); }
  // Pops a part; when an exception is unwinding through it, the innermost part records the failure's place: the
  // path and the offset the part started at. (Parts are made and popped only while decoding runs, never by an
  // unwinding that was under way before it: exceptions beyond those at the start mean a failure of this decode.)
  void pop() {
    if (std::uncaught_exceptions() > uncaught_ && !captured_) capture();
    path_.pop_back();
  }

  [[nodiscard]] const std::string& failure_field() const { return failure_field_; }
  [[nodiscard]] std::int64_t failure_offset() const { return failure_offset_; }
  [[nodiscard]] std::string path() const;

  bool json_allow_recording = false;
  std::vector<RecordingRequest> recording;  // JSON: one per racer, in order

 private:
  struct Part {
    const char* name;    // nullptr for an array element
    std::int64_t index;  // array index, or -1
    std::int64_t start;  // offset() when the part began
  };
  void capture();

  InBuf* in_;
  std::int64_t base_offset_;
  int uncaught_;  // std::uncaught_exceptions() when decoding began
  std::vector<Part> path_;
  bool captured_ = false;
  std::string failure_field_;
  std::int64_t failure_offset_ = -1;
};

// Names one field (or array element) for as long as it is being read.
class Scope {
 public:
  Scope(DecodeContext& ctx, const char* name, std::int64_t index = -1) : ctx_(ctx) { ctx_.push(name, index); }
  ~Scope() { ctx_.pop(); }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  DecodeContext& ctx_;
};

template <class Archive>
DecodeContext& context_of(Archive& ar) {
  return cereal::get_user_data<DecodeContext>(ar);
}

}  // namespace sr::replay::detail
