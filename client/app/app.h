// The application: what every screen shares (the window, settings, the frame pacer, network play), which screen is
// up, where keys go, and the frame's steps. Each screen is a type of its own behind ScreenView (screen_view.h), made
// once by the list in screen_list.cpp. main.cpp owns the loop and calls, every
// frame: input() with the events taken, ui() inside the ImGui frame, render() before ImGui draws, after_render() before
// the swap, end_frame() after it, and waits for events as long as wait_s() says (frame pacing).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/app/app_screen.h"
#include "client/app/cli.h"
#include "client/app/frame_pacer.h"
#include "client/app/net_play.h"
#include "client/app/screen_view.h"
#include "client/app/solo_game.h"
#include "client/audio/sound_player.h"
#include "client/input/bindings.h"
#include "client/platform/gamepad.h"
#include "client/platform/window.h"
#include "client/render/board_renderer.h"
#include "client/render/quad_batch.h"
#include "client/replay/replay_link.h"
#include "client/settings/paths.h"
#include "client/settings/settings.h"
#include "client/ui/fonts.h"
#include "common/result.h"

namespace sr::client {

using engine::TimeUs;

class App {
 public:
  App(AppOptions options, Window& window, Fonts fonts);
  ~App();

  // Loads settings, sets up the renderer, and starts the --mode game if one was asked for. Returns ok or an
  // error sentence.
  [[nodiscard]] sr::Status<std::string> init();
  // The window's events of this frame, in order (keys and pad changes stamped on arrival by the main thread: the
  // game gets them at those times); advances the game to `now_s`.
  void input(const std::vector<InputEvent>& events, double now_s);
  // This frame's navigation (keys and pads), also given to ImGui's keyboard and gamepad navigation. Between the
  // backend's NewFrame and ImGui::NewFrame.
  void nav_inputs();
  // The ImGui part of the frame: menus, HUD text, overlays.
  void ui(double now_s);
  // Our batched board renderer, before ImGui's draw data.
  void render(int fb_w, int fb_h, double now_s);
  // Screenshots (the back buffer is complete here).
  void after_render(int fb_w, int fb_h);
  // The frame ran from `start_s` (before polling) to `end_s` (the swap returned): frame pacing's measurements, the
  // frames-per-second log line, and --bench-frames' frame times.
  void end_frame(double start_s, double end_s);
  // Waits for events until the next frame is due (FramePacer: vsync or the frame cap while something moves, long on
  // idle screens, bounded while the network or a pad needs polling). A key ends the wait at once; other input does
  // on an idle screen (a hover is drawn), but not on one already drawn at the cap (mouse motion adds no frames).
  void wait_for_next_frame();
  // Saves a game still in progress as abandoned.
  void shutdown(double now_s);

  [[nodiscard]] bool done() const { return done_; }
  // The window's close button: true to close now; false while others play on the server this game hosts, the first
  // time: a warning asks (close anyway, or keep playing) and a second close request closes.
  [[nodiscard]] bool close_requested();
  [[nodiscard]] int exit_code() const { return exit_code_; }

  // What the screens share (screen_view.h).
  [[nodiscard]] const AppOptions& options() const { return options_; }
  [[nodiscard]] Settings& settings() { return settings_; }
  [[nodiscard]] const Settings& settings() const { return settings_; }
  [[nodiscard]] const Paths& paths() const { return paths_; }
  [[nodiscard]] PuzzleProgress& puzzles() { return puzzles_; }
  [[nodiscard]] const Fonts& fonts() const { return fonts_; }
  [[nodiscard]] QuadBatch& batch() { return batch_; }
  [[nodiscard]] HeldInputs& held() { return held_; }
  [[nodiscard]] ReplayLink& replays() { return replays_; }
  [[nodiscard]] audio::SoundPlayer& sound() { return *sound_; }
  [[nodiscard]] NetPlay& net() { return net_; }
  // Replaces the player's key (an import from Settings): kept in its file, used from the next connection on.
  [[nodiscard]] sr::Status<std::string> set_key(const net::PlayerKey& key);
  [[nodiscard]] const NetPlay& net() const { return net_; }
  // The view of screen `id`, as its type (screen_list.cpp makes each).
  template <class View>
  [[nodiscard]] View& view(Screen id) {
    return dynamic_cast<View&>(*views_.at(id));
  }
  // Shows screen `id` from the next call on (its view keeps what it showed last).
  void show(Screen id) { screen_ = id; }
  [[nodiscard]] Screen screen() const { return screen_; }
  // The game ends after this frame.
  void quit() { done_ = true; }
  // A key press was taken before the menus ran: they get no navigation this frame.
  void suppress_nav() { nav_suppressed_ = true; }
  // Menu keys typed ahead are dropped (a game starts: they must not reach its pause or results menus).
  void clear_menu_keys() { menu_keys_.clear(); }
  // A screenshot (and its layout file) of this frame, as F12 takes.
  void request_screenshot() { screenshot_requested_ = true; }
  // A notice drawn over the main menu until closed (a file that could not be saved or read).
  void show_notice(std::string title, std::string text);
  // The settings as changed in Settings: clamped to their ranges, applied, and saved (a failure is a notice).
  void apply_settings();
  // Starts a solo game (GameView::start).
  void start_game(GamePick pick, Screen back_to, double now_s);
  void open_puzzles();
  void open_replay_browser();
  // Copies the web link of stored game `game_id` on the server we are connected to (its Welcome says where its pages
  // are) to the clipboard. What to show: "link copied: http://..." or that the server has no web pages.
  [[nodiscard]] std::string copy_game_link(std::uint64_t game_id);

 private:
  // Reads the player key, or makes it on the first start (Paths::key_file); a key for this run if it cannot.
  void load_key();
  // app_input.cpp: input routing
  MenuNav read_nav();
  void pad_changes(const std::vector<PadChange>& changes, double when_s);
  void key(const KeyEvent& ev);
  // app.cpp: the screens
  [[nodiscard]] ScreenView& view() const { return *views_.at(screen_); }
  // What the screen on show needs from the next frames (frame pacing).
  [[nodiscard]] Activity activity() const;
  [[nodiscard]] PaceState pace_state(double now_s) const;
  // The sound settings and the window's focus, given to the player (every frame: they change in Settings).
  void apply_sound_settings(bool focused);
  // Services the connection and gives every screen what arrived (ScreenView::net_message); true when anything did
  // (or the connection's state changed).
  bool net_poll(double now_s);
  // A connection is open (connecting, in the lobby or a room, reconnecting): it must be serviced often.
  [[nodiscard]] bool net_open() const;

  AppOptions options_;
  Window& window_;
  Fonts fonts_;
  Paths paths_;
  Settings settings_;
  PuzzleProgress puzzles_;    // puzzles.json, loaded by init()
  std::string notice_title_;  // a notice shown over the main menu until closed (draw_notice)
  std::string notice_;
  bool close_warning_ = false;  // "Close the game? N players are on the server you host": shown over every screen
  std::optional<std::string> welcome_name_;  // the first start's name, asked over the main menu (draw_welcome)
  QuadBatch batch_;
  Gamepads pads_;
  HeldInputs held_;
  ReplayLink replays_;
  std::unique_ptr<audio::SoundPlayer> sound_;  // made by init(); silent without an audio device

  Screen screen_ = Screen::kMain;
  bool nav_suppressed_ = false;                 // a key press was consumed before the UI ran this frame
  MenuNav frame_nav_;                           // this frame's navigation (nav_inputs())
  std::string logged_screen_;                   // the screen last named in the log
  std::deque<std::pair<int, bool>> menu_keys_;  // key presses (key, auto-repeat) waiting for the menus
  // Every screen's view (screen_list.cpp); screen_ is the one shown.
  std::map<Screen, std::unique_ptr<ScreenView>> views_;

  // Multiplayer: the connection, serviced on every screen (its menus and races are NetView's).
  NetPlay net_;

  FramePacer pacer_;
  int frames_counted_ = 0;  // since frames_since_s_, for the "frames:" debug line
  double frames_since_s_ = -1;

  bool screenshot_requested_ = false;
  // What F12 did ("screenshot saved to ...", or why not), shown at the top of the screen until toast_until_s_.
  std::string toast_;
  double toast_until_s_ = 0;
  bool was_focused_ = false;
  bool done_ = false;
  int exit_code_ = 0;
};

}  // namespace sr::client
