// The impairments of one direction of one network path (delay, jitter, loss, burst loss, reordering, duplication,
// blackouts), as a pure schedule: packets go in with the time they were sent and come out with the time they
// arrive. No sockets and no clock: the caller passes every time in, so a test drives it with a fake clock and
// the proxy (tests/netsim/udp_proxy.h) with the monotonic one. tests/netsim/README.md says what the test bed is for.
//
// # Reproducibility
// An Impairer's schedule is a function of its profile, its seed and the sequence of submit() times and sizes, on any
// machine and standard library: it draws from its own splitmix64 generator, never from <random>, and draws the same
// number of values for every packet whatever happens to it, so a blackout or a full queue changes the fate of no
// other packet.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace sr::netsim {

// Microseconds. Packet times are on whatever monotonic clock the caller uses; the times in a Profile (blackouts,
// the address change) count from an origin the caller sets (Impairer::set_origin), such as the start of a race.
using TimeUs = std::int64_t;

// A probability in parts per million: 0..1,000,000.
using Ppm = std::uint32_t;
inline constexpr Ppm kPpmOne = 1'000'000;

// Everything submitted in [start_us, start_us + duration_us) after the origin is dropped.
struct Blackout {
  TimeUs start_us = 0;     // from the origin
  TimeUs duration_us = 0;  // >= 0
};

// Gilbert-Elliott burst loss: a two-state chain (good, bad) stepped once per packet. A packet sent in the bad state is
// lost with probability loss_in_bad_ppm; the mean loss is loss_in_bad * g2b / (g2b + b2g), the mean time in the bad
// state 1 / b2g packets. All zero: no burst loss.
struct BurstLoss {
  Ppm good_to_bad_ppm = 0;
  Ppm bad_to_good_ppm = kPpmOne;
  Ppm loss_in_bad_ppm = 0;
};

// One direction's impairments. The delays are one way: a round trip through a proxy using the profile in both
// directions takes about twice delay_us.
struct Profile {
  std::string name;
  TimeUs delay_us = 0;   // >= 0: the mean one-way delay
  TimeUs jitter_us = 0;  // >= 0: the delay is uniform in [delay - jitter, delay + jitter] (and never below 0)
  Ppm loss_ppm = 0;      // independent loss
  BurstLoss burst;       // burst loss, on top of the independent loss
  Ppm reorder_ppm = 0;   // a packet picked for reordering is held back by reorder_extra_us, so later ones overtake it
  TimeUs reorder_extra_us = 0;  // >= 0
  Ppm duplicate_ppm = 0;        // a duplicated packet arrives twice, the copy right behind the original
  std::vector<Blackout> blackouts;
  // When the client's address changes (from the origin): the proxy then sends the client's packets from a new
  // source port. The Impairer only reports it.
  std::optional<TimeUs> address_change_at_us;
};

// The names profile_by_name() knows, in the order a help text lists them.
[[nodiscard]] std::vector<std::string> all_profile_names();

// Where blackouts and the address change of the named profiles start, after the origin, unless told otherwise.
inline constexpr TimeUs kDefaultEventOffsetUs = 5'000'000;

// The named profiles (tests/netsim/README.md has the table):
//   lan             0.2 ms +- 0.1 ms, no loss
//   broadband       25 ms +- 5 ms, 0.1% loss
//   wifi            50 ms +- 30 ms, 2% loss, 0.5% reordered (held back 70 ms), 0.5% duplicated
//   mobile          150 ms +- 80 ms, 5% loss in bursts (Gilbert-Elliott, 4 packets a burst on average)
//   blackout3/8/45  broadband, and nothing gets through for 3 s / 8 s / 45 s from event_offset_us
//   address-change  broadband, and the client's address changes at event_offset_us
// # Errors
// An unknown name (the message lists the valid ones) or a negative offset.
[[nodiscard]] sr::Result<Profile, std::string> profile_by_name(std::string_view name,
                                                               TimeUs event_offset_us = kDefaultEventOffsetUs);

// # Errors
// The first field out of range, named: a negative delay, jitter, reorder extra or blackout duration, or a
// probability above 1,000,000 ppm.
[[nodiscard]] sr::Status<std::string> check_profile(const Profile& profile);

// Which way a packet goes through the proxy.
enum class Direction : std::uint8_t {
  kUp,    // client to server
  kDown,  // server to client
};

// The seed of one client's Impairer in one direction, from the run's seed: distinct clients and directions get
// unrelated sequences, and the same (seed, client, direction) always the same one.
[[nodiscard]] std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t client_index, Direction direction);

// What happened to the packets of one direction. A packet is counted in `in` and then either in one of the drops or
// delivered (once, or twice when duplicated: `out` counts copies).
struct Counters {
  std::uint64_t in = 0;           // packets submitted
  std::uint64_t out = 0;          // copies delivered, duplicates included
  std::uint64_t lost = 0;         // dropped by independent or burst loss
  std::uint64_t blacked_out = 0;  // dropped in a blackout
  std::uint64_t overflowed = 0;   // dropped because the queue was full
  std::uint64_t duplicated = 0;   // packets delivered twice
  std::uint64_t reordered = 0;    // packets held back for others to overtake

  [[nodiscard]] std::uint64_t dropped() const { return lost + blacked_out + overflowed; }
  Counters& operator+=(const Counters& other);
  bool operator==(const Counters&) const = default;
};

// Why submit() dropped a packet.
enum class Drop : std::uint8_t { kNone, kLoss, kBurstLoss, kBlackout, kQueueFull };

// What submit() decided for one packet.
struct Fate {
  std::uint64_t index = 0;  // the packet's submission number, from 0
  Drop drop = Drop::kNone;
  int copies = 0;            // 0 when dropped, else 1, or 2 when duplicated
  TimeUs deliver_at_us = 0;  // when copies > 0: both copies are due then, the duplicate right behind
  bool reordered = false;    // held back by reorder_extra_us
  bool operator==(const Fate&) const = default;
};

// One copy of a packet that is due.
struct Delivery {
  TimeUs deliver_at_us = 0;
  TimeUs submitted_at_us = 0;
  std::uint64_t index = 0;  // the submission number (a duplicate repeats its original's)
  std::vector<std::uint8_t> bytes;
};

// The schedule of one direction of one path.
//
// # Delivery times
// A packet submitted at t is due at t + delay + a jitter uniform in [-jitter, +jitter] (never before t), but not
// before the packet submitted before it: jitter alone never reorders. Only a packet picked for reordering is due
// reorder_extra_us later than that (without the clamp), and packets submitted after it may come out first. So every
// copy is due within [t + max(0, delay - jitter), t + delay + jitter + reorder_extra_us], and when submit times do
// not go back, the packets that are not reordered come out in the order they went in.
//
// # Queue
// At most max_queued copies wait at once; a packet whose copies would not fit is dropped (Drop::kQueueFull).
class Impairer {
 public:
  static constexpr std::size_t kDefaultMaxQueued = 10'000;

  // Precondition: check_profile(profile) is ok, max_queued >= 2.
  Impairer(Profile profile, std::uint64_t seed, std::size_t max_queued = kDefaultMaxQueued);

  // Time zero of the profile's blackouts and address change, on the clock of submit() (0 unless set). It may be set
  // at any time; it applies to packets submitted afterwards.
  void set_origin(TimeUs origin_us) { origin_us_ = origin_us; }
  [[nodiscard]] TimeUs origin_us() const { return origin_us_; }

  // Takes a packet sent at now_us and decides its fate; the copies it delivers wait until pop_due().
  Fate submit(TimeUs now_us, std::span<const std::uint8_t> bytes);

  // The copies due at or before now_us, in delivery order (by due time, ties in the order they were scheduled).
  [[nodiscard]] std::vector<Delivery> pop_due(TimeUs now_us);

  // When the earliest waiting copy is due; nullopt when none waits.
  [[nodiscard]] std::optional<TimeUs> next_due_us() const;
  [[nodiscard]] std::size_t queued() const { return queue_.size(); }

  // When the client's address changes on the clock of submit() (the profile's time after the origin), if it does.
  [[nodiscard]] std::optional<TimeUs> address_change_at_us() const;

  [[nodiscard]] const Profile& profile() const { return profile_; }
  [[nodiscard]] const Counters& counters() const { return counters_; }

 private:
  std::uint64_t next_random();
  [[nodiscard]] bool in_blackout(TimeUs now_us) const;

  Profile profile_;
  std::uint64_t rng_state_;
  std::size_t max_queued_;
  TimeUs origin_us_ = 0;
  bool burst_bad_ = false;                                        // the Gilbert-Elliott state
  TimeUs last_in_order_us_ = std::numeric_limits<TimeUs>::min();  // when the last packet not reordered is due
  std::uint64_t submitted_ = 0;
  std::uint64_t scheduled_ = 0;  // ties in due time come out in this order
  std::map<std::pair<TimeUs, std::uint64_t>, Delivery> queue_;
  Counters counters_;
};

}  // namespace sr::netsim
