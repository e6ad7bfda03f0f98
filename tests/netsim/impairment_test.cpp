// tests/netsim/impairment.h: the schedule of one direction, driven by a fake clock.
#include "tests/netsim/impairment.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace sr::netsim {
namespace {

std::vector<std::uint8_t> payload(std::uint64_t i) {
  std::vector<std::uint8_t> b(8 + i % 5);
  for (std::size_t k = 0; k < b.size(); ++k) b[k] = static_cast<std::uint8_t>(i >> (8 * (k % 8)));
  return b;
}

Profile named(const std::string& name, TimeUs offset_us = kDefaultEventOffsetUs) {
  auto p = profile_by_name(name, offset_us);
  EXPECT_TRUE(p.ok()) << name;
  return p.ok() ? p.value() : Profile{};
}

struct Schedule {
  std::vector<Fate> fates;           // by submission
  std::vector<Delivery> deliveries;  // in delivery order
  std::vector<TimeUs> popped_at_us;  // when each delivery was popped
  Counters counters;
};

// Submits `count` packets, one every spacing_us from t = 0, popping what is due before each; then everything left.
Schedule schedule_of(const Profile& profile, std::uint64_t seed, int count, TimeUs spacing_us, TimeUs origin_us = 0) {
  Impairer impairer(profile, seed);
  impairer.set_origin(origin_us);
  Schedule r;
  const auto pop = [&](TimeUs now_us) {
    for (Delivery& d : impairer.pop_due(now_us)) {
      r.popped_at_us.push_back(now_us);
      r.deliveries.push_back(std::move(d));
    }
  };
  for (int i = 0; i < count; ++i) {
    const TimeUs now_us = i * spacing_us;
    pop(now_us);
    r.fates.push_back(impairer.submit(now_us, payload(static_cast<std::uint64_t>(i))));
  }
  pop(std::numeric_limits<TimeUs>::max());
  EXPECT_EQ(impairer.queued(), 0U);
  r.counters = impairer.counters();
  return r;
}

// Packets delivered after one submitted later (first copies only): what the receiver sees as reordering.
int out_of_order(const std::vector<Delivery>& deliveries) {
  int late = 0;
  std::int64_t highest = -1;
  std::set<std::uint64_t> seen;
  for (const Delivery& d : deliveries) {
    if (!seen.insert(d.index).second) continue;
    if (static_cast<std::int64_t>(d.index) < highest) ++late;
    highest = std::max(highest, static_cast<std::int64_t>(d.index));
  }
  return late;
}

int count_drops(const Schedule& r, Drop drop) {
  return static_cast<int>(
      std::count_if(r.fates.begin(), r.fates.end(), [drop](const Fate& f) { return f.drop == drop; }));
}

// The mean length of the runs of consecutive lost packets.
double mean_loss_run(const Schedule& r) {
  int runs = 0, lost = 0;
  bool in_run = false;
  for (const Fate& f : r.fates) {
    const bool is_lost = f.drop == Drop::kLoss || f.drop == Drop::kBurstLoss;
    if (is_lost && !in_run) ++runs;
    lost += is_lost ? 1 : 0;
    in_run = is_lost;
  }
  return runs == 0 ? 0.0 : static_cast<double>(lost) / runs;
}

TEST(Impairer, SameSeedGivesTheSameSchedule) {
  for (const std::string& name : all_profile_names()) {
    const Schedule a = schedule_of(named(name, 1'000'000), 7, 10'000, 700);
    const Schedule b = schedule_of(named(name, 1'000'000), 7, 10'000, 700);
    EXPECT_EQ(a.fates, b.fates) << name;
    ASSERT_EQ(a.deliveries.size(), b.deliveries.size()) << name;
    for (std::size_t i = 0; i < a.deliveries.size(); ++i) {
      EXPECT_EQ(a.deliveries[i].index, b.deliveries[i].index) << name << " delivery " << i;
      EXPECT_EQ(a.deliveries[i].deliver_at_us, b.deliveries[i].deliver_at_us) << name << " delivery " << i;
    }
    EXPECT_EQ(a.counters, b.counters) << name;
  }
}

TEST(Impairer, DifferentSeedsGiveDifferentSchedules) {
  for (const std::string& name : all_profile_names()) {
    const Schedule a = schedule_of(named(name), 7, 2'000, 1'000);
    const Schedule b = schedule_of(named(name), 8, 2'000, 1'000);
    EXPECT_NE(a.fates, b.fates) << name;
  }
}

TEST(Impairer, DerivedSeedsDifferByClientAndDirection) {
  std::set<std::uint64_t> seeds;
  for (std::uint64_t client = 0; client < 100; ++client) {
    seeds.insert(derive_seed(7, client, Direction::kUp));
    seeds.insert(derive_seed(7, client, Direction::kDown));
  }
  seeds.insert(derive_seed(8, 0, Direction::kUp));
  EXPECT_EQ(seeds.size(), 201U);
  EXPECT_EQ(derive_seed(7, 3, Direction::kDown), derive_seed(7, 3, Direction::kDown));
}

TEST(Impairer, LanDeliversEverythingInOrderWithinItsDelay) {
  // Packets 50 us apart, closer than lan's jitter of 100 us: jitter alone must not reorder them.
  const Schedule r = schedule_of(named("lan"), 3, 20'000, 50);
  ASSERT_EQ(r.deliveries.size(), 20'000U);
  for (std::size_t i = 0; i < r.deliveries.size(); ++i) {
    const Delivery& d = r.deliveries[i];
    ASSERT_EQ(d.index, i);
    EXPECT_EQ(d.bytes, payload(i));
    EXPECT_GE(d.deliver_at_us - d.submitted_at_us, 100) << i;
    EXPECT_LE(d.deliver_at_us - d.submitted_at_us, 300) << i;
    EXPECT_LE(d.deliver_at_us, r.popped_at_us[i]) << "popped before it was due: " << i;
  }
  EXPECT_EQ(r.counters.in, 20'000U);
  EXPECT_EQ(r.counters.out, 20'000U);
  EXPECT_EQ(r.counters.dropped(), 0U);
}

TEST(Impairer, EveryProfileDeliversWithinItsDelayJitterAndReorderBounds) {
  for (const std::string& name : all_profile_names()) {
    const Profile p = named(name, 2'000'000);
    const Schedule r = schedule_of(p, 11, 30'000, 500);
    const TimeUs low_us = std::max<TimeUs>(0, p.delay_us - p.jitter_us);
    const TimeUs high_us = p.delay_us + p.jitter_us + p.reorder_extra_us;
    ASSERT_FALSE(r.deliveries.empty()) << name;
    std::int64_t last_in_order = -1;
    for (const Delivery& d : r.deliveries) {
      const TimeUs took_us = d.deliver_at_us - d.submitted_at_us;
      ASSERT_GE(took_us, low_us) << name << " packet " << d.index;
      ASSERT_LE(took_us, high_us) << name << " packet " << d.index;
      EXPECT_EQ(d.bytes, payload(d.index)) << name;
      // The packets not picked for reordering keep their order.
      if (!r.fates[d.index].reordered) {
        ASSERT_GE(static_cast<std::int64_t>(d.index), last_in_order) << name;
        last_in_order = static_cast<std::int64_t>(d.index);
      }
    }
  }
}

TEST(Impairer, JitterAloneNeverReorders) {
  Profile p;
  p.name = "jitter only";
  p.delay_us = 10'000;
  p.jitter_us = 9'000;
  const Schedule r = schedule_of(p, 5, 20'000, 100);
  ASSERT_EQ(r.deliveries.size(), 20'000U);
  EXPECT_EQ(out_of_order(r.deliveries), 0);
  // The clamp to the previous packet's time moves some packets, and none beyond delay + jitter.
  for (const Delivery& d : r.deliveries) EXPECT_LE(d.deliver_at_us - d.submitted_at_us, 19'000);
}

TEST(Impairer, BlackoutDropsExactlyThePacketsSentInIt) {
  // blackout3 from 2 s is broadband with [2 s, 5 s) dropped; packets every 1 ms from 0 to 8 s, the edges included.
  const Schedule with = schedule_of(named("blackout3", 2'000'000), 9, 8'001, 1'000);
  const Schedule without = schedule_of(named("broadband"), 9, 8'001, 1'000);
  ASSERT_EQ(with.fates.size(), without.fates.size());
  for (std::size_t i = 0; i < with.fates.size(); ++i) {
    const TimeUs sent_us = static_cast<TimeUs>(i) * 1'000;
    const bool inside = sent_us >= 2'000'000 && sent_us < 5'000'000;
    if (inside) {
      EXPECT_EQ(with.fates[i].drop, Drop::kBlackout) << "sent at " << sent_us;
      EXPECT_EQ(with.fates[i].copies, 0);
    } else {
      // Outside it, every packet has the fate it has without the blackout.
      EXPECT_EQ(with.fates[i].drop, without.fates[i].drop) << "sent at " << sent_us;
      EXPECT_EQ(with.fates[i].copies, without.fates[i].copies) << "sent at " << sent_us;
      EXPECT_EQ(with.fates[i].reordered, without.fates[i].reordered) << "sent at " << sent_us;
    }
  }
  EXPECT_EQ(with.counters.blacked_out, 3'000U);
  EXPECT_EQ(with.fates[1'999].drop, without.fates[1'999].drop);
  EXPECT_EQ(with.fates[2'000].drop, Drop::kBlackout);
  EXPECT_EQ(with.fates[4'999].drop, Drop::kBlackout);
  EXPECT_NE(with.fates[5'000].drop, Drop::kBlackout);
  for (const Delivery& d : with.deliveries) {
    EXPECT_FALSE(d.submitted_at_us >= 2'000'000 && d.submitted_at_us < 5'000'000) << d.submitted_at_us;
  }
}

TEST(Impairer, BlackoutsCountFromTheOrigin) {
  Profile p = named("lan");
  p.blackouts = {Blackout{0, 300'000}, Blackout{1'000'000, 1}};
  Impairer impairer(p, 1);
  impairer.set_origin(5'000'000);
  const std::vector<std::uint8_t> b{1, 2, 3};
  EXPECT_EQ(impairer.submit(4'999'999, b).drop, Drop::kNone);
  EXPECT_EQ(impairer.submit(5'000'000, b).drop, Drop::kBlackout);
  EXPECT_EQ(impairer.submit(5'299'999, b).drop, Drop::kBlackout);
  EXPECT_EQ(impairer.submit(5'300'000, b).drop, Drop::kNone);
  EXPECT_EQ(impairer.submit(5'999'999, b).drop, Drop::kNone);
  EXPECT_EQ(impairer.submit(6'000'000, b).drop, Drop::kBlackout);
  EXPECT_EQ(impairer.submit(6'000'001, b).drop, Drop::kNone);
  EXPECT_EQ(impairer.counters().blacked_out, 3U);
}

TEST(Impairer, WifiLosesReordersAndDuplicatesAtItsRates) {
  const Profile p = named("wifi");
  const Schedule r = schedule_of(p, 21, 100'000, 1'000);
  // 2% of 100,000 = 2,000 (standard deviation 44); 0.5% of the 98,000 left = 490 (22).
  EXPECT_NEAR(static_cast<double>(r.counters.lost), 2'000, 200);
  EXPECT_NEAR(static_cast<double>(r.counters.duplicated), 490, 75);
  EXPECT_NEAR(static_cast<double>(r.counters.reordered), 490, 75);
  EXPECT_EQ(count_drops(r, Drop::kLoss), static_cast<int>(r.counters.lost));
  // What a receiver sees: each packet held back is overtaken (70 ms is more than twice the jitter), each duplicate
  // arrives twice.
  EXPECT_EQ(out_of_order(r.deliveries), static_cast<int>(r.counters.reordered));
  std::vector<int> copies(100'000, 0);
  for (const Delivery& d : r.deliveries) ++copies[d.index];
  EXPECT_EQ(std::count(copies.begin(), copies.end(), 2), static_cast<int>(r.counters.duplicated));
  EXPECT_EQ(std::count(copies.begin(), copies.end(), 0), static_cast<int>(r.counters.lost));
  EXPECT_EQ(r.counters.in, 100'000U);
  EXPECT_EQ(r.counters.out, r.deliveries.size());
  EXPECT_EQ(r.counters.out, r.counters.in - r.counters.dropped() + r.counters.duplicated);
}

TEST(Impairer, BroadbandLosesOneInAThousand) {
  const Schedule r = schedule_of(named("broadband"), 4, 100'000, 1'000);
  // 100 expected, standard deviation 10.
  EXPECT_NEAR(static_cast<double>(r.counters.lost), 100, 35);
  EXPECT_EQ(r.counters.duplicated, 0U);
  EXPECT_EQ(r.counters.reordered, 0U);
  EXPECT_EQ(out_of_order(r.deliveries), 0);
}

TEST(Impairer, MobileLosesFivePercentInBurstsLongerThanIndependentLoss) {
  const Schedule burst = schedule_of(named("mobile"), 5, 100'000, 1'000);
  EXPECT_NEAR(static_cast<double>(burst.counters.lost), 5'000, 500);
  EXPECT_EQ(count_drops(burst, Drop::kBurstLoss), static_cast<int>(burst.counters.lost));

  Profile independent = named("mobile");
  independent.burst = BurstLoss{};
  independent.loss_ppm = 50'000;
  const Schedule flat = schedule_of(independent, 5, 100'000, 1'000);
  EXPECT_NEAR(static_cast<double>(flat.counters.lost), 5'000, 500);
  // Independent 5% loss: runs of 1 / 0.95 = 1.05 packets on average. The bursts last 4 packets on average.
  EXPECT_LT(mean_loss_run(flat), 1.2);
  EXPECT_GT(mean_loss_run(burst), 3.0);
  EXPECT_GT(mean_loss_run(burst), 2 * mean_loss_run(flat));
}

TEST(Impairer, ReportsTheAddressChangeTime) {
  const Profile p = named("address-change", 7'000'000);
  ASSERT_TRUE(p.address_change_at_us.has_value());
  EXPECT_EQ(*p.address_change_at_us, 7'000'000);
  Impairer impairer(p, 1);
  EXPECT_EQ(impairer.address_change_at_us(), 7'000'000);
  impairer.set_origin(1'000'000);
  EXPECT_EQ(impairer.address_change_at_us(), 8'000'000);
  EXPECT_EQ(Impairer(named("broadband"), 1).address_change_at_us(), std::nullopt);
  EXPECT_EQ(named("address-change").address_change_at_us, kDefaultEventOffsetUs);
}

TEST(Impairer, AFullQueueDropsAndCounts) {
  Impairer impairer(named("lan"), 1, 4);
  const std::vector<std::uint8_t> b{42};
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(impairer.submit(0, b).drop, i < 4 ? Drop::kNone : Drop::kQueueFull) << i;
  }
  EXPECT_EQ(impairer.queued(), 4U);
  EXPECT_EQ(impairer.counters().overflowed, 6U);
  EXPECT_EQ(impairer.next_due_us().has_value(), true);
  EXPECT_EQ(impairer.pop_due(1'000).size(), 4U);
  EXPECT_EQ(impairer.next_due_us(), std::nullopt);
  EXPECT_EQ(impairer.submit(1'000, b).drop, Drop::kNone);
}

TEST(Impairer, PopDueWaitsForTheDueTime) {
  Profile p;
  p.name = "fixed";
  p.delay_us = 1'000;
  Impairer impairer(p, 1);
  const Fate f = impairer.submit(500, std::vector<std::uint8_t>{7});
  EXPECT_EQ(f.deliver_at_us, 1'500);
  EXPECT_EQ(impairer.next_due_us(), 1'500);
  EXPECT_TRUE(impairer.pop_due(1'499).empty());
  const auto due = impairer.pop_due(1'500);
  ASSERT_EQ(due.size(), 1U);
  EXPECT_EQ(due[0].bytes, std::vector<std::uint8_t>{7});
  EXPECT_EQ(due[0].submitted_at_us, 500);
}

TEST(Profiles, NamedProfilesHaveTheirFigures) {
  const Profile lan = named("lan");
  EXPECT_EQ(lan.delay_us, 200);
  EXPECT_EQ(lan.jitter_us, 100);
  EXPECT_EQ(lan.loss_ppm, 0U);
  const Profile broadband = named("broadband");
  EXPECT_EQ(broadband.delay_us, 25'000);
  EXPECT_EQ(broadband.jitter_us, 5'000);
  EXPECT_EQ(broadband.loss_ppm, 1'000U);
  const Profile wifi = named("wifi");
  EXPECT_EQ(wifi.delay_us, 50'000);
  EXPECT_EQ(wifi.jitter_us, 30'000);
  EXPECT_EQ(wifi.loss_ppm, 20'000U);
  EXPECT_EQ(wifi.reorder_ppm, 5'000U);
  EXPECT_EQ(wifi.duplicate_ppm, 5'000U);
  const Profile mobile = named("mobile");
  EXPECT_EQ(mobile.delay_us, 150'000);
  EXPECT_EQ(mobile.jitter_us, 80'000);
  // The Gilbert-Elliott chain's mean loss: loss in bad * P(bad), P(bad) = g2b / (g2b + b2g).
  const double p_bad =
      static_cast<double>(mobile.burst.good_to_bad_ppm) / (mobile.burst.good_to_bad_ppm + mobile.burst.bad_to_good_ppm);
  EXPECT_NEAR(p_bad * mobile.burst.loss_in_bad_ppm / kPpmOne, 0.05, 0.0001);
  for (const auto& [name, duration_us] : std::vector<std::pair<std::string, TimeUs>>{
           {"blackout3", 3'000'000}, {"blackout8", 8'000'000}, {"blackout45", 45'000'000}}) {
    const Profile p = named(name);
    ASSERT_EQ(p.blackouts.size(), 1U) << name;
    EXPECT_EQ(p.blackouts[0].start_us, 5'000'000) << name;
    EXPECT_EQ(p.blackouts[0].duration_us, duration_us) << name;
    EXPECT_EQ(p.delay_us, broadband.delay_us) << name;
    EXPECT_EQ(named(name, 250'000).blackouts[0].start_us, 250'000) << name;
  }
  for (const std::string& name : all_profile_names()) {
    EXPECT_EQ(named(name).name, name);
    EXPECT_TRUE(check_profile(named(name)).ok()) << name;
  }
}

TEST(Profiles, AnUnknownNameListsTheValidOnes) {
  const auto p = profile_by_name("dialup");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().find("unknown profile 'dialup'"), std::string::npos) << p.error();
  for (const std::string& name : all_profile_names()) EXPECT_NE(p.error().find(name), std::string::npos) << name;
  EXPECT_FALSE(profile_by_name("blackout3", -1).ok());
}

TEST(Profiles, CheckNamesTheFieldOutOfRange) {
  Profile p;
  EXPECT_TRUE(check_profile(p).ok());
  p.jitter_us = -1;
  ASSERT_FALSE(check_profile(p).ok());
  EXPECT_NE(check_profile(p).error().find("jitter_us"), std::string::npos);
  p = Profile{};
  p.burst.loss_in_bad_ppm = kPpmOne + 1;
  ASSERT_FALSE(check_profile(p).ok());
  EXPECT_NE(check_profile(p).error().find("burst.loss_in_bad_ppm"), std::string::npos);
  p = Profile{};
  p.blackouts.push_back(Blackout{0, -5});
  EXPECT_FALSE(check_profile(p).ok());
}

}  // namespace
}  // namespace sr::netsim
