#include "web/wasm/replay_session.h"

#include <algorithm>
#include <cassert>
#include <string_view>
#include <utility>

namespace sr::web {

ReplayFormat format_of(std::span<const std::uint8_t> bytes) {
  for (const std::uint8_t b : bytes) {
    if (b == ' ' || b == '\t' || b == '\n' || b == '\r') continue;
    return b == '{' ? ReplayFormat::kJson : ReplayFormat::kBinary;
  }
  return ReplayFormat::kBinary;
}

replay::Result<replay::Replay> decode_replay(std::span<const std::uint8_t> bytes, const replay::JsonOptions& json) {
  if (format_of(bytes) == ReplayFormat::kJson) {
    return replay::decode_json(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), json);
  }
  return replay::decode_binary(bytes);
}

const char* verdict_name(replay::Verdict verdict) {
  switch (verdict) {
    case replay::Verdict::kVerified: return "verified";
    case replay::Verdict::kMismatch: return "mismatch";
    case replay::Verdict::kUnsupportedRules: return "unsupported_rules";
  }
  return "unknown";
}

sr::Result<std::unique_ptr<ReplaySession>, std::string> ReplaySession::open(std::span<const std::uint8_t> bytes,
                                                                            const replay::JsonOptions& json) {
  replay::Result<replay::Replay> decoded = decode_replay(bytes, json);
  if (!decoded) return decoded.error().describe();
  const ReplayFormat format = format_of(bytes);
  return std::unique_ptr<ReplaySession>(new ReplaySession(std::move(decoded.value()), format));
}

ReplaySession::ReplaySession(replay::Replay replay, ReplayFormat format)
    : replay_(std::move(replay)), format_(format), report_(replay::verify(replay_)) {
  cursors_.resize(replay_.racers.size());
}

const replay::Disagreement* ReplaySession::disagreement(std::size_t racer) const {
  for (const replay::Disagreement& d : report_.disagreements) {
    if (d.racer == racer) return &d;
  }
  return nullptr;
}

engine::TimeUs ReplaySession::end_us() const {
  engine::TimeUs end = 0;
  for (const replay::Racer& r : replay_.racers) end = std::max(end, r.result.stats.time_us);
  return end;
}

RacerCursor& ReplaySession::cursor(std::size_t racer) {
  assert(racer < cursors_.size());
  if (!cursors_[racer]) cursors_[racer] = std::make_unique<RacerCursor>(replay_, racer);
  return *cursors_[racer];
}

}  // namespace sr::web
