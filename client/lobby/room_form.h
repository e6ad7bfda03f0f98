// The room options a host chooses (CreateRoom, ChangeSettings): every field of protocol::RoomSettings, as the
// create-room and room-settings forms and the command line (--create-room) edit them. The game config is a mode with
// its parameters (sprint lines, ultra seconds, marathon goal system, ...) or, for custom rooms, every rule field like
// the solo custom game. Handling (DAS, ARR, ARE, ...) is not here: each racer plays with their own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/engine/config.h"
#include "common/protocol/records.h"
#include "common/result.h"

namespace sr::client {

// What ends an endless room's race besides everyone topping out.
enum class EndlessLimit : std::uint8_t { kNone = 0, kLines = 1, kSeconds = 2 };

struct RoomForm {
  static constexpr int kMinLines = 1, kMaxLines = 10'000;
  static constexpr int kMinSeconds = 10, kMaxSeconds = 3'600;

  std::string name = "room";
  engine::ModeKind mode = engine::ModeKind::kSprint;
  int lines = 40;              // sprint, master; endless with a line limit
  int seconds = 120;           // ultra, contest; endless with a time limit
  bool variable_goal = false;  // marathon: 5 x level lines per level instead of 10
  EndlessLimit endless = EndlessLimit::kNone;
  engine::GameConfig custom = engine::make_custom();  // custom rooms: every rule field (its handling is unused)
  std::string sequence = "TSZIJLO";                   // custom with the fixed generator: the pieces, as letters
  std::string board;   // custom: the initial board, rows top-down separated by '/' (custom_fields.h)
  int max_racers = 8;  // 1..protocol::kMaxRacers
  bool is_private = false;
  bool auto_start = true;
  // 0..protocol::kMaxStallBudgetS: game time a racer may send late over a race (a stalled connection) before the
  // server removes them.
  int stall_budget_s = 10;

  // The game config the form describes, or the sentence naming what to fix.
  [[nodiscard]] sr::Result<engine::GameConfig, std::string> config() const;
  // Settings the server accepts (they pass protocol::validate), or the sentence naming what to fix.
  [[nodiscard]] sr::Result<protocol::RoomSettings, std::string> to_settings() const;
  // Shows a room's current settings; a config that is not one of the mode presets is shown as custom.
  void from_settings(const protocol::RoomSettings& s);
};

// The form for `--create-room MODE [--lines N] [--seconds N]`: the same modes and parameter rules as the form, with
// a sentence for a mode that is unknown or a parameter that does not fit it ("ultra is timed: use --seconds").
[[nodiscard]] sr::Result<RoomForm, std::string> room_form_for_cli(const std::string& mode, std::optional<int> lines,
                                                                  std::optional<int> seconds, bool variable_goal);

}  // namespace sr::client
