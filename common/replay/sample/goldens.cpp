#include "common/replay/sample/goldens.h"

#include "common/replay/sample/scripted_player.h"
#include "common/replay/simulate.h"

namespace sr::replay::sample {
namespace {

namespace button = engine::button;
using engine::GameConfig;
using engine::Piece;

constexpr std::int64_t kCreated = 1'735'689'600'000;  // 2025-01-01T00:00:00Z: goldens do not change with the clock

struct Entry {
  std::string name;
  engine::Handling handling;
  PlayerStyle style;
  ResultStatus if_unfinished = ResultStatus::kForfeited;
  std::vector<engine::InputChange> opening;
};

Replay play(const GameConfig& config, std::uint64_t seed, const std::string& place, std::vector<Entry> entries) {
  Replay r;
  r.created_unix_ms = kCreated;
  r.place = place;
  r.config = config;
  r.config.handling = engine::Handling{};
  r.seed = seed;
  for (Entry& e : entries) {
    GameConfig c = config;
    c.handling = e.handling;
    PlayedGame g = play_scripted(c, seed, e.style, e.opening);
    Racer racer;
    racer.name = e.name;
    racer.handling = e.handling;
    racer.inputs = std::move(g.inputs);
    r.racers.push_back(std::move(racer));
    record_racer(r, r.racers.size() - 1, g.end_us, e.if_unfinished);
  }
  return r;
}

Entry solo(const char* name, std::uint64_t style_seed, std::int64_t max_pieces = 0) {
  Entry e;
  e.name = name;
  e.style.seed = style_seed;
  e.style.max_pieces = max_pieces;
  return e;
}

// A TSD slot at x = 3..5 on rows 0-1 with its overhang at (3, 2); the opening turns the T east, drops it with an
// instant soft drop, turns it south into the slot and hard drops: a T-spin double.
GameConfig tspin_config() {
  GameConfig c = engine::make_custom();
  c.generator = engine::GeneratorKind::kFixed;
  c.fixed_sequence = {Piece::kT, Piece::kI, Piece::kO, Piece::kL, Piece::kJ, Piece::kS, Piece::kZ,
                      Piece::kT, Piece::kL, Piece::kJ, Piece::kI, Piece::kO, Piece::kZ, Piece::kS};
  const auto row = [](const char* text) {
    engine::BoardRow r;
    for (const char* p = text; *p; ++p) {
      Piece piece = Piece::kNone;
      (void)engine::piece_from_letter(*p, piece);
      r.push_back(piece);
    }
    return r;
  };
  c.initial_board = {row("GGGG.GGGGG"), row("GGG...GGGG"), row("GGGG......")};
  return c;
}

std::vector<engine::InputChange> tspin_opening() {
  constexpr engine::TimeUs ms = 1000;
  return {{100 * ms, button::kRotateCw}, {150 * ms, 0}, {200 * ms, button::kSoftDrop}, {250 * ms, 0},
          {300 * ms, button::kRotateCw}, {350 * ms, 0}, {400 * ms, button::kHardDrop}, {450 * ms, 0}};
}

void expect(GoldenSet& set, bool ok, const std::string& what) {
  if (!ok) set.problems.push_back(set.goldens.back().file + ": " + what);
}

}  // namespace

GoldenSet make_goldens() {
  GoldenSet set;
  const auto add = [&](std::string file, std::string describes, Replay r) {
    set.goldens.push_back(Golden{std::move(file), std::move(describes), std::move(r)});
    return &set.goldens.back().replay;
  };
  const auto status = [](const Replay* r, std::size_t i) { return r->racers[i].result.status; };

  const Replay* r = add("mode_sprint.srr", "sprint, 40 lines, SRS, one racer who finishes",
                        play(engine::make_sprint(), 1001, "local", {solo("sprinter", 1)}));
  expect(set, status(r, 0) == ResultStatus::kFinished, "the sprint did not finish");

  r = add("mode_ultra.srr", "ultra shortened to 30 s, one racer until time is up",
          play(engine::make_ultra(30), 1002, "local", {solo("ultra", 2)}));
  expect(set, status(r, 0) == ResultStatus::kFinished, "the ultra did not run out of time");

  r = add("mode_marathon.srr", "marathon, forfeited after 60 pieces",
          play(engine::make_marathon(), 1003, "local", {solo("marathoner", 3, 60)}));

  Entry master = solo("master", 4, 40);
  master.if_unfinished = ResultStatus::kDisconnected;
  r = add("mode_master.srr", "master (20G), 40 pieces or a top out",
          play(engine::make_master(), 1004, "local", {master}));

  Entry endless = solo("endless", 5, 50);
  endless.if_unfinished = ResultStatus::kDisconnected;
  r = add("mode_endless.srr", "endless, disconnected after 50 pieces",
          play(engine::make_endless(), 1005, "local", {endless}));

  GameConfig contest = engine::make_contest();
  contest.limit_value = 30;
  Entry fast = solo("quick", 61);
  fast.handling.das_us = 110'000;
  fast.handling.arr_us = 0;
  Entry slow = solo("steady", 62);
  slow.handling.das_us = 150'000;
  slow.handling.arr_us = 20'000;
  slow.style.use_hold = false;
  r = add("mode_contest.srr", "contest shortened to 30 s, two racers with their own handling",
          play(contest, 1006, "golden.example", {fast, slow}));
  expect(set, r->racers[0].handling != r->racers[1].handling, "racers share a handling");

  GameConfig custom = engine::make_custom();
  custom.generator = engine::GeneratorKind::kRecency;
  custom.lock_down = engine::LockDown::kInfinite;
  custom.scoring = engine::Scoring::kTetrs;
  custom.all_spin = true;
  custom.preview = 3;
  custom.start_level = 5;
  custom.goal_system = engine::GoalSystem::kVariable;
  custom.initial_board = {{Piece::kGarbage, Piece::kGarbage, Piece::kGarbage, Piece::kGarbage, Piece::kNone,
                           Piece::kGarbage, Piece::kGarbage, Piece::kGarbage, Piece::kGarbage, Piece::kGarbage},
                          {Piece::kGarbage, Piece::kNone, Piece::kGarbage, Piece::kGarbage, Piece::kGarbage,
                           Piece::kGarbage, Piece::kGarbage, Piece::kGarbage, Piece::kGarbage, Piece::kGarbage}};
  Entry odd = solo("tinkerer", 7, 40);
  odd.handling.are_us = 100'000;
  odd.handling.line_clear_delay_us = 200'000;
  odd.handling.dcd_us = 20'000;
  odd.handling.sdf = 0;
  r = add("mode_custom.srr", "custom: recency generator, infinite lock down, tetrs scoring, garbage, ARE",
          play(custom, 1007, "local", {odd}));

  GameConfig no180 = engine::make_sprint(20);
  no180.rotation = engine::RotationSystem::kSrsNo180;
  r = add("rotation_srs_no180.srr", "sprint 20 lines, SRS without 180 kicks",
          play(no180, 1008, "local", {solo("no180", 8)}));
  expect(set, status(r, 0) == ResultStatus::kFinished, "the sprint did not finish");

  GameConfig classic = engine::make_sprint(20);
  classic.rotation = engine::RotationSystem::kClassic;
  classic.allow_180 = false;
  r = add("rotation_classic.srr", "sprint 20 lines, classic rotation (no kicks), no 180",
          play(classic, 1009, "local", {solo("classic", 9)}));

  GameConfig ocular = engine::make_sprint(20);
  ocular.rotation = engine::RotationSystem::kOcular;
  r = add("rotation_ocular.srr", "sprint 20 lines, the Ocular rotation system",
          play(ocular, 1013, "local", {solo("ocular", 15)}));
  expect(set, status(r, 0) == ResultStatus::kFinished, "the sprint did not finish");

  Entry holder = solo("holder", 10);
  holder.style.hold_heavy = true;
  r = add("hold_heavy.srr", "sprint 20 lines, holding whenever it is not worse",
          play(engine::make_sprint(20), 1010, "local", {holder}));
  expect(set, r->racers[0].result.stats.holds >= 15, "fewer than 15 holds");

  Entry tspin = solo("spinner", 11, 30);
  tspin.handling.sdf = 0;
  tspin.opening = tspin_opening();
  r = add("tspin.srr", "fixed sequence and a TSD slot: a T-spin double, then 29 more pieces",
          play(tspin_config(), 1011, "local", {tspin}));
  expect(set, r->racers[0].result.stats.tspin_doubles >= 1, "no T-spin double");

  Entry clumsy = solo("bo", 13);
  clumsy.style.clumsy = true;
  Entry quitter = solo("cy", 14, 30);
  quitter.if_unfinished = ResultStatus::kDisconnected;
  r = add("race_sprint.srr", "sprint race: one finishes, one tops out, one disconnects",
          play(engine::make_sprint(), 1012, "golden.example", {solo("ada", 12), clumsy, quitter}));
  expect(set, status(r, 0) == ResultStatus::kFinished, "the winner did not finish");
  expect(set, status(r, 1) == ResultStatus::kToppedOut, "the clumsy racer did not top out");
  expect(set, status(r, 2) == ResultStatus::kDisconnected, "the third racer did not disconnect");
  return set;
}

}  // namespace sr::replay::sample
