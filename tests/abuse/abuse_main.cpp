// stackrace-abuse: runs the attacks of issue 15 against a real stackrace-server with honest races beside them, and
// says whether the server held (tests/abuse/README.md). Exit status: 0 every row meets the goals, 1 not, 2 bad
// arguments.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <random>

#include "tests/abuse/abuse_report.h"
#include "tests/abuse/abuse_run.h"
#include "tests/abuse/store_seed.h"

namespace {

using namespace sr::abuse;

const std::vector<AttackKind> kEvery{AttackKind::kSilent, AttackKind::kDownload, AttackKind::kList,
                                     AttackKind::kJoinLeave, AttackKind::kRooms};
// Issue 30: each from as many addresses as the issue used, every client within every per-address limit.
struct ManyRow {
  AttackKind kind;
  int addresses;
};
const std::vector<ManyRow> kMany{{AttackKind::kIdle, 18},
                                 {AttackKind::kListRooms, 40},
                                 {AttackKind::kRooms, 25},
                                 {AttackKind::kCatchUp, 50},
                                 {AttackKind::kTheft, 5}};
// All of them at once from 50 addresses, but idle: a server full of idle players leaves the others no place (they would
// only measure fair_share, which the idle row measures alone).
constexpr int kManyAddresses = 50;

struct Options {
  std::string attack = "all-each";
  bool short_run = false;
  std::string server = STACKRACE_SERVER_BIN;
  std::uint64_t seed = 1;
  int duration_s = 0;
  int addresses = 0;  // 0: each attack's own (one address; the room attack a handful)
  int p99_goal_ms = 50;
  int many_p99_goal_ms = 5;  // issue 30's goal for the many-address rows
};

// The sizes of the measurements (full) or scaled down for the test command (short). Each attack keeps its
// character in --short: the silent connections still outnumber every slot the server has, the downloads still ask
// for more than a slow reader can take, the room players still outnumber the room limit.
RunPlan base_plan(const Options& o) {
  RunPlan plan;
  plan.server = o.server;
  plan.honest.seed = o.seed;
  plan.min_duration = std::chrono::seconds(o.duration_s);
  plan.relay_p99_goal_us = std::int64_t{o.p99_goal_ms} * 1000;
  if (o.short_run) {
    plan.honest.rooms = 2;
    plan.honest.racers = 4;
    plan.honest.sprints = 1;
    plan.honest.lines = 8;
    plan.warm_up = std::chrono::milliseconds(2'000);
    plan.race_timeout = std::chrono::seconds(25);
    // Two slow readers instead of one: the server's queues pass the memory goal within the short run's race, as one
    // reader's do within the full run's.
    plan.attack.download_players = 2;
  } else {
    plan.honest.rooms = 4;
    plan.honest.racers = 4;
    plan.honest.sprints = 2;
    plan.honest.lines = 20;
    plan.warm_up = std::chrono::milliseconds(5'000);
    plan.race_timeout = std::chrono::seconds(90);
  }
  return plan;
}

// A row of issue 30: the rooms attack is issue 15's with 25 addresses x 8 players (each address's own room limit).
RunPlan many_plan(const Options& o, const std::string& name, std::vector<AttackKind> kinds, int addresses) {
  RunPlan plan = base_plan(o);
  plan.name = name;
  plan.kinds = std::move(kinds);
  plan.addresses = o.addresses > 0 ? o.addresses : addresses;
  plan.relay_p99_goal_us = std::int64_t{o.many_p99_goal_ms} * 1000;
  plan.attack.room_players = 8 * plan.addresses;
  plan.attack.listroom_players = plan.addresses;
  plan.attack.catchup_spectators = plan.addresses;
  plan.attack.idle_players = 62 * plan.addresses;
  plan.attack.theft_players = 2 * plan.addresses;
  if (plan.kinds.size() > 1) {
    // All at once from 50 addresses: the sizes, spread over them.
    plan.attack.room_players = 25 * 8;
    plan.attack.listroom_players = 40;
    plan.attack.catchup_spectators = 50;
    plan.attack.theft_players = 10;
  }
  // The idle players take a few seconds to connect (the connect gate's 64 at once, 8 a second per address).
  if (std::find(plan.kinds.begin(), plan.kinds.end(), AttackKind::kIdle) != plan.kinds.end()) {
    plan.warm_up = std::max(plan.warm_up, std::chrono::milliseconds(4'000));
  }
  return plan;
}

std::vector<AttackKind> many_kinds() {
  std::vector<AttackKind> kinds;
  for (const ManyRow& r : kMany) {
    if (r.kind != AttackKind::kIdle) kinds.push_back(r.kind);
  }
  return kinds;
}

RunPlan plan_for(const Options& o, const std::string& name, std::vector<AttackKind> kinds) {
  RunPlan plan = base_plan(o);
  plan.name = name;
  plan.kinds = std::move(kinds);
  // The room attack needs a handful of addresses to pass today's 64 players per address; so does everything at once.
  const bool handful = plan.kinds.size() > 1 || (plan.kinds.size() == 1 && plan.kinds.front() == AttackKind::kRooms);
  plan.addresses = o.addresses > 0 ? o.addresses : (handful ? 5 : 1);
  return plan;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{
      "stackrace-abuse: attacks a real stackrace-server (default limits) from 127.0.0.2.. while bots race beside it, "
      "and checks that every other race finishes, nobody else is removed, relay delay p99 < 50 ms (5 ms beside the "
      "many-address attacks), server memory < 256 MB, an honest player can still connect, create a room and watch a "
      "race, and a bystander gets 9 of 10 room lists (tests/abuse/README.md)"};
  app.add_option("--attack", o.attack,
                 "silent, download, list, joinleave, rooms, all (all at once); idle, listrooms, rooms-many, catchup, "
                 "theft (many addresses), many (those at once); all-each (each of issue 15's in turn, all at once, "
                 "then each many-address attack in turn, or with --short those at once); many-each")
      ->capture_default_str()
      ->check(CLI::IsMember({"silent", "download", "list", "joinleave", "rooms", "all", "all-each", "none", "idle",
                             "listrooms", "rooms-many", "catchup", "theft", "many", "many-each"}));
  app.add_option("--many-p99-goal-ms", o.many_p99_goal_ms,
                 "the relay delay p99 goal of the many-address rows (issue 30's 5 ms, for a Release server; the "
                 "sanitizer build in the test command is given more)")
      ->capture_default_str()
      ->check(CLI::Range(1, 10'000));
  app.add_option("--p99-goal-ms", o.p99_goal_ms,
                 "the relay delay p99 the honest players must stay under (the issue's goal, 50 ms, is for a Release "
                 "server; the sanitizer build in the test command is given more)")
      ->capture_default_str()
      ->check(CLI::Range(1, 10'000));
  app.add_flag("--short", o.short_run, "the test command's size: 2 rooms x 4 bots, one 8-line sprint, 2 slow readers");
  app.add_option("--server", o.server, "the stackrace-server binary")->capture_default_str();
  app.add_option("--seed", o.seed, "seed of the bots' timing and the store's games")->capture_default_str();
  app.add_option("--duration", o.duration_s,
                 "each attack runs at least this many seconds (it also runs until the "
                 "honest races end)")
      ->capture_default_str()
      ->check(CLI::Range(0, 3600));
  app.add_option("--addresses", o.addresses, "attacker addresses, 127.0.0.2 on (0: one; the room attack and 'all' 5)")
      ->capture_default_str()
      ->check(CLI::Range(0, 200));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return e.get_exit_code() == 0 ? code : 2;
  }
  spdlog::set_level(spdlog::level::warn);
  if (!std::filesystem::exists(o.server)) {
    fmt::print(stderr, "stackrace-abuse: no server at {}\n", o.server);
    return 2;
  }

  std::vector<RunPlan> plans;
  const auto many_each = [&] {
    for (const ManyRow& r : kMany) {
      const std::string name = r.kind == AttackKind::kRooms ? "rooms-many" : attack_name(r.kind);
      plans.push_back(many_plan(o, name, {r.kind}, r.addresses));
    }
  };
  if (o.attack == "all-each") {
    for (AttackKind k : kEvery) plans.push_back(plan_for(o, attack_name(k), {k}));
    plans.push_back(plan_for(o, "all", kEvery));
    // The test command's budget (Abuse.Short) has room for one more row: the idle players. `many` under the
    // sanitizers measured a relay p99 of 890 ms (and cannot pass its create goal yet: README.md), so the other
    // many-address rows run in tests/bench/abuse.sh only.
    if (o.short_run) {
      plans.push_back(many_plan(o, "idle", {AttackKind::kIdle}, 18));
    } else {
      many_each();
    }
  } else if (o.attack == "many-each") {
    many_each();
    plans.push_back(many_plan(o, "many", many_kinds(), kManyAddresses));
  } else if (o.attack == "many") {
    plans.push_back(many_plan(o, "many", many_kinds(), kManyAddresses));
  } else if (o.attack == "rooms-many") {
    plans.push_back(many_plan(o, "rooms-many", {AttackKind::kRooms}, 25));
  } else if (o.attack == "idle" || o.attack == "listrooms" || o.attack == "catchup" || o.attack == "theft") {
    const AttackKind kind = *attack_by_name(o.attack);
    for (const ManyRow& r : kMany) {
      if (r.kind == kind) plans.push_back(many_plan(o, o.attack, {kind}, r.addresses));
    }
  } else if (o.attack == "none") {
    plans.push_back(plan_for(o, "none", {}));
  } else if (o.attack == "all") {
    plans.push_back(plan_for(o, "all", kEvery));
  } else {
    plans.push_back(plan_for(o, o.attack, {*attack_by_name(o.attack)}));
  }

  // One seeded store, copied for each row's fresh server.
  std::random_device random;
  const auto seeded = std::filesystem::temp_directory_path() / fmt::format("stackrace-abuse-seed-{:08x}", random());
  SeedPlan seed_plan;
  seed_plan.games = o.short_run ? 300 : 1'050;
  seed_plan.seed = o.seed;
  const auto seeding = std::chrono::steady_clock::now();
  auto info = seed_store(seeded, seed_plan);
  if (!info.ok()) {
    fmt::print(stderr, "stackrace-abuse: cannot seed the replay store: {}\n", info.error());
    return 1;
  }
  fmt::print("store: {} replays, the biggest {} KiB ({:.1f} s to make)\n", info.value().games,
             info.value().big_bytes / 1024,
             std::chrono::duration<double>(std::chrono::steady_clock::now() - seeding).count());

  std::vector<AttackOutcome> outcomes;
  for (RunPlan& plan : plans) {
    plan.seeded = seeded;
    plan.seed_info = info.value();
    fmt::print("attack {} from {} address{}...\n", plan.name, plan.addresses, plan.addresses > 1 ? "es" : "");
    std::fflush(stdout);
    outcomes.push_back(run_attack(plan));
    const auto fails = judge(outcomes.back());
    fmt::print("  {} ({:.0f} s)\n", fails.empty() ? "goals met" : "goals missed", outcomes.back().wall_s);
    std::fflush(stdout);
  }
  std::error_code error;
  std::filesystem::remove_all(seeded, error);

  fmt::print("\n{}\n{}{}\n", format_table(outcomes), format_details(outcomes), format_verdict(outcomes));
  for (const AttackOutcome& outcome : outcomes) {
    if (!judge(outcome).empty()) return 1;
  }
  return 0;
}
