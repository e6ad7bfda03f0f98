#include "common/replay/replay.h"

#include <array>

#include "common/replay/names.h"

namespace sr::replay {
namespace {

const auto& kStatusNames = names::kStatus;

sr::Status<std::string> check_result(const RacerResult& r) {
  if (static_cast<std::size_t>(r.status) >= kStatusNames.size()) return "result.status is unknown";
  const bool topped = r.status == ResultStatus::kToppedOut;
  const bool has_reason = r.top_out == engine::TopOut::kBlockOut || r.top_out == engine::TopOut::kLockOut;
  if (r.top_out != engine::TopOut::kNone && !has_reason) return "result.top_out is unknown";
  if (topped != has_reason) return "result.top_out must name a reason exactly when the status is topped_out";
  const engine::Stats& s = r.stats;
  const std::int64_t counts[] = {
      s.time_us,       s.pieces,  s.lines,        s.score,        s.level,          s.key_presses,   s.holds,
      s.singles,       s.doubles, s.triples,      s.tetrises,     s.tspins,         s.tspin_singles, s.tspin_doubles,
      s.tspin_triples, s.minis,   s.mini_singles, s.mini_doubles, s.perfect_clears, s.max_combo,     s.max_b2b};
  for (std::int64_t c : counts) {
    if (c < 0) return "result.stats holds a negative number";
  }
  if (s.time_us > kMaxGameTimeUs) return "result.stats.time_us is later than " + std::to_string(kMaxGameTimeUs) + " us";
  // Late game time is part of the game's time: never more than the whole of it.
  if (r.unverified_us < 0) return "result.unverified_us is negative";
  if (r.unverified_us > kMaxGameTimeUs) {
    return "result.unverified_us is more than " + std::to_string(kMaxGameTimeUs) + " us";
  }
  if (r.unverified_us > s.time_us) {
    return "result.unverified_us (" + std::to_string(r.unverified_us) + " us) is more than result.stats.time_us (" +
           std::to_string(s.time_us) + " us)";
  }
  return {};
}

std::string later_than_any_game(std::size_t i) {
  return "inputs[" + std::to_string(i) + "] is later than " + std::to_string(kMaxGameTimeUs) + " us";
}

// check_input_log() of a log in time order with known buttons and a change in every entry (a decoded one): only a
// time past kMaxGameTimeUs can be wrong, and if any is, the last one is.
sr::Status<std::string> check_decoded_log(const std::vector<engine::InputChange>& inputs) {
  if (inputs.empty() || inputs.back().time_us <= kMaxGameTimeUs) return {};
  std::size_t i = 0;
  while (inputs[i].time_us <= kMaxGameTimeUs) ++i;
  return later_than_any_game(i);
}

}  // namespace

engine::GameConfig racer_config(const Replay& replay, std::size_t racer) {
  engine::GameConfig c = replay.config;
  c.handling = replay.racers.at(racer).handling;
  return c;
}

bool valid_text(const std::string& text, std::size_t max_bytes) {
  if (text.size() > max_bytes) return false;
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t len = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7F) return false;  // control characters
      ++i;
      continue;
    }
    if ((c & 0xE0) == 0xC0) {
      len = 2;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + len > text.size()) return false;
    for (std::size_t k = 1; k < len; ++k) {
      const auto cc = static_cast<unsigned char>(text[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    // Overlong forms, surrogates, values past U+10FFFF, and C1 controls are refused.
    const std::uint32_t min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || (cp >= 0x80 && cp < 0xA0)) {
      return false;
    }
    i += len;
  }
  return true;
}

sr::Status<std::string> check_input_log(const std::vector<engine::InputChange>& inputs) {
  // A verifier checks every change of every file: first one pass without a branch per entry, which finds whether any
  // entry is wrong; only then the pass that names the first one.
  bool wrong = false;
  engine::InputChange previous{0, 0};
  for (const engine::InputChange& c : inputs) {
    wrong |= (c.time_us < previous.time_us) | (c.time_us > kMaxGameTimeUs) |
             ((c.buttons & ~engine::button::kAll) != 0) | (c.buttons == previous.buttons);
    previous = c;
  }
  if (!wrong) return {};
  const auto at = [](std::size_t i, const std::string& what) { return "inputs[" + std::to_string(i) + "] " + what; };
  engine::TimeUs last = 0;
  engine::Buttons held = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const engine::InputChange& c = inputs[i];
    if (c.time_us < last) return at(i, "goes back in time");
    if (c.time_us > kMaxGameTimeUs) return later_than_any_game(i);
    if ((c.buttons & ~engine::button::kAll) != 0) return at(i, "holds an unknown button bit");
    if (c.buttons == held) return at(i, "does not change the buttons");
    last = c.time_us;
    held = c.buttons;
  }
  return {};
}

sr::Status<std::string> check_replay(const Replay& r, InputLogCheck input_check) {
  if (r.rules_version < 1) return "rules_version must be at least 1";
  if (r.created_unix_ms < 0 || r.created_unix_ms > kMaxCreatedUnixMs) return "created_unix_ms is out of range";
  if (!valid_text(r.place, kMaxPlaceBytes)) return "place must be at most 128 bytes of UTF-8 without controls";
  if (r.checkpoint_every < 1 || r.checkpoint_every > kMaxCheckpointEvery) {
    return "checkpoint_every must be 1.." + std::to_string(kMaxCheckpointEvery);
  }
  if (r.config.limit_value < 0) return "config.limit_value must not be negative";
  if (r.racers.empty() || r.racers.size() > kMaxReplayRacers) {
    return "a replay holds 1.." + std::to_string(kMaxReplayRacers) + " racers";
  }
  for (std::size_t i = 0; i < r.racers.size(); ++i) {
    const Racer& racer = r.racers[i];
    const std::string where = "racers[" + std::to_string(i) + "]";
    if (racer.name.empty() || !valid_text(racer.name, kMaxNameBytes)) {
      return where + ".name must be 1..64 bytes of UTF-8 without controls";
    }
    if (auto s = engine::check_config(racer_config(r, i)); !s) return where + " config: " + s.error();
    if (auto s = input_check == InputLogCheck::kFull ? check_input_log(racer.inputs) : check_decoded_log(racer.inputs);
        !s) {
      return where + "." + s.error();
    }
    if (auto s = check_result(racer.result); !s) return where + "." + s.error();
    engine::TimeUs last = 0;
    for (const engine::Checkpoint& c : racer.checkpoints) {
      if (c.time_us < last) return where + ".checkpoints go back in time";
      if (c.time_us > kMaxGameTimeUs) return where + ".checkpoints are later than the longest game";
      last = c.time_us;
    }
  }
  return {};
}

const char* status_name(ResultStatus status) {
  const auto i = static_cast<std::size_t>(status);
  return i < kStatusNames.size() ? kStatusNames[i] : "unknown";
}

std::optional<ResultStatus> status_from_name(const std::string& name) {
  for (std::size_t i = 0; i < kStatusNames.size(); ++i) {
    if (name == kStatusNames[i]) return static_cast<ResultStatus>(i);
  }
  return std::nullopt;
}

std::string key_hex(const RacerKey& key) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(key.size() * 2);
  for (std::uint8_t b : key) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

std::optional<RacerKey> key_from_hex(std::string_view hex) {
  if (hex.size() != kRacerKeyBytes * 2) return std::nullopt;
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  RacerKey key{};
  for (std::size_t i = 0; i < key.size(); ++i) {
    const int hi = digit(hex[2 * i]);
    const int lo = digit(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    key[i] = static_cast<std::uint8_t>(hi * 16 + lo);
  }
  return key;
}

}  // namespace sr::replay
