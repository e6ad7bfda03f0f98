// One screen of the game behind one interface: its name, its keys and pads, its UI, its boards, and how often it
// needs frames. The App (app.h) shows one at a time and holds what every screen shares (the window, the settings,
// the frame pacer, network play); each screen is a class of its own in its own file (*_view.h/.cpp in this folder),
// made once by make_screen_views() (screen_list.cpp), the one list of screens. Adding a screen: its file, a value of
// `Screen` (app_screen.h) and a line in that list.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "client/app/app_screen.h"
#include "client/app/frame_pacer.h"
#include "client/platform/input_queue.h"
#include "client/platform/pad_state.h"
#include "client/render/board_renderer.h"
#include "client/ui/menu.h"
#include "common/protocol/messages.h"

namespace sr::client {

class App;

// The largest grid of n equal boards in (x, y, w, h), appended to `out` (the race screen's and the viewer's boards).
void grid_layouts(std::vector<BoardLayout>& out, int n, float x, float y, float w, float h);

class ScreenView {
 public:
  explicit ScreenView(App& app) : app_(app) {}
  virtual ~ScreenView() = default;
  ScreenView(const ScreenView&) = delete;
  ScreenView& operator=(const ScreenView&) = delete;

  // What the log says on entering it ("screen: NAME"): the window tests follow the game through these.
  [[nodiscard]] virtual std::string name() const = 0;

  // Keys and pads, in the order they arrived, before the menus see them (the app has taken F11 and F12).
  // capture_*: true when the screen took the press for itself (a key being bound in Settings): the menus get nothing
  // of this frame.
  [[nodiscard]] virtual bool capture_key(const KeyEvent& /*ev*/) { return false; }
  [[nodiscard]] virtual bool capture_pad(const PadChange& /*change*/) { return false; }
  // A game is played on this screen: its keys go to it, not to the menus.
  [[nodiscard]] virtual bool playing() const { return false; }
  // Every key event (releases too) and every pad change not captured.
  virtual void key(const KeyEvent& /*ev*/) {}
  virtual void pad(const PadChange& /*change*/, double /*when_s*/) {}
  // The window lost the keyboard focus (GLFW has already released the held keys).
  virtual void focus_lost(double /*now_s*/) {}
  // Once a frame after the input: the screen's game advances to `now_s`.
  virtual void tick(double /*now_s*/) {}

  // The ImGui part of the frame, with this frame's navigation (empty while a notice or warning is on top).
  virtual void ui(double now_s, const MenuNav& nav) = 0;
  // The boards, laid out in a w x h window, into the app's batch (before ImGui's draw data).
  virtual void render(const BoardLook& /*look*/, float /*w*/, float /*h*/, double /*now_s*/) {}
  // The boards drawn this frame (for a screenshot's layout file), and a note per board (race screens only).
  [[nodiscard]] virtual const std::vector<BoardLayout>& layouts() const;
  [[nodiscard]] virtual std::vector<std::string> layout_notes() const { return {}; }

  // What the screen needs of the next frames (frame pacing), and a moment it needs a frame at (a button appearing).
  [[nodiscard]] virtual Activity activity() const { return Activity::kIdle; }
  [[nodiscard]] virtual std::optional<double> wake_at(double /*now_s*/) const { return std::nullopt; }
  // ImGui's keyboard and pad navigation is held (a race is played: hard drops must never press a menu button).
  [[nodiscard]] virtual bool holds_navigation(double /*now_s*/) const { return false; }
  // A frame was drawn from `start_s` (before polling) to `end_s` (the swap returned).
  virtual void frame_done(double /*start_s*/, double /*end_s*/) {}
  // The connection (App::net()), for every screen, shown or not: each message that arrived, in order; then once per
  // servicing (after the messages); and once when the connection has ended.
  virtual void net_message(const protocol::Message& /*message*/, double /*now_s*/) {}
  virtual void net_polled(double /*now_s*/) {}
  virtual void connection_closed() {}
  // The game is closing (every screen is told, shown or not): a game still in progress is saved.
  virtual void shutdown(double /*now_s*/) {}

 protected:
  App& app_;
};

}  // namespace sr::client
