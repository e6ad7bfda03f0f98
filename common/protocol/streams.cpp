#include "common/protocol/streams.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace sr::protocol {

std::vector<RacerInputs> split_racer_inputs(std::uint32_t race_id, std::uint32_t player_id, std::uint32_t first_seq,
                                            std::span<const engine::InputChange> changes, engine::TimeUs now_us) {
  std::vector<RacerInputs> out;
  std::size_t i = 0;
  do {
    const std::size_t n = std::min(kMaxInputsPerRelay, changes.size() - i);
    RacerInputs m;
    m.race_id = race_id;
    m.player_id = player_id;
    m.first_seq = static_cast<std::uint32_t>(first_seq + i);
    m.changes.assign(changes.begin() + static_cast<std::ptrdiff_t>(i),
                     changes.begin() + static_cast<std::ptrdiff_t>(i + n));
    i += n;
    m.now_us = i == changes.size() ? now_us : m.changes.back().time_us;
    out.push_back(std::move(m));
  } while (i < changes.size());
  return out;
}

std::vector<ReplayChunk> split_replay(std::uint64_t game_id, std::span<const std::uint8_t> file) {
  assert(file.size() <= kMaxReplayBytes);
  std::vector<ReplayChunk> out;
  std::size_t offset = 0;
  do {
    const std::size_t n = std::min(kMaxReplayChunkBytes, file.size() - offset);
    ReplayChunk c;
    c.game_id = game_id;
    c.total_bytes = static_cast<std::uint32_t>(file.size());
    c.offset = static_cast<std::uint32_t>(offset);
    c.data.assign(file.begin() + static_cast<std::ptrdiff_t>(offset),
                  file.begin() + static_cast<std::ptrdiff_t>(offset + n));
    offset += n;
    out.push_back(std::move(c));
  } while (offset < file.size());
  return out;
}

AssembleStatus ReplayAssembler::add(const ReplayChunk& chunk) {
  if (chunk.game_id != game_id_) return AssembleStatus::kWrongGame;
  if (complete()) return AssembleStatus::kAlreadyComplete;
  if (started_ && chunk.total_bytes != total_bytes_) return AssembleStatus::kTotalChanged;
  if (chunk.offset != bytes_.size()) return AssembleStatus::kOutOfOrder;
  // decode() guarantees offset + size <= total_bytes <= kMaxReplayBytes; a hand-built chunk might not.
  if (std::uint64_t{chunk.offset} + chunk.data.size() > chunk.total_bytes) return AssembleStatus::kOutOfOrder;
  started_ = true;
  total_bytes_ = chunk.total_bytes;
  bytes_.insert(bytes_.end(), chunk.data.begin(), chunk.data.end());
  return complete() ? AssembleStatus::kComplete : AssembleStatus::kIncomplete;
}

}  // namespace sr::protocol
