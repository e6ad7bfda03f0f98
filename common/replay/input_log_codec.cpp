#include "common/replay/input_log_codec.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <limits>
#include <numeric>

#include "common/replay/bit_stream.h"

namespace sr::replay {
namespace {

using engine::Buttons;

constexpr std::uint32_t kButtonBits = 8;  // engine::button::kAll

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

// The buttons in `set` (of engine::button::kAll). A table: without -mpopcnt, std::popcount is a call into libgcc.
constexpr std::array<std::uint8_t, 256> kButtonCount = [] {
  std::array<std::uint8_t, 256> t{};
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = static_cast<std::uint8_t>((i & 1u) + t[i / 2]);
  return t;
}();
constexpr std::uint32_t count_of(Buttons set) { return kButtonCount[set & engine::button::kAll]; }

std::uint32_t rank_of(Buttons set, Buttons bit) { return count_of(static_cast<Buttons>(set & (bit - 1u))); }

// The bit of `set` with rank `rank` (rank < count_of(set)).
constexpr Buttons bit_at_rank(Buttons set, std::uint32_t rank) {
  for (; rank > 0; --rank) set = static_cast<Buttons>(set & (set - 1u));  // drop the lowest bit
  return static_cast<Buttons>(set & (~set + 1u));                         // the lowest bit left
}

// # The decoder's fast path
// Apart from "several" (a flag and 8 bits), a symbol takes at most 5 bits: the release flag, the several flag and a
// rank of up to 3 bits in truncated binary. kSymbols[held * 32 + the next 5 bits] is what they say, decoded as
// decode_input_log() does bit by bit: the new buttons (bits 0-7), the bits the symbol takes (bits 8-11; 0 when the
// bit-by-bit path must decode it: several, or a press while every button is held) and whether it is a release
// (bit 12).
constexpr int kPeekBits = 5;
// The fewest bits the fast path has in its window: a symbol (5 bits at most) and a delta's code of up to 27 bits fit,
// which is every delta under 2^13 units whatever its order. Asking for less than the reader can hold saves refills.
constexpr int kFastChangeBits = 32;
constexpr std::array<std::uint16_t, 256 << kPeekBits> kSymbols = [] {
  std::array<std::uint16_t, 256 << kPeekBits> t{};
  for (std::uint32_t held = 0; held < 256; ++held) {
    for (std::uint32_t peek = 0; peek < (1u << kPeekBits); ++peek) {
      int taken = 0;
      const auto bit = [&] { return (peek >> (kPeekBits - 1 - taken++)) & 1u; };
      const bool release = held != 0 && bit() == 1;
      if (!release && bit() == 1) continue;  // several
      const auto pool = static_cast<Buttons>(release ? held : engine::button::kAll & ~held);
      const std::uint32_t n = count_of(pool);
      if (n == 0) continue;  // a press with every button held: an error, found bit by bit
      const int k = std::bit_width(n) - 1;
      const std::uint32_t u = (2u << k) - n;
      std::uint32_t rank = 0;
      for (int b = 0; b < k; ++b) rank = (rank << 1) | bit();
      if (rank >= u) rank = ((rank << 1) | bit()) - u;
      const Buttons b = bit_at_rank(pool, rank);
      const auto next = static_cast<Buttons>(release ? held & ~b : held | b);
      t[(held << kPeekBits) | peek] =
          static_cast<std::uint16_t>(next | static_cast<std::uint32_t>(taken) << 8 | (release ? 1u : 0u) << 12);
    }
  }
  return t;
}();

Symbol classify(Buttons held, Buttons next) {
  const auto toggled = static_cast<Buttons>(held ^ next);
  Symbol s;
  if (count_of(toggled) == 1) {
    s.release = (toggled & held) != 0;
    const Buttons pool = s.release ? held : static_cast<Buttons>(engine::button::kAll & ~held);
    s.index = rank_of(pool, toggled);
  } else {
    s.several = true;
  }
  return s;
}

// time += delta * unit_us (unit_us 1..INT64_MAX), or false if that passes INT64_MAX. Without a division when nothing
// can overflow: a product of two numbers below 2^31, added to a time below 2^62.
bool add_delta(std::uint64_t delta, std::uint64_t unit_us, engine::TimeUs& time) {
  constexpr auto kMaxTime = std::numeric_limits<engine::TimeUs>::max();
  const auto unit = static_cast<engine::TimeUs>(unit_us);
  const bool small = (delta | unit_us) < (std::uint64_t{1} << 31) && time < (engine::TimeUs{1} << 62);
  if (!small && delta > static_cast<std::uint64_t>((kMaxTime - time) / unit)) return false;
  time += static_cast<engine::TimeUs>(delta) * unit;
  return true;
}

// Changes sized before decoding: hours of play, 1 MiB.
constexpr std::size_t kReserveChanges = 65'536;

// "change 7: stream ends early": built only once a change is found wrong.
std::string at_change(std::uint64_t i, const char* what) { return "change " + std::to_string(i) + ": " + what; }

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
      w.put_truncated(s.index, count_of(held));
    } else {
      w.put(s.several ? 1 : 0, 1);
      if (s.several) {
        w.put(inputs[i].buttons, kButtonBits);
      } else {
        w.put_truncated(s.index, kButtonBits - count_of(held));
      }
    }
    w.put_exp_golomb(deltas[i], s.release ? k_release : k_press);
    held = inputs[i].buttons;
  }
  out.bits = w.bytes();
  return out;
}

namespace {

// One change decoded bit by bit from `r` (FORMAT.md, "The input log stream"): the changes the fast path leaves, and
// every malformed one. Returns what was wrong, or nullptr with `next` and `delta` set.
const char* decode_change(BitReader& r, Buttons held, int k_press, int k_release, Buttons& next, std::uint64_t& delta) {
  constexpr const char* kEndsEarly = "stream ends early";
  std::uint64_t flag = 0;
  bool release = false;
  if (held != 0) {
    if (!r.get(1, flag)) return kEndsEarly;
    release = flag == 1;
  }
  if (release) {
    std::uint32_t rank = 0;
    if (!r.get_truncated(count_of(held), rank)) return kEndsEarly;
    next = static_cast<Buttons>(held & ~bit_at_rank(held, rank));
  } else {
    if (!r.get(1, flag)) return kEndsEarly;
    if (flag == 1) {
      std::uint64_t value = 0;
      if (!r.get(kButtonBits, value)) return kEndsEarly;
      next = static_cast<Buttons>(value);
      if (next == held) return "does not change the buttons";
      if (count_of(static_cast<Buttons>(next ^ held)) == 1) return "a single-button change is coded as several";
    } else {
      const auto free = static_cast<Buttons>(engine::button::kAll & ~held);
      std::uint32_t rank = 0;
      if (free == 0) return "a press with every button already held";
      if (!r.get_truncated(count_of(free), rank)) return kEndsEarly;
      next = static_cast<Buttons>(held | bit_at_rank(free, rank));
    }
  }
  if (!r.get_exp_golomb(release ? k_release : k_press, delta)) return "bad or truncated time delta";
  return nullptr;
}

}  // namespace

sr::Status<std::string> decode_input_log(const InputLogView& log, std::vector<engine::InputChange>& out) {
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
  // Sized up to a bound, so that a count a hostile file claims costs memory only as far as its stream decodes; then
  // doubled as the changes come. The changes are written through a pointer: a push_back() per change would load and
  // store the vector's end and check its capacity, as many instructions again as the decoding of a change takes.
  const auto count = static_cast<std::size_t>(log.count);
  std::size_t sized = std::min<std::size_t>(count, kReserveChanges);
  out.resize(sized);
  engine::InputChange* dst = out.data();

  // Times grow without a division while both factors are below 2^31 and the time below 2^62 (add_delta).
  const engine::TimeUs safe = log.unit_us < (std::uint64_t{1} << 31) ? engine::TimeUs{1} << 62 : 0;
  const auto unit = static_cast<engine::TimeUs>(log.unit_us);
  BitReader r(log.bits);
  Buttons held = 0;
  engine::TimeUs time = 0;
  std::size_t i = 0;
  while (i < count) {
    if (i == sized) {
      sized = std::min(count, 2 * sized);
      out.resize(sized);
      dst = out.data();
    }
    // The fast path, on a copy of the reader's position: a symbol of the table and the delta after it, while both
    // are in the window and the time needs no overflow check.
    BitReader::State s = r.state();
    for (; i < sized; ++i) {
      if (s.avail < kFastChangeBits) s.refill();
      const std::uint32_t symbol =
          kSymbols[(static_cast<std::uint32_t>(held) << kPeekBits) | (s.buf >> (64 - kPeekBits))];
      const int symbol_bits = static_cast<int>((symbol >> 8) & 0xFu);
      if (symbol_bits == 0 || symbol_bits > s.avail) break;
      const int k = (symbol >> 12) != 0 ? k_release : k_press;
      const std::uint64_t rest = s.buf << symbol_bits;
      if (rest == 0) break;  // no 1 in the window: a delta too long for it, or the stream's end
      // The delta's code: zeros, then w = delta + 2^k in zeros + k + 1 bits. Counted from the top bit of `rest`
      // (63 - zeros), which is what the bit scan instruction of any x86-64 gives, with no step after it: each change
      // waits on the one before through where it starts.
      const int top = 63 ^ __builtin_clzll(rest);
      const int taken = symbol_bits + k + 127 - 2 * top;  // symbol_bits + 2 * zeros + k + 1
      if (taken > s.avail) break;                         // (avail < 64)
      const int zeros = 63 - top;
      const std::uint64_t delta = ((rest << zeros) >> (63 - zeros - k)) - (std::uint64_t{1} << k);
      if (delta >= (std::uint64_t{1} << 31) || time >= safe) break;
      s.skip(taken);
      time += static_cast<engine::TimeUs>(delta) * unit;
      held = static_cast<Buttons>(symbol & 0xFFu);
      dst[i] = engine::InputChange{time, held};
    }
    r.set_state(s);
    if (i == count) break;
    if (i == sized) continue;

    // Bit by bit: the change the fast path left, and every error.
    Buttons next = 0;
    std::uint64_t delta = 0;
    if (const char* problem = decode_change(r, held, k_press, k_release, next, delta)) return at_change(i, problem);
    if (!add_delta(delta, log.unit_us, time)) return at_change(i, "time overflows");
    held = next;
    dst[i] = engine::InputChange{time, held};
    ++i;
  }
  if (r.bits_left() >= 8) return std::to_string(r.bits_left() / 8) + " unused bytes after the last change";
  if (!r.rest_is_zero()) return "padding bits after the last change are not zero";
  return {};
}

}  // namespace sr::replay
