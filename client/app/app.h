// The application: which screen is up, where keys go, the solo game in progress, and the frame's drawing.
// main.cpp owns the loop and calls, every frame: input() after polling, ui() inside the ImGui frame, render()
// before ImGui draws, after_render() before the swap.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/app/cli.h"
#include "client/app/frame_bench.h"
#include "client/app/net_play.h"
#include "client/solo/bot_racer.h"
#include "client/replay/replay_link.h"
#include "client/solo/solo_session.h"
#include "client/input/bindings.h"
#include "client/platform/gamepad.h"
#include "client/platform/window.h"
#include "client/render/board_renderer.h"
#include "client/render/quad_batch.h"
#include "client/settings/paths.h"
#include "client/settings/settings.h"
#include "client/ui/fonts.h"
#include "client/ui/net_screens.h"
#include "client/ui/replay_screens.h"
#include "client/ui/screens.h"
#include "client/ui/settings_screen.h"

namespace sr::client {

using engine::TimeUs;

// The largest grid of n equal boards in (x, y, w, h), appended to `out` (app_race.cpp).
void grid_layouts(std::vector<BoardLayout>& out, int n, float x, float y, float w, float h);

class App {
 public:
  App(AppOptions options, Window& window, Fonts fonts);
  ~App();

  // Loads settings, sets up the renderer, and starts the --mode game if one was asked for. Returns an error
  // sentence or "".
  [[nodiscard]] std::string init();
  // Key events (stamped in the callback) and gamepads; advances the game to `now_s`.
  void input(double now_s);
  // This frame's navigation (keys and pads), also given to ImGui's keyboard and gamepad navigation. Between the
  // backend's NewFrame and ImGui::NewFrame.
  void nav_inputs();
  // The ImGui part of the frame: menus, HUD text, overlays.
  void ui(double now_s);
  // Our batched board renderer, before ImGui's draw data.
  void render(int fb_w, int fb_h, double now_s);
  // Screenshots (the back buffer is complete here).
  void after_render(int fb_w, int fb_h);
  // Frame-time bookkeeping for --bench-frames: the whole frame took `frame_s` seconds.
  void end_frame(double frame_s);
  // Saves a game still in progress as abandoned.
  void shutdown(double now_s);

  [[nodiscard]] bool done() const { return done_; }
  [[nodiscard]] int exit_code() const { return exit_code_; }

 private:
  enum class Screen { kMain, kSolo, kBot, kCustom, kSettings, kGame, kBench, kNet, kReplays, kViewer };

  // app.cpp: screens and input routing
  MenuNav read_nav();
  [[nodiscard]] std::string screen_name() const;
  void game_key(const KeyEvent& ev);
  void pad_changes(const std::vector<PadChange>& changes, double now_s);
  void leave_settings();
  // app_game.cpp: the solo game
  void start_game(const GamePick& pick, double now_s);
  void restart(double now_s);
  void end_game(double now_s);
  void quit_game(double now_s);
  void tick_game(double now_s);
  void game_ui(double now_s, const MenuNav& nav);
  void layout_boards(float w, float h);
  [[nodiscard]] bool restart_key(int key) const;
  void leave_settings_quietly();
  // app_net.cpp: multiplayer screens, keys into our race, our own game saved
  void start_net_from_cli();
  void connect_to(const std::string& address);
  void net_poll(double now_s);
  void net_ui(double now_s, const MenuNav& nav);
  [[nodiscard]] bool lost_connection_modal(const MenuNav& nav);
  void spectate_from_list();
  void race_started();
  void auto_ready();
  void race_key(const KeyEvent& ev);
  void race_buttons_changed(double when_s);
  void tick_race();
  [[nodiscard]] const net::RaceView* shown_race() const;
  // Our own game of the shown race is being played (keys go to it, not to menus).
  [[nodiscard]] bool racing_now() const;
  // The race's results appeared a moment ago: their buttons take no keys yet.
  [[nodiscard]] bool results_fresh(double now_s) const;
  // app_race.cpp: the race screen and results
  void layout_race(float w, float h);
  void render_race(const BoardLook& look, double now_s);
  void race_ui(double now_s, const MenuNav& nav);
  void spectator_keys(const net::RaceView& race, const MenuNav& nav);
  void race_chat();
  void results_table(const protocol::RaceResults& results, double now_s, const MenuNav& nav);
  // Per race layout: "GAME_TIME_US PIECES NAME" of the board drawn there (for the screenshot's layout file).
  [[nodiscard]] std::vector<std::string> race_layout_notes() const;
  // app_replay.cpp: replay browser and viewer
  void open_replay_browser();
  void open_viewer_file(const std::filesystem::path& file);
  void replay_poll();
  void replays_ui(double now_s, const MenuNav& nav);
  void layout_viewer(float w, float h);
  void render_viewer(const BoardLook& look, double now_s);

  AppOptions options_;
  Window& window_;
  Fonts fonts_;
  Paths paths_;
  Settings settings_;
  std::string settings_problem_;  // shown once on the main menu
  QuadBatch batch_;
  Gamepads pads_;
  HeldInputs held_;
  ReplayLink replays_;

  Screen screen_ = Screen::kMain;
  Menu main_menu_;
  SoloMenu solo_menu_;
  BotMenu bot_menu_;
  CustomMenu custom_menu_;
  SettingsScreen settings_screen_;
  Menu pause_menu_;
  Menu results_menu_;
  Screen back_to_ = Screen::kSolo;              // the menu a game returns to
  bool nav_suppressed_ = false;                 // a key press was consumed before the UI ran this frame
  MenuNav frame_nav_;                           // this frame's navigation (nav_inputs())
  std::string logged_screen_;                   // the screen last named in the log
  std::deque<std::pair<int, bool>> menu_keys_;  // key presses (key, auto-repeat) waiting for the menus

  // The game in progress.
  std::optional<GamePick> pick_;
  std::unique_ptr<SoloSession> session_;
  std::unique_ptr<BotRacer> bot_;
  std::optional<RunResult> best_before_;
  std::optional<ResultsView> results_;
  std::int64_t started_unix_ms_ = 0;
  std::vector<BoardLayout> layouts_;

  // Multiplayer.
  NetPlay net_;
  ServerListScreen server_list_;
  LobbyScreen lobby_screen_;
  RoomScreen room_screen_;
  bool cli_room_created_ = false;
  bool auto_readied_ = false;
  std::optional<double> spectate_until_s_;  // --spectate: looking for the room until then
  double spectate_next_list_s_ = 0;
  bool spectate_joined_ = false;
  engine::Buttons race_buttons_ = 0;  // held now (in the countdown: held at the start)
  TimeUs last_press_us_ = 0;
  std::uint32_t dismissed_race_ = 0;  // results of this race were closed: show the room
  double results_shown_s_ = 0;
  char race_chat_[201] = "";
  bool exit_screenshot_taken_ = false;
  std::vector<BoardLayout> race_layouts_;
  std::vector<std::size_t> race_order_;  // race board i -> race_layouts_ index
  std::uint32_t enlarged_ = 0;           // spectating: the player whose board was clicked large (0 = none)

  // Replays.
  ReplayBrowser browser_;
  ReplayListing listing_;
  std::string browser_problem_;
  protocol::GameList server_games_;
  bool server_games_shown_ = false;      // a list has arrived since the browser asked
  Screen browser_back_ = Screen::kMain;  // where the browser's Back goes (the lobby it was opened from)
  std::optional<std::uint64_t> pending_download_;
  ReplayViewer viewer_;
  ViewerControls viewer_controls_;
  double viewer_last_s_ = 0;
  std::vector<BoardLayout> viewer_layouts_;

  FrameBench bench_;
  bool screenshot_requested_ = false;
  bool was_focused_ = false;
  bool done_ = false;
  int exit_code_ = 0;
};

}  // namespace sr::client
