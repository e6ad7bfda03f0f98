#include "tests/sync/sync_plan.h"

#include <algorithm>
#include <array>
#include <cassert>

#include "common/bot/bot.h"
#include "common/engine/racer_run.h"

namespace sr::synctest {
namespace {

namespace button = engine::button;
using engine::Buttons;
using engine::GameConfig;
using engine::InputChange;

constexpr TimeUs kMs = 1'000;
constexpr TimeUs kSecond = 1'000'000;

// Independent streams for the parts of a plan, so that a change to how one part is drawn leaves the others alone.
SplitMix64 stream(std::uint64_t game_seed, std::uint64_t part) {
  SplitMix64 mix(game_seed ^ (part * 0xD1B54A32D192ED03ull));
  return SplitMix64(mix.next());
}

// `t` rounded down to the grid, and at least one grid step.
TimeUs snap(TimeUs t, TimeUs grid) { return std::max(grid, t / grid * grid); }

std::vector<engine::BoardRow> random_board(SplitMix64& rng) {
  std::vector<engine::BoardRow> rows(static_cast<std::size_t>(rng.range(1, 12)));
  for (engine::BoardRow& row : rows) {
    row.assign(engine::kMatrixWidth, engine::Piece::kGarbage);
    for (engine::Piece& cell : row) {
      if (rng.chance(15)) cell = static_cast<engine::Piece>(rng.range(0, 7));  // some tetromino cells, some holes
    }
    const auto holes = rng.range(1, 3);  // never a full row
    for (std::int64_t i = 0; i < holes; ++i) row[static_cast<std::size_t>(rng.range(0, 9))] = engine::Piece::kNone;
  }
  return rows;
}

engine::Handling random_handling(SplitMix64& rng) {
  engine::Handling h;
  const auto r = rng.range(0, 99);
  h.das_us = static_cast<std::int32_t>(r < 10   ? 0
                                       : r < 90 ? rng.range(1, 300 * kMs)
                                                : rng.range(300 * kMs, 2 * kSecond));
  const auto a = rng.range(0, 99);
  h.arr_us = static_cast<std::int32_t>(a < 30 ? 0 : a < 90 ? rng.range(1, 100 * kMs) : rng.range(100 * kMs, kSecond));
  const auto s = rng.range(0, 99);
  h.sdf = static_cast<std::int32_t>(s < 20 ? 0 : s < 90 ? rng.range(1, 40) : rng.range(41, 1000));
  h.dcd_us = static_cast<std::int32_t>(rng.chance(60) ? 0 : rng.range(1, 200 * kMs));
  const auto are = rng.range(0, 99);
  h.are_us = static_cast<std::int32_t>(are < 50   ? 0
                                       : are < 95 ? rng.range(1, 600 * kMs)
                                                  : rng.range(600 * kMs, 2 * kSecond));
  h.line_clear_delay_us = static_cast<std::int32_t>(rng.chance(50) ? 0 : rng.range(1, kSecond));
  h.irs = rng.chance(70);
  h.ihs = rng.chance(70);
  return h;
}

// A random "bot": taps, long holds of a direction (auto-shift), chords, releases, changes to the buttons already
// held, several changes at one time, and rarely an unknown bit. Times on a 1 ms grid like the real client's, or
// on any microsecond.
std::vector<InputChange> random_presses(SplitMix64& rng, TimeUs max_us) {
  const TimeUs grid = rng.chance(75) ? kMs : 1;
  static constexpr std::array<std::pair<TimeUs, TimeUs>, 3> kGaps = {
      {{1, 40 * kMs}, {10 * kMs, 150 * kMs}, {50 * kMs, 600 * kMs}}};
  const auto [gap_min, gap_max] = kGaps[static_cast<std::size_t>(rng.range(0, 2))];
  const auto pick = [&rng]() -> Buttons {
    const auto r = rng.range(0, 99);
    if (r < 18) return button::kMoveLeft;
    if (r < 36) return button::kMoveRight;
    if (r < 44) return button::kSoftDrop;
    if (r < 54) return button::kHardDrop;
    if (r < 68) return button::kRotateCw;
    if (r < 80) return button::kRotateCcw;
    if (r < 88) return button::kRotate180;
    return button::kHold;
  };

  std::vector<InputChange> out;
  Buttons held = 0;
  TimeUs t = rng.chance(20) ? 0 : snap(rng.range(0, 500 * kMs), grid);
  const auto push = [&](Buttons b) { out.push_back({t, b}); };
  while (t <= max_us) {
    const auto op = rng.range(0, 999);
    if (op < 450) {  // press or release one button
      held ^= pick();
      push(held);
    } else if (op < 650) {  // a tap
      const Buttons b = pick();
      push(held | b);
      t += snap(rng.range(1, 250 * kMs), grid);
      held &= static_cast<Buttons>(~b);
      push(held);
    } else if (op < 730) {  // let go of everything
      held = 0;
      push(held);
    } else if (op < 770) {  // a random chord
      held = static_cast<Buttons>(rng.range(0, button::kAll));
      push(held);
    } else if (op < 810) {  // a second key of an action already held: no change
      push(held);
    } else if (op < 880) {  // hold a direction long enough to auto-shift
      const Buttons dir = rng.chance(50) ? button::kMoveLeft : button::kMoveRight;
      held = static_cast<Buttons>((held & ~(button::kMoveLeft | button::kMoveRight)) | dir);
      push(held);
      t += snap(rng.range(100 * kMs, 1'500 * kMs), grid);
      held &= static_cast<Buttons>(~dir);
      push(held);
    } else if (op < 997) {  // several changes stamped with the same time
      for (auto n = rng.range(2, 4); n > 0; --n) {
        held ^= pick();
        push(held);
      }
    } else {  // a bit no button has: the client must drop it and keep its stream whole
      push(static_cast<Buttons>(held | (1u << rng.range(8, 15))));
    }
    t += rng.chance(10) ? 0 : snap(rng.range(gap_min, gap_max), grid);
  }
  return out;
}

// The real bot playing the game; its log is what a player would have pressed.
std::vector<InputChange> bot_presses(const GameConfig& config, std::uint64_t engine_seed, SplitMix64& rng,
                                     TimeUs max_us) {
  bot::BotSettings settings;
  settings.chooser.lookahead = 0;  // a quicker bot; its log is as realistic
  (void)rng.range(0, 1);
  settings.pps_milli = static_cast<std::int32_t>(rng.chance(50) ? 0 : rng.range(500, 4'000));
  settings.timing_seed = rng.next();
  bot::Bot player(settings);
  engine::RacerRun run(config, engine_seed);
  bot::play_to_end(run, player, max_us);
  return run.log();
}

// The client's frames: mostly short (a 60 Hz or 144 Hz display, or a busy machine), sometimes long (33 ms to 1 s),
// and now and then a stall of seconds after which the client catches up in one advance.
std::vector<TimeUs> random_frames(SplitMix64& rng, TimeUs max_us) {
  const TimeUs grid = rng.chance(60) ? kMs : 1;
  const auto profile = rng.range(0, 3);
  const auto stall_per_10k = rng.range(0, 15);
  const auto long_per_10k = rng.range(0, 100);
  const auto medium_per_10k = rng.range(50, 800);
  std::vector<TimeUs> frames;
  TimeUs t = 0;
  if (rng.chance(30)) frames.push_back(0);
  while (t < max_us) {
    const auto r = rng.range(0, 9'999);
    TimeUs length = 0;
    if (r < stall_per_10k) {
      length = rng.range(kSecond, 6 * kSecond);
    } else if (r < stall_per_10k + long_per_10k) {
      length = rng.range(250 * kMs, kSecond);
    } else if (r < stall_per_10k + long_per_10k + medium_per_10k) {
      length = rng.range(33 * kMs, 250 * kMs);
    } else if (profile == 0) {
      length = 16'667 + rng.range(-2 * kMs, 2 * kMs);
    } else if (profile == 1) {
      length = 6'944 + rng.range(-kMs, kMs);
    } else if (profile == 2) {
      length = rng.range(kMs, 33 * kMs);
    } else {
      length = rng.range(kMs, 8 * kMs);
    }
    t += std::max(kMs, snap(length, grid));
    frames.push_back(std::min(t, max_us));
    t = frames.back();
  }
  return frames;
}

std::vector<Hold> random_holds(SplitMix64& rng, TimeUs max_us) {
  std::vector<Hold> holds;
  if (rng.chance(40)) return holds;
  const TimeUs spacing = rng.range(kSecond, 20 * kSecond);
  for (TimeUs t = rng.range(0, spacing); t < max_us;) {
    const TimeUs length = rng.range(50 * kMs, 6 * kSecond);
    holds.push_back({t, t + length});
    t += length + rng.range(kMs, spacing);
  }
  return holds;
}

constexpr std::array<const char*, 6> kLimitNames = {"no limit", "seconds", "pieces", "lines", "level", "score"};
constexpr std::array<const char*, 3> kScoringNames = {"guideline", "contest", "tetrs"};

}  // namespace

GameConfig random_config(SplitMix64& rng) {
  GameConfig c;
  switch (rng.range(0, 6)) {
    case 0: c = engine::make_sprint(rng.chance(50) ? 40 : rng.range(1, 40)); break;
    case 1: c = engine::make_ultra(rng.range(5, 120)); break;
    case 2:
      c = engine::make_marathon(rng.chance(50) ? engine::GoalSystem::kFixed : engine::GoalSystem::kVariable);
      break;
    case 3: c = engine::make_master(rng.chance(50) ? 100 : rng.range(1, 100)); break;
    case 4: c = engine::make_endless(); break;
    case 5: c = engine::make_contest(); break;
    default: {
      c = engine::make_custom();
      c.limit = static_cast<engine::LimitKind>(rng.range(0, 5));
      static constexpr std::array<std::pair<std::int64_t, std::int64_t>, 6> kValues = {
          {{0, 0}, {5, 120}, {1, 300}, {1, 60}, {2, 20}, {1, 200'000}}};
      const auto [lo, hi] = kValues[static_cast<std::size_t>(c.limit)];
      c.limit_value = rng.range(lo, hi);
      c.goal = static_cast<engine::GoalKind>(rng.range(0, 2));
    }
  }
  c.rotation = static_cast<engine::RotationSystem>(rng.range(0, 2));
  c.allow_180 = rng.chance(80);
  const auto g = rng.range(0, 99);
  c.generator = g < 55   ? engine::GeneratorKind::kBag7
                : g < 70 ? engine::GeneratorKind::kRecency
                : g < 85 ? engine::GeneratorKind::kUniform
                         : engine::GeneratorKind::kFixed;
  if (c.generator == engine::GeneratorKind::kFixed) {
    c.fixed_sequence.resize(static_cast<std::size_t>(rng.range(1, 30)));
    for (engine::Piece& p : c.fixed_sequence) p = static_cast<engine::Piece>(rng.range(1, 7));
  }
  if (rng.chance(15)) c.initial_board = random_board(rng);
  c.hold_enabled = rng.chance(85);
  c.preview = static_cast<std::uint8_t>(rng.range(0, 7));
  c.handling = random_handling(rng);
  if (c.mode != engine::ModeKind::kMaster || rng.chance(10)) {
    c.gravity = rng.chance(20) ? engine::Gravity::k20G : engine::Gravity::kLevelTable;
  }
  c.start_level = static_cast<std::int32_t>(rng.chance(60) ? 1 : rng.range(1, 30));
  c.level_up = rng.chance(80);
  if (rng.chance(30)) c.goal_system = static_cast<engine::GoalSystem>(rng.range(0, 1));
  c.lock_down = static_cast<engine::LockDown>(rng.range(0, 3));
  const auto l = rng.range(0, 99);
  c.lock_delay_us = static_cast<std::int32_t>(l < 70   ? 500 * kMs
                                              : l < 95 ? rng.range(50 * kMs, 2 * kSecond)
                                              : l < 99 ? rng.range(2 * kSecond, 10 * kSecond)
                                                       : rng.range(1, 50 * kMs));
  c.max_lock_resets = static_cast<std::int32_t>(rng.chance(70) ? 15 : rng.chance(95) ? rng.range(0, 40) : 1000);
  c.ground_time_cap_us = static_cast<std::int32_t>(rng.chance(70) ? 2'250 * kMs : rng.range(1, 5 * kSecond));
  if (rng.chance(30)) c.scoring = static_cast<engine::Scoring>(rng.range(0, 2));
  c.all_spin = rng.chance(30);
  assert(engine::check_config(c));
  return c;
}

SyncPlan make_plan(std::uint64_t game_seed, const PlanOptions& options) {
  SyncPlan plan;
  plan.game_seed = game_seed;
  SplitMix64 config_rng = stream(game_seed, 1);
  plan.config = random_config(config_rng);
  plan.engine_seed = config_rng.next();
  SplitMix64 input_rng = stream(game_seed, 2);
  if (input_rng.range(0, 99) < options.bot_percent) {
    plan.source = InputSource::kBot;
    plan.presses = bot_presses(plan.config, plan.engine_seed, input_rng, options.max_game_us);
  } else {
    plan.source = InputSource::kRandomPresses;
    plan.presses = random_presses(input_rng, options.max_game_us);
  }
  SplitMix64 frame_rng = stream(game_seed, 3);
  plan.frames = random_frames(frame_rng, options.max_game_us);
  SplitMix64 hold_rng = stream(game_seed, 4);
  plan.holds = random_holds(hold_rng, options.max_game_us);
  SplitMix64 copy_rng = stream(game_seed, 5);
  for (Hold& h : plan.holds) h.copies_pass = copy_rng.chance(50);
  return plan;
}

std::string describe(const GameConfig& c) {
  const auto us = [](std::int64_t v) { return std::to_string(v) + " us"; };
  std::string s = engine::mode_name(c.mode);
  s += std::string(" (") + kLimitNames[static_cast<std::size_t>(c.limit)];
  if (c.limit != engine::LimitKind::kNone) s += " " + std::to_string(c.limit_value);
  s += std::string("), ") + kRotationNames[static_cast<std::size_t>(c.rotation)] + (c.allow_180 ? "" : " no-180");
  s += std::string(", ") + kGeneratorNames[static_cast<std::size_t>(c.generator)];
  if (!c.initial_board.empty()) s += ", board of " + std::to_string(c.initial_board.size()) + " rows";
  s += std::string(", ") + kLockDownNames[static_cast<std::size_t>(c.lock_down)] + " lock " + us(c.lock_delay_us);
  s += " (resets " + std::to_string(c.max_lock_resets) + ", cap " + us(c.ground_time_cap_us) + ")";
  s += c.gravity == engine::Gravity::k20G ? ", 20G" : ", gravity from level " + std::to_string(c.start_level);
  s += ", das " + us(c.handling.das_us) + ", arr " + us(c.handling.arr_us) + ", sdf " + std::to_string(c.handling.sdf);
  s += ", dcd " + us(c.handling.dcd_us) + ", are " + us(c.handling.are_us);
  s += ", line clear delay " + us(c.handling.line_clear_delay_us);
  s += std::string(", irs ") + (c.handling.irs ? "on" : "off") + ", ihs " + (c.handling.ihs ? "on" : "off");
  s += std::string(", hold ") + (c.hold_enabled ? "on" : "off");
  s += std::string(", ") + kScoringNames[static_cast<std::size_t>(c.scoring)] + (c.all_spin ? " all-spin" : "");
  return s;
}

}  // namespace sr::synctest
