// Encoding and decoding of whole messages: [id byte][fields in the order PROTOCOL.md lists them].
//
// # Guarantees
// - decode() never reads past its input, never throws, and allocates at most in proportion to the input (every
//   count and length is checked against its limit and against the bytes left before anything is allocated).
// - The encoding is canonical: decode() accepts only bytes that encode() produces for the decoded value, so
//   encode(decode(b)) == b whenever decode(b) succeeds, and decode(encode(m)) == m for every valid m.
// - "Valid" means every field within the range messages.h/records.h/text.h document, every GameConfig and Handling
//   accepted by engine::check_config(), and the encoding within kMaxMessageBytes.
//
// # Errors
// decode() returns a DecodeError naming the first bad field ("RoomList.rooms[2].name") and the byte offset where
// that field starts. A peer that sends such bytes is disconnected with DisconnectReason::kProtocolError.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "common/protocol/messages.h"
#include "common/result.h"

namespace sr::protocol {

enum class DecodeErrorCode : std::uint8_t {
  kTruncated = 1,       // the input ends inside a field (or is empty)
  kTooLarge = 2,        // the whole message is over kMaxMessageBytes
  kUnknownMessage = 3,  // the id byte names no message
  kTrailingBytes = 4,   // bytes left over after the last field
  kBadVarint = 5,       // a varint in a longer-than-shortest form or over 64 bits
  kOutOfRange = 6,      // a number, enum, bool or length below its minimum / above its maximum
  kTooLong = 7,         // a string, byte string or list over its limit
  kBadText = 8,         // a string whose bytes its rule forbids (text.h)
  kInvalidConfig = 9,   // a GameConfig or Handling that engine::check_config() rejects
  kInconsistent = 10,   // fields that contradict each other (times out of order, chunk beyond total, ...)
};

struct DecodeError {
  DecodeErrorCode code = DecodeErrorCode::kTruncated;
  std::size_t offset = 0;  // byte offset (from the id byte) where the offending field starts
  std::string message;     // "Hello.name: 17 bytes, limit 16 (byte 1)"
  bool operator==(const DecodeError&) const = default;
};

[[nodiscard]] const char* decode_error_code_name(DecodeErrorCode code);

// Holds either the decoded message (value()) or why decoding failed (error()).
using DecodeResult = sr::Result<Message, DecodeError>;

// The bytes of `message`. Precondition: the message is valid (see above); this is asserted, so building an invalid
// message is a programming error. Use validate() first for anything built from data not yet checked.
[[nodiscard]] std::vector<std::uint8_t> encode(const Message& message);

// Ok if `message` is valid, otherwise what decode() would say about its bytes (offsets refer to them).
[[nodiscard]] sr::Status<DecodeError> validate(const Message& message);

// Decodes exactly one message filling all of `bytes`.
[[nodiscard]] DecodeResult decode(std::span<const std::uint8_t> bytes);

}  // namespace sr::protocol
