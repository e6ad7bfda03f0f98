// The two lists with their own binary coding: the input log and the checkpoints.
#include <limits>

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

void load_input_log(BinaryReader<cereal::PortableBinaryInputArchive>& r, cereal::PortableBinaryInputArchive& ar,
                    std::vector<engine::InputChange>& changes) {
  EncodedInputLog log;
  {
    Scope s(r.context(), "count");
    log.count = r.varint();
  }
  if (log.count > 0) {
    {
      Scope s(r.context(), "unit_us");
      log.unit_us = r.varint();
    }
    {
      Scope s(r.context(), "orders");
      log.orders = r.byte();
    }
    Scope s(r.context(), "stream");
    const std::uint64_t n = r.varint();
    r.need(n);
    log.bits.resize(static_cast<std::size_t>(n));
    ar(cereal::binary_data(log.bits.data(), log.bits.size()));
    if (auto decoded = decode_input_log(log, changes); !decoded) fail(ErrorKind::kBadValue, decoded.error());
  } else {
    changes.clear();
  }
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

void load_checkpoints(BinaryReader<cereal::PortableBinaryInputArchive>& r, cereal::PortableBinaryInputArchive& ar,
                      std::vector<engine::Checkpoint>& list) {
  std::uint64_t n = 0;
  {
    Scope s(r.context(), "count");
    n = r.varint();
    r.need_items(n, 9);  // a checkpoint takes at least 9 bytes
  }
  list.assign(static_cast<std::size_t>(n), engine::Checkpoint{});
  engine::TimeUs last = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    Scope s(r.context(), nullptr, static_cast<std::int64_t>(i));
    const std::uint64_t delta = r.varint();
    if (delta > static_cast<std::uint64_t>(std::numeric_limits<engine::TimeUs>::max() - last)) {
      fail(ErrorKind::kBadValue, "checkpoint time overflows");
    }
    last += static_cast<engine::TimeUs>(delta);
    list[i].time_us = last;
    r.need(8);
    ar(list[i].state_hash);
  }
}

}  // namespace sr::replay::detail
