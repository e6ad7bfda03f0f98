// Test data: one fully populated, valid instance of every message (every field away from its default), and
// worst-case instances that push every list and string to its limit.
#pragma once

#include <ostream>
#include <vector>

#include "common/engine/config.h"
#include "common/protocol/codec.h"
#include "common/protocol/messages.h"

namespace sr::protocol {
// GoogleTest prints errors by their text instead of their bytes.
inline void PrintTo(const DecodeError& e, std::ostream* os) {
  *os << decode_error_code_name(e.code) << ": " << e.message;
}
}  // namespace sr::protocol

namespace sr::protocol::testing {

// A valid config with every field changed from engine::GameConfig{}'s default.
[[nodiscard]] engine::GameConfig sample_config();
[[nodiscard]] engine::Handling sample_handling();
[[nodiscard]] RoomInfo sample_room();

// sample<T>(): the populated instance of message T.
template <class T>
[[nodiscard]] T sample();

// One sample of every message, in id order (index i has id i + 1).
[[nodiscard]] std::vector<Message> all_samples();

// Messages with every list and string at its limit (the biggest each message can get).
[[nodiscard]] std::vector<Message> worst_case_samples();

}  // namespace sr::protocol::testing
