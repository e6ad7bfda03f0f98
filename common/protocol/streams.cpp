#include "common/protocol/streams.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace sr::protocol {

const char* stream_error_name(StreamError e) {
  switch (e) {
    case StreamError::kOk: return "ok";
    case StreamError::kGap: return "changes missing before this batch";
    case StreamError::kOverlap: return "changes sent twice";
    case StreamError::kTimeBackwards: return "a change is stamped before the previous batch's game time";
    case StreamError::kNowBackwards: return "game time went backwards";
    case StreamError::kTooLong: return "input log too long";
  }
  return "unknown stream error";
}

StreamError InputStream::accept(std::uint32_t first_seq, engine::TimeUs now_us, std::span<const InputChange> changes) {
  if (first_seq > next_seq()) return StreamError::kGap;
  if (first_seq < next_seq()) return StreamError::kOverlap;
  if (changes.size() > std::numeric_limits<std::uint32_t>::max() - log_.size()) return StreamError::kTooLong;
  if (now_us < now_us_) return StreamError::kNowBackwards;
  if (!changes.empty() && changes.front().time_us < now_us_) return StreamError::kTimeBackwards;
  log_.insert(log_.end(), changes.begin(), changes.end());
  now_us_ = now_us;
  return StreamError::kOk;
}

std::vector<RacerInputs> split_racer_inputs(std::uint32_t race_id, std::uint32_t player_id, std::uint32_t first_seq,
                                            std::span<const InputChange> changes, engine::TimeUs now_us) {
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
