// Helpers for the protocol's multi-message streams, so that server and clients split them the same way: a racer's
// input stream (RacerInputs relays and catch-up chunks) and a replay download (ReplayChunk).
//
// The receiving end of an input stream is the racer's run: engine::RacerRun::accept checks that a batch continues
// the stream (PROTOCOL.md "Input streams") and feeds it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "common/engine/types.h"
#include "common/protocol/messages.h"

namespace sr::protocol {

// Splits changes (numbered from first_seq, times non-decreasing and <= now_us) into RacerInputs of at most
// kMaxInputsPerRelay changes, each valid for encode(). Every message but the last has now_us = its last change's
// time; the last carries `now_us`. No changes give one message without changes.
[[nodiscard]] std::vector<RacerInputs> split_racer_inputs(std::uint32_t race_id, std::uint32_t player_id,
                                                          std::uint32_t first_seq,
                                                          std::span<const engine::InputChange> changes,
                                                          engine::TimeUs now_us);

// Splits a replay file (at most kMaxReplayBytes) into ReplayChunks of at most kMaxReplayChunkBytes, in order.
// An empty file gives one empty chunk with total_bytes 0.
[[nodiscard]] std::vector<ReplayChunk> split_replay(std::uint64_t game_id, std::span<const std::uint8_t> file);

enum class AssembleStatus : std::uint8_t {
  kIncomplete = 0,       // chunk taken, more to come
  kComplete = 1,         // chunk taken, the file is whole
  kWrongGame = 2,        // chunk of another game_id; ignored
  kOutOfOrder = 3,       // offset is not the number of bytes received so far; ignored
  kTotalChanged = 4,     // total_bytes differs from the first chunk's; ignored
  kAlreadyComplete = 5,  // nothing more was expected; ignored
};

// Rebuilds a downloaded replay from its chunks. Memory grows only with the bytes actually received.
class ReplayAssembler {
 public:
  explicit ReplayAssembler(std::uint64_t game_id) : game_id_(game_id) {}

  [[nodiscard]] AssembleStatus add(const ReplayChunk& chunk);

  [[nodiscard]] bool complete() const { return started_ && bytes_.size() == total_bytes_; }
  [[nodiscard]] std::uint64_t game_id() const { return game_id_; }
  [[nodiscard]] std::uint32_t total_bytes() const { return total_bytes_; }  // 0 until the first chunk
  // The file once complete() (the assembler is empty afterwards).
  [[nodiscard]] std::vector<std::uint8_t> take() { return std::move(bytes_); }

 private:
  std::uint64_t game_id_;
  bool started_ = false;
  std::uint32_t total_bytes_ = 0;
  std::vector<std::uint8_t> bytes_;
};

}  // namespace sr::protocol
