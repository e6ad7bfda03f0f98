#include "common/protocol/codec.h"

#include <array>
#include <cassert>
#include <utility>

#include "common/protocol/detail/field_io.h"
#include "common/protocol/detail/message_fields.h"

namespace sr::protocol {
namespace {

using detail::FieldReader;
using detail::FieldWriter;

constexpr std::size_t kMessageKinds = std::variant_size_v<Message>;

// A default-constructed message of variant alternative `index`.
template <std::size_t... I>
Message make_message(std::size_t index, std::index_sequence<I...>) {
  using Factory = Message (*)();
  static constexpr std::array<Factory, sizeof...(I)> kFactories = {
      +[]() -> Message { return std::variant_alternative_t<I, Message>{}; }...};
  return kFactories[index]();
}

// Writes the id and fields; the first rule a field breaks is left in the writer's error().
FieldWriter write_message(const Message& message) {
  const MessageId id = message_id(message);
  FieldWriter w(message_name(id));
  w.u8(static_cast<std::uint8_t>(id), 1, static_cast<std::uint8_t>(kMessageKinds), "id");
  std::visit([&](const auto& m) { detail::fields(w, m); }, message);
  if (w.offset() > kMaxMessageBytes) {
    w.fail_at(0, DecodeErrorCode::kTooLarge, nullptr,
              std::to_string(w.offset()) + " bytes, limit " + std::to_string(kMaxMessageBytes));
  }
  return w;
}

DecodeError make_error(DecodeErrorCode code, std::size_t offset, std::string message) {
  return DecodeError{code, offset, std::move(message)};
}

}  // namespace

const char* decode_error_code_name(DecodeErrorCode code) {
  switch (code) {
    case DecodeErrorCode::kTruncated: return "truncated";
    case DecodeErrorCode::kTooLarge: return "too large";
    case DecodeErrorCode::kUnknownMessage: return "unknown message";
    case DecodeErrorCode::kTrailingBytes: return "trailing bytes";
    case DecodeErrorCode::kBadVarint: return "bad varint";
    case DecodeErrorCode::kOutOfRange: return "out of range";
    case DecodeErrorCode::kTooLong: return "too long";
    case DecodeErrorCode::kBadText: return "bad text";
    case DecodeErrorCode::kInvalidConfig: return "invalid config";
    case DecodeErrorCode::kInconsistent: return "inconsistent";
  }
  return "unknown error";
}

std::vector<std::uint8_t> encode(const Message& message) {
  FieldWriter w = write_message(message);
  assert(w.ok() && "encode() of an invalid message: check it with validate() first");
  return w.take();
}

sr::Status<DecodeError> validate(const Message& message) {
  if (const FieldWriter w = write_message(message); !w.ok()) return *w.error();
  return {};
}

DecodeResult decode(std::span<const std::uint8_t> bytes) {
  if (bytes.size() > kMaxMessageBytes) {
    return {
        make_error(DecodeErrorCode::kTooLarge, 0,
                   "message of " + std::to_string(bytes.size()) + " bytes, limit " + std::to_string(kMaxMessageBytes))};
  }
  if (bytes.empty()) return {make_error(DecodeErrorCode::kTruncated, 0, "empty message: no id byte")};
  const std::uint8_t id = bytes[0];
  if (!is_message_id(id)) {
    return {make_error(DecodeErrorCode::kUnknownMessage, 0, "unknown message id " + std::to_string(id))};
  }
  Message message = make_message(id - 1u, std::make_index_sequence<kMessageKinds>{});
  FieldReader r(message_name(static_cast<MessageId>(id)), bytes, 1);
  std::visit([&](auto& m) { detail::fields(r, m); }, message);
  if (!r.ok()) return {*r.error()};
  if (r.remaining() != 0) {
    return {make_error(DecodeErrorCode::kTrailingBytes, r.offset(),
                       std::string(message_name(static_cast<MessageId>(id))) + ": " + std::to_string(r.remaining()) +
                           " bytes after the last field (byte " + std::to_string(r.offset()) + ")")};
  }
  return {std::move(message)};
}

}  // namespace sr::protocol
