#include "common/replay/input_log_codec.h"

#include <array>
#include <bit>
#include <cassert>
#include <limits>
#include <numeric>

#include "common/replay/bit_stream.h"

namespace sr::replay {
namespace {

using engine::Buttons;

constexpr int kButtonBits = 8;  // engine::button::kAll

// The symbol of one change, given the buttons held before it:
//   held != 0:  1 bit   1 = a single held button was released, 0 = anything else
//   release:    which held button, truncated binary over the held buttons (ascending bit order)
//   otherwise:  1 bit   0 = a single button was pressed, 1 = several bits changed
//     press:    which free button, truncated binary over the buttons not held (ascending bit order)
//     several:  the new buttons value in 8 bits
struct Symbol {
  bool release = false;
  bool several = false;
  std::uint32_t index = 0;  // release / press: rank of the bit among the held / free buttons
};

std::uint32_t rank_of(Buttons set, Buttons bit) { return static_cast<std::uint32_t>(std::popcount(set & (bit - 1u))); }

// The bit of `set` with rank `rank` (rank < popcount(set)).
Buttons bit_at_rank(Buttons set, std::uint32_t rank) {
  for (int b = 0; b < kButtonBits; ++b) {
    const auto bit = static_cast<Buttons>(1u << b);
    if (set & bit) {
      if (rank == 0) return bit;
      --rank;
    }
  }
  return 0;
}

Symbol classify(Buttons held, Buttons next) {
  const auto toggled = static_cast<Buttons>(held ^ next);
  Symbol s;
  if (std::popcount(toggled) == 1) {
    s.release = (toggled & held) != 0;
    const Buttons pool = s.release ? held : static_cast<Buttons>(engine::button::kAll & ~held);
    s.index = rank_of(pool, toggled);
  } else {
    s.several = true;
  }
  return s;
}

int best_order(const std::vector<std::uint64_t>& values) {
  int best = 0;
  std::uint64_t best_bits = std::numeric_limits<std::uint64_t>::max();
  for (int k = 0; k <= kMaxExpGolombOrder; ++k) {
    std::uint64_t bits = 0;
    for (std::uint64_t v : values) bits += static_cast<std::uint64_t>(exp_golomb_bits(v, k));
    if (bits < best_bits) {
      best_bits = bits;
      best = k;
    }
  }
  return best;
}

}  // namespace

EncodedInputLog encode_input_log(std::span<const engine::InputChange> inputs) {
  EncodedInputLog out;
  out.count = inputs.size();
  if (inputs.empty()) return out;

  std::uint64_t unit = 0;
  engine::TimeUs last = 0;
  for (const engine::InputChange& c : inputs) {
    unit = std::gcd(unit, static_cast<std::uint64_t>(c.time_us - last));
    last = c.time_us;
  }
  out.unit_us = unit == 0 ? 1 : unit;

  std::vector<Symbol> symbols;
  std::vector<std::uint64_t> deltas, press_deltas, release_deltas;
  symbols.reserve(inputs.size());
  deltas.reserve(inputs.size());
  Buttons held = 0;
  last = 0;
  for (const engine::InputChange& c : inputs) {
    const Symbol s = classify(held, c.buttons);
    const auto d = static_cast<std::uint64_t>(c.time_us - last) / out.unit_us;
    symbols.push_back(s);
    deltas.push_back(d);
    (s.release ? release_deltas : press_deltas).push_back(d);
    held = c.buttons;
    last = c.time_us;
  }
  const int k_press = best_order(press_deltas);
  const int k_release = best_order(release_deltas);
  out.orders = static_cast<std::uint8_t>(k_press | (k_release << 4));

  BitWriter w;
  held = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Symbol& s = symbols[i];
    if (held != 0) w.put(s.release ? 1 : 0, 1);
    if (s.release) {
      w.put_truncated(s.index, static_cast<std::uint32_t>(std::popcount(held)));
    } else {
      w.put(s.several ? 1 : 0, 1);
      if (s.several) {
        w.put(inputs[i].buttons, kButtonBits);
      } else {
        w.put_truncated(s.index, static_cast<std::uint32_t>(kButtonBits - std::popcount(held)));
      }
    }
    w.put_exp_golomb(deltas[i], s.release ? k_release : k_press);
    held = inputs[i].buttons;
  }
  out.bits = w.bytes();
  return out;
}

sr::Status<std::string> decode_input_log(const EncodedInputLog& log, std::vector<engine::InputChange>& out) {
  out.clear();
  if (log.count == 0) {
    if (!log.bits.empty()) return "an empty log has stream bytes";
    return {};
  }
  if (log.unit_us == 0 || log.unit_us > static_cast<std::uint64_t>(std::numeric_limits<engine::TimeUs>::max())) {
    return "time unit " + std::to_string(log.unit_us) + " us is out of range";
  }
  const int k_press = log.orders & 0x0F;
  const int k_release = log.orders >> 4;
  // Every change takes at least two bits, so a count above 4 per byte cannot be honest.
  if (log.count > log.bits.size() * 4) {
    return "count " + std::to_string(log.count) + " exceeds what " + std::to_string(log.bits.size()) +
           " stream bytes can hold";
  }
  out.reserve(static_cast<std::size_t>(log.count));

  BitReader r(log.bits);
  Buttons held = 0;
  engine::TimeUs time = 0;
  const auto unit = static_cast<engine::TimeUs>(log.unit_us);
  for (std::uint64_t i = 0; i < log.count; ++i) {
    const std::string where = "change " + std::to_string(i) + ": ";
    std::uint64_t flag = 0;
    bool release = false;
    if (held != 0) {
      if (!r.get(1, flag)) return where + "stream ends early";
      release = flag == 1;
    }
    Buttons next = 0;
    if (release) {
      std::uint32_t rank = 0;
      if (!r.get_truncated(static_cast<std::uint32_t>(std::popcount(held)), rank)) return where + "stream ends early";
      next = static_cast<Buttons>(held & ~bit_at_rank(held, rank));
    } else {
      if (!r.get(1, flag)) return where + "stream ends early";
      if (flag == 1) {
        std::uint64_t value = 0;
        if (!r.get(kButtonBits, value)) return where + "stream ends early";
        next = static_cast<Buttons>(value);
        if (next == held) return where + "does not change the buttons";
        if (std::popcount(static_cast<unsigned>(next ^ held)) == 1)
          return where + "a single-button change is coded as several";
      } else {
        const auto free = static_cast<Buttons>(engine::button::kAll & ~held);
        std::uint32_t rank = 0;
        if (free == 0) return where + "a press with every button already held";
        if (!r.get_truncated(static_cast<std::uint32_t>(std::popcount(free)), rank)) return where + "stream ends early";
        next = static_cast<Buttons>(held | bit_at_rank(free, rank));
      }
    }
    std::uint64_t delta = 0;
    if (!r.get_exp_golomb(release ? k_release : k_press, delta)) return where + "bad or truncated time delta";
    const auto max = std::numeric_limits<engine::TimeUs>::max();
    if (delta > static_cast<std::uint64_t>((max - time) / unit)) return where + "time overflows";
    time += static_cast<engine::TimeUs>(delta) * unit;
    out.push_back(engine::InputChange{time, next});
    held = next;
  }
  if (r.bits_left() >= 8) return std::to_string(r.bits_left() / 8) + " unused bytes after the last change";
  if (!r.rest_is_zero()) return "padding bits after the last change are not zero";
  return {};
}

}  // namespace sr::replay
