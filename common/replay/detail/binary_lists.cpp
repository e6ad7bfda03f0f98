// Writing the two lists with their own binary coding: the input log and the checkpoints (read by binary_reader.cpp).
#include "common/replay/detail/serialization_binary.h"
#include "common/replay/input_log_codec.h"

namespace sr::replay::detail {

void append_varint(std::vector<std::uint8_t>& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}

void save_input_log(BinaryWriter<cereal::PortableBinaryOutputArchive>& w, cereal::PortableBinaryOutputArchive& ar,
                    const std::vector<engine::InputChange>& changes) {
  const EncodedInputLog log = encode_input_log(changes);
  w.varint(log.count);
  if (log.count == 0) return;
  w.varint(log.unit_us);
  w.byte(log.orders);
  w.varint(log.bits.size());
  ar(cereal::binary_data(log.bits.data(), log.bits.size()));
}

void save_checkpoints(BinaryWriter<cereal::PortableBinaryOutputArchive>& w, cereal::PortableBinaryOutputArchive& ar,
                      const std::vector<engine::Checkpoint>& list) {
  w.varint(list.size());
  engine::TimeUs last = 0;
  for (const engine::Checkpoint& c : list) {
    w.varint(static_cast<std::uint64_t>(c.time_us - last));
    ar(c.state_hash);
    last = c.time_us;
  }
}

}  // namespace sr::replay::detail
