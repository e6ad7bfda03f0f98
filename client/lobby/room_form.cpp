#include "client/lobby/room_form.h"

#include <algorithm>

#include "client/solo/custom_fields.h"
#include "common/protocol/codec.h"
#include "common/protocol/messages.h"

namespace sr::client {
namespace {

using engine::ModeKind;

bool in(int v, int lo, int hi) { return v >= lo && v <= hi; }

std::string lines_range() { return std::to_string(RoomForm::kMinLines) + ".." + std::to_string(RoomForm::kMaxLines); }
std::string seconds_range() {
  return std::to_string(RoomForm::kMinSeconds) + ".." + std::to_string(RoomForm::kMaxSeconds);
}

std::string board_text(const std::vector<engine::BoardRow>& rows) {
  std::string out;
  for (auto it = rows.rbegin(); it != rows.rend(); ++it) {  // stored bottom row first, written top-down
    if (!out.empty()) out += '/';
    for (engine::Piece p : *it) out += engine::piece_letter(p);
  }
  return out;
}

// The config with the engine's default handling: rooms compare by rules only.
engine::GameConfig rules_of(engine::GameConfig c) {
  c.handling = engine::Handling{};
  return c;
}

}  // namespace

sr::Result<engine::GameConfig, std::string> RoomForm::config() const {
  engine::GameConfig c;
  const bool lines_ok = in(lines, kMinLines, kMaxLines), seconds_ok = in(seconds, kMinSeconds, kMaxSeconds);
  switch (mode) {
    case ModeKind::kSprint:
    case ModeKind::kMaster:
      if (!lines_ok) {
        return sr::fail("lines must be " + lines_range());
      }
      c = mode == ModeKind::kSprint ? engine::make_sprint(lines) : engine::make_master(lines);
      break;
    case ModeKind::kUltra:
    case ModeKind::kContest:
      if (!seconds_ok) {
        return sr::fail("seconds must be " + seconds_range());
      }
      if (mode == ModeKind::kUltra) {
        c = engine::make_ultra(seconds);
      } else {
        c = engine::make_contest();
        c.limit_value = seconds;
      }
      break;
    case ModeKind::kMarathon:
      c = engine::make_marathon(variable_goal ? engine::GoalSystem::kVariable : engine::GoalSystem::kFixed);
      break;
    case ModeKind::kEndless:
      c = engine::make_endless();
      if (endless == EndlessLimit::kLines) {
        if (!lines_ok) {
          return sr::fail("lines must be " + lines_range());
        }
        c.limit = engine::LimitKind::kLines;
        c.limit_value = lines;
      } else if (endless == EndlessLimit::kSeconds) {
        if (!seconds_ok) {
          return sr::fail("seconds must be " + seconds_range());
        }
        c.limit = engine::LimitKind::kTime;
        c.limit_value = seconds;
      }
      break;
    case ModeKind::kCustom:
      c = custom;
      c.mode = ModeKind::kCustom;
      c.handling = engine::Handling{};
      c.fixed_sequence.clear();
      if (c.generator == engine::GeneratorKind::kFixed) {
        if (auto parsed = parse_sequence(sequence, c.fixed_sequence); !parsed) {
          return sr::fail(parsed.error());
        }
      }
      if (auto parsed = parse_board(board, c.initial_board); !parsed) {
        return sr::fail(parsed.error());
      }
      break;
  }
  if (auto checked = engine::check_config(c); !checked) {
    return sr::fail(checked.error());
  }
  return c;
}

sr::Result<protocol::RoomSettings, std::string> RoomForm::to_settings() const {
  auto c = config();
  if (!c) return sr::fail(c.error());
  if (!in(max_racers, 1, static_cast<int>(protocol::kMaxRacers))) {
    return sr::fail("racers at most must be 1.." + std::to_string(protocol::kMaxRacers));
  }
  if (!in(stall_budget_s, 0, protocol::kMaxStallBudgetS)) {
    return sr::fail("the stall budget must be 0.." + std::to_string(protocol::kMaxStallBudgetS) + " seconds");
  }
  protocol::RoomSettings s;
  s.name = name;
  s.config = std::move(c.value());
  s.max_racers = static_cast<std::uint8_t>(max_racers);
  s.is_private = is_private;
  s.auto_start = auto_start;
  s.stall_budget_s = static_cast<std::uint8_t>(stall_budget_s);
  // What the server would refuse to read (an empty or over-long name, a board over the wire's limits) is said here.
  if (auto valid = protocol::validate(protocol::CreateRoom{s, protocol::Role::kRacer}); !valid) {
    return sr::fail(name.empty() ? "the room needs a name"
                                 : "the server would refuse these settings: " + valid.error().message);
  }
  return s;
}

void RoomForm::from_settings(const protocol::RoomSettings& s) {
  name = s.name;
  max_racers = s.max_racers;
  is_private = s.is_private;
  auto_start = s.auto_start;
  stall_budget_s = s.stall_budget_s;
  const engine::GameConfig& c = s.config;
  const auto clamp_int = [](std::int64_t v, int lo, int hi) {
    return static_cast<int>(std::clamp<std::int64_t>(v, lo, hi));
  };
  // Each mode's preset with these parameters; anything else is shown field by field as custom.
  RoomForm probe = *this;
  probe.mode = c.mode;
  probe.lines = clamp_int(c.limit_value, kMinLines, kMaxLines);
  probe.seconds = clamp_int(c.limit_value, kMinSeconds, kMaxSeconds);
  probe.variable_goal = c.goal_system == engine::GoalSystem::kVariable;
  probe.endless = c.limit == engine::LimitKind::kLines  ? EndlessLimit::kLines
                  : c.limit == engine::LimitKind::kTime ? EndlessLimit::kSeconds
                                                        : EndlessLimit::kNone;
  if (c.mode != ModeKind::kCustom) {
    const auto preset = probe.config();
    if (preset.ok() && rules_of(preset.value()) == rules_of(c)) {
      *this = probe;
      return;
    }
  }
  mode = ModeKind::kCustom;
  custom = c;
  sequence.clear();
  for (engine::Piece p : c.fixed_sequence) sequence += engine::piece_letter(p);
  if (sequence.empty()) sequence = "TSZIJLO";
  board = board_text(c.initial_board);
}

sr::Result<RoomForm, std::string> room_form_for_cli(const std::string& mode_name, std::optional<int> lines,
                                                    std::optional<int> seconds, bool variable_goal) {
  const auto mode = engine::mode_from_name(mode_name);
  if (!mode) {
    return sr::fail("unknown mode \"" + mode_name + "\" (sprint, ultra, marathon, master, endless, contest)");
  }
  RoomForm f;
  f.mode = *mode;
  switch (*mode) {
    case ModeKind::kSprint:
    case ModeKind::kMaster:
      if (seconds) {
        return sr::fail(std::string(mode_name) + " is a race to a number of lines: use --lines, not --seconds");
      }
      f.lines = lines.value_or(mode == ModeKind::kSprint ? 40 : 100);
      break;
    case ModeKind::kUltra:
    case ModeKind::kContest:
      if (lines) {
        return sr::fail(std::string(mode_name) + " is timed: use --seconds, not --lines");
      }
      f.seconds = seconds.value_or(mode == ModeKind::kUltra ? 120 : 90);
      break;
    case ModeKind::kMarathon:
      if (lines || seconds) {
        return sr::fail("marathon always ends after level 15: drop --lines/--seconds");
      }
      break;
    case ModeKind::kEndless:
      if (lines && seconds) {
        return sr::fail("endless takes one limit: --lines or --seconds, not both");
      }
      f.endless = lines ? EndlessLimit::kLines : seconds ? EndlessLimit::kSeconds : EndlessLimit::kNone;
      if (lines) f.lines = *lines;
      if (seconds) f.seconds = *seconds;
      break;
    case ModeKind::kCustom:
      return sr::fail(
          "custom rooms have too many rules for the command line: create them in the game (Multiplayer > Create "
          "room > Mode: custom)");
  }
  if (variable_goal && *mode != ModeKind::kMarathon) {
    return sr::fail("--variable-goal is for marathon rooms");
  }
  f.variable_goal = variable_goal;
  if (auto c = f.config(); !c) return sr::fail(c.error());
  return f;
}

}  // namespace sr::client
