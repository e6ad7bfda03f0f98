// The menu screens, each a small class drawn with Menu: main menu, solo mode picker, race-the-bot picker, custom
// game editor, pause menu and results. They return what the player chose; the app acts on it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "client/solo/results.h"
#include "client/ui/menu.h"
#include "common/engine/config.h"

namespace sr::client {

// A notice over the screen (a damaged settings file, a file that is not a replay): `title`, the text wrapped in a
// window as wide as half the display (at least 30 and at most 60 body-font heights), and an OK button. Enter,
// Space, Esc (pad A or B) or a click close it. True when it was closed this frame. While it is up the screen
// beneath should get no keys.
[[nodiscard]] bool draw_notice(const char* title, const std::string& text, const MenuNav& nav);

// The first start's welcome over the main menu: asks the name other players will see, `name` (edited in place,
// suggested by the caller), with the keyboard in the text field. True once accepted (Enter or the button) with a name
// a server accepts (protocol::kPlayerNameText); an invalid one is said under the field instead.
[[nodiscard]] bool draw_welcome(std::string& name);

// The warning when the window is closed while `others` players are on the server this game hosts, over every
// screen: Close anyway (a click, Enter or pad A), Keep playing (a click, Esc or pad B), or nothing yet.
enum class CloseWarningChoice { kNone, kClose, kStay };
[[nodiscard]] CloseWarningChoice draw_close_warning(std::size_t others, const MenuNav& nav);

// A line of text over everything at the top centre, on a dark band (F12's answer).
void draw_toast(const std::string& text);

enum class MainChoice { kNone, kSolo, kBot, kPuzzles, kMultiplayer, kReplays, kRecords, kSettings, kQuit };
[[nodiscard]] MainChoice draw_main_menu(Menu& menu, const MenuNav& nav, const std::string& player_name);

// A game to start: its config (handling is filled in by the app) and, for races, the bot's speed.
struct GamePick {
  engine::GameConfig config;
  std::optional<double> bot_pps;
};

class SoloMenu {
 public:
  // nullopt while choosing; sets `back` on Esc and `custom` when the custom editor was picked.
  [[nodiscard]] std::optional<GamePick> draw(const MenuNav& nav, bool& back, bool& custom);

 private:
  Menu menu_;
  int sprint_ = 1, ultra_ = 1, marathon_ = 0;
};

class BotMenu {
 public:
  [[nodiscard]] std::optional<GamePick> draw(const MenuNav& nav, bool& back);

 private:
  Menu menu_;
  int mode_ = 0;
  int pps_tenths_ = 15;
};

// Edits every option of the engine's custom mode.
class CustomMenu {
 public:
  CustomMenu();
  [[nodiscard]] std::optional<GamePick> draw(const MenuNav& nav, bool& back);

 private:
  Menu menu_;
  engine::GameConfig config_;
  std::string sequence_;  // fixed generator sequence as letters, "IJLOSTZ"
  std::string board_;     // initial board, rows top to bottom separated by '/', '.' empty, 'G' garbage
  std::string error_;
};

enum class PauseChoice { kNone, kResume, kRestart, kQuit };
[[nodiscard]] PauseChoice draw_pause_menu(Menu& menu, const MenuNav& nav);

struct ResultsView {
  std::string title;  // "Finished!", "Topped out", "Abandoned"; against the bot "You won!", "The bot won", "A tie"
  std::string mode;   // "sprint 40"
  RunResult result;
  std::optional<RunResult> previous_best;
  bool new_best = false;
  std::vector<std::pair<std::string, std::string>> stats;
  std::string saved;     // where the replay went, or why it was not saved
  std::string bot_line;  // "Bot: 0:52.100" when racing
};
enum class ResultsChoice { kNone, kRetry, kMenu };
[[nodiscard]] ResultsChoice draw_results(Menu& menu, const MenuNav& nav, const ResultsView& view);
// A results window's two-column table of (label, value) and, below it, where the replay was saved.
void draw_stats_and_saved(const std::vector<std::pair<std::string, std::string>>& stats, const std::string& saved);

}  // namespace sr::client
