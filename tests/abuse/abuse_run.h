// One row of stackrace-abuse: a fresh stackrace-server child with the seeded store, honest races in this process, one
// attack (or all at once) from other loopback addresses, and what came of it (tests/abuse/README.md).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/abuse/abuse_report.h"
#include "tests/abuse/attacker.h"
#include "tests/abuse/honest_side.h"
#include "tests/abuse/store_seed.h"

namespace sr::abuse {

struct RunPlan {
  std::string name;               // the row's name: an attack's, or "all"
  std::vector<AttackKind> kinds;  // what runs at once
  int addresses = 1;              // attacker addresses: 127.0.0.2 .. 127.0.0.(1 + addresses)
  std::filesystem::path server;   // the stackrace-server binary
  std::filesystem::path seeded;   // a seeded store (seed_store), copied for the server
  SeedInfo seed_info;
  AttackPlan attack;                                // sizes and rates; kinds, addresses, port and targets are filled in
  HonestPlan honest;                                // port filled in
  std::chrono::milliseconds warm_up{2'000};         // the attack runs this long before the races start
  std::chrono::seconds min_duration{0};             // and at least this long in all
  std::chrono::seconds race_timeout{90};            // per sprint
  std::int64_t memory_guard_kb = 2 * kMaxServerKb;  // the attack stops when the server passes this
  std::int64_t relay_p99_goal_us = kMaxRelayP99Us;
};

// Runs the row. Never throws; what went wrong is in the outcome's problems.
[[nodiscard]] AttackOutcome run_attack(const RunPlan& plan);

}  // namespace sr::abuse
