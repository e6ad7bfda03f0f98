#include "tests/netsim/impairment.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace sr::netsim {
namespace {

// splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014): specified to the bit,
// so a seed gives the same schedule with every compiler and standard library.
constexpr std::uint64_t kGolden = 0x9e3779b97f4a7c15ULL;

constexpr std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// True with probability ppm / 1,000,000 (the bias of the modulo is below 1e-13).
bool chance(std::uint64_t draw, Ppm ppm) { return draw % kPpmOne < ppm; }

Profile broadband() {
  Profile p;
  p.name = "broadband";
  p.delay_us = 25'000;
  p.jitter_us = 5'000;
  p.loss_ppm = 1'000;
  return p;
}

Profile blackout(std::string name, TimeUs offset_us, TimeUs duration_us) {
  Profile p = broadband();
  p.name = std::move(name);
  p.blackouts.push_back(Blackout{offset_us, duration_us});
  return p;
}

}  // namespace

std::vector<std::string> all_profile_names() {
  return {"lan", "broadband", "wifi", "mobile", "blackout3", "blackout8", "blackout45", "address-change"};
}

sr::Result<Profile, std::string> profile_by_name(std::string_view name, TimeUs event_offset_us) {
  if (event_offset_us < 0) {
    return sr::fail("the event offset must be 0 or more, not " + std::to_string(event_offset_us) + " us");
  }
  if (name == "lan") {
    Profile p;
    p.name = "lan";
    p.delay_us = 200;
    p.jitter_us = 100;
    return p;
  }
  if (name == "broadband") return broadband();
  if (name == "wifi") {
    Profile p;
    p.name = "wifi";
    p.delay_us = 50'000;
    p.jitter_us = 30'000;
    p.loss_ppm = 20'000;
    p.reorder_ppm = 5'000;
    // More than twice the jitter: the packets sent in the next 10 ms always overtake a reordered one.
    p.reorder_extra_us = 70'000;
    p.duplicate_ppm = 5'000;
    return p;
  }
  if (name == "mobile") {
    Profile p;
    p.name = "mobile";
    p.delay_us = 150'000;
    p.jitter_us = 80'000;
    // Everything sent in the bad state is lost and a burst lasts 1 / 0.25 = 4 packets on average; the chance of
    // entering it makes the mean loss 13,158 / (13,158 + 250,000) = 5.0%.
    p.burst = BurstLoss{.good_to_bad_ppm = 13'158, .bad_to_good_ppm = 250'000, .loss_in_bad_ppm = kPpmOne};
    return p;
  }
  if (name == "blackout3") return blackout("blackout3", event_offset_us, 3'000'000);
  if (name == "blackout8") return blackout("blackout8", event_offset_us, 8'000'000);
  if (name == "blackout45") return blackout("blackout45", event_offset_us, 45'000'000);
  if (name == "address-change") {
    Profile p = broadband();
    p.name = "address-change";
    p.address_change_at_us = event_offset_us;
    return p;
  }
  std::string valid;
  for (const std::string& n : all_profile_names()) valid += (valid.empty() ? "" : ", ") + n;
  return sr::fail("unknown profile '" + std::string(name) + "' (valid profiles: " + valid + ")");
}

sr::Status<std::string> check_profile(const Profile& profile) {
  const auto negative = [](const char* field, TimeUs value) -> sr::Status<std::string> {
    if (value < 0) return sr::fail(std::string(field) + " must be 0 or more, not " + std::to_string(value));
    return {};
  };
  const auto probability = [](const char* field, Ppm value) -> sr::Status<std::string> {
    if (value > kPpmOne) {
      return sr::fail(std::string(field) + " must be at most 1000000 ppm, not " + std::to_string(value));
    }
    return {};
  };
  for (auto s :
       {negative("delay_us", profile.delay_us), negative("jitter_us", profile.jitter_us),
        negative("reorder_extra_us", profile.reorder_extra_us), probability("loss_ppm", profile.loss_ppm),
        probability("burst.good_to_bad_ppm", profile.burst.good_to_bad_ppm),
        probability("burst.bad_to_good_ppm", profile.burst.bad_to_good_ppm),
        probability("burst.loss_in_bad_ppm", profile.burst.loss_in_bad_ppm),
        probability("reorder_ppm", profile.reorder_ppm), probability("duplicate_ppm", profile.duplicate_ppm)}) {
    if (!s) return s;
  }
  for (const Blackout& b : profile.blackouts) {
    if (auto s = negative("blackouts[].duration_us", b.duration_us); !s) return s;
  }
  return {};
}

std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t client_index, Direction direction) {
  const std::uint64_t stream = client_index * 2 + (direction == Direction::kUp ? 0 : 1);
  return mix64(seed + kGolden * (stream + 1));
}

Counters& Counters::operator+=(const Counters& other) {
  in += other.in;
  out += other.out;
  lost += other.lost;
  blacked_out += other.blacked_out;
  overflowed += other.overflowed;
  duplicated += other.duplicated;
  reordered += other.reordered;
  return *this;
}

Impairer::Impairer(Profile profile, std::uint64_t seed, std::size_t max_queued)
    : profile_(std::move(profile)), rng_state_(seed), max_queued_(max_queued) {
  assert(check_profile(profile_).ok());
  assert(max_queued_ >= 2);
}

std::uint64_t Impairer::next_random() {
  rng_state_ += kGolden;
  return mix64(rng_state_);
}

bool Impairer::in_blackout(TimeUs now_us) const {
  const TimeUs t = now_us - origin_us_;
  return std::any_of(profile_.blackouts.begin(), profile_.blackouts.end(),
                     [t](const Blackout& b) { return t >= b.start_us && t - b.start_us < b.duration_us; });
}

Fate Impairer::submit(TimeUs now_us, std::span<const std::uint8_t> bytes) {
  // Every packet draws the same values in the same order, whatever its fate (see "Reproducibility").
  const std::uint64_t loss_draw = next_random();
  const std::uint64_t burst_loss_draw = next_random();
  const std::uint64_t burst_step_draw = next_random();
  const std::uint64_t jitter_draw = next_random();
  const std::uint64_t reorder_draw = next_random();
  const std::uint64_t duplicate_draw = next_random();

  Fate fate;
  fate.index = submitted_++;
  ++counters_.in;

  // The packet sees the chain's state, then the chain takes its step.
  const bool bad = burst_bad_;
  burst_bad_ = bad ? !chance(burst_step_draw, profile_.burst.bad_to_good_ppm)
                   : chance(burst_step_draw, profile_.burst.good_to_bad_ppm);

  if (in_blackout(now_us)) {
    fate.drop = Drop::kBlackout;
    ++counters_.blacked_out;
    return fate;
  }
  if (chance(loss_draw, profile_.loss_ppm)) {
    fate.drop = Drop::kLoss;
    ++counters_.lost;
    return fate;
  }
  if (bad && chance(burst_loss_draw, profile_.burst.loss_in_bad_ppm)) {
    fate.drop = Drop::kBurstLoss;
    ++counters_.lost;
    return fate;
  }
  const int copies = chance(duplicate_draw, profile_.duplicate_ppm) ? 2 : 1;
  if (queue_.size() + static_cast<std::size_t>(copies) > max_queued_) {
    fate.drop = Drop::kQueueFull;
    ++counters_.overflowed;
    return fate;
  }

  const TimeUs span_us = 2 * profile_.jitter_us + 1;
  const TimeUs jitter_us = static_cast<TimeUs>(jitter_draw % static_cast<std::uint64_t>(span_us)) - profile_.jitter_us;
  const TimeUs due_us = now_us + std::max<TimeUs>(0, profile_.delay_us + jitter_us);
  fate.copies = copies;
  fate.reordered = chance(reorder_draw, profile_.reorder_ppm);
  if (fate.reordered) {
    fate.deliver_at_us = due_us + profile_.reorder_extra_us;
    ++counters_.reordered;
  } else {
    fate.deliver_at_us = std::max(due_us, last_in_order_us_);
    last_in_order_us_ = fate.deliver_at_us;
  }
  if (copies == 2) ++counters_.duplicated;

  for (int c = 0; c < copies; ++c) {
    Delivery d;
    d.deliver_at_us = fate.deliver_at_us;
    d.submitted_at_us = now_us;
    d.index = fate.index;
    d.bytes.assign(bytes.begin(), bytes.end());
    queue_.emplace(std::pair{fate.deliver_at_us, scheduled_++}, std::move(d));
  }
  return fate;
}

std::vector<Delivery> Impairer::pop_due(TimeUs now_us) {
  std::vector<Delivery> due;
  while (!queue_.empty() && queue_.begin()->first.first <= now_us) {
    due.push_back(std::move(queue_.begin()->second));
    queue_.erase(queue_.begin());
  }
  counters_.out += due.size();
  return due;
}

std::optional<TimeUs> Impairer::next_due_us() const {
  if (queue_.empty()) return std::nullopt;
  return queue_.begin()->first.first;
}

std::optional<TimeUs> Impairer::address_change_at_us() const {
  if (!profile_.address_change_at_us) return std::nullopt;
  return origin_us_ + *profile_.address_change_at_us;
}

}  // namespace sr::netsim
