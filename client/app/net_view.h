// Multiplayer: the server list (connect or host), the lobby, a room, and its races (played or watched) and their
// results. The connection is the app's (App::net(): serviced on every screen, and the contest ladder and the replay
// browser use it too); this screen shows it, acts on what arrives (net_message), and takes our race's keys and pads.
// The room's screen state (race_screen.h) is there exactly while we are in a room.
#pragma once

#include <cstdint>
#include <optional>

#include "client/app/race_screen.h"
#include "client/app/screen_view.h"
#include "client/app/spectate_request.h"
#include "client/ui/net_screens.h"

namespace sr::client {

class NetView final : public ScreenView {
 public:
  using ScreenView::ScreenView;
  // --host / --connect: hosts and connects as the command line asks, and shows this screen.
  void start_from_cli();
  // Connects to "host:port" (the server browser's Join) and shows this screen.
  void join(const std::string& address);

  // "multiplayer menu", "lobby", "room", "race" or "race results".
  [[nodiscard]] std::string name() const override;
  [[nodiscard]] bool playing() const override { return racing_now(); }
  void key(const KeyEvent& ev) override;
  void pad(const PadChange& change, double when_s) override;
  void tick(double now_s) override;
  void ui(double now_s, const MenuNav& nav) override;
  void render(const BoardLook& look, float w, float h, double now_s) override;
  [[nodiscard]] const std::vector<BoardLayout>& layouts() const override;
  // Per race layout: "GAME_TIME_US PIECES NAME" of the board drawn there (for the screenshot's layout file).
  [[nodiscard]] std::vector<std::string> layout_notes() const override { return race_layout_notes(); }
  [[nodiscard]] Activity activity() const override;
  [[nodiscard]] bool holds_navigation(double now_s) const override;
  [[nodiscard]] std::optional<double> wake_at(double now_s) const override;
  void net_message(const protocol::Message& message, double now_s) override;
  void net_polled(double now_s) override;
  void connection_closed() override;

 private:
  [[nodiscard]] const net::RaceView* shown_race() const;
  // Our own game of the shown race is being played (keys go to it, not to menus).
  [[nodiscard]] bool racing_now() const;
  // The race's results appeared a moment ago: their buttons take no keys yet.
  [[nodiscard]] bool results_fresh(double now_s) const;
  void connect_to(const std::string& address);
  void spectate_from_list();
  void race_started();
  // Where our result of `results` would place on the records of the settings' first hub: asked in the background
  // (nothing when there is no hub or the result does not count on its board), and the answer taken when it has come.
  void ask_record_place(const protocol::RaceResults& results);
  void poll_record_place();
  void auto_ready();
  void race_key(const KeyEvent& ev);
  // The "leave the race?" question (Esc while racing): its keys, its choices, and drawing it.
  static constexpr int kKeepRacing = 0, kLeaveRoom = 1, kLeaveServer = 2, kLeaveChoices = 3;
  void leave_race_key(int key, double when_s);
  void leave_race(int choice);
  void leave_race_ui();
  void race_buttons_changed(double when_s);
  void tick_race();
  // Our race's sounds after a press or an advance that began with our piece at `before`, if the call reached our
  // game (RaceView::own_calls() moved past `calls`).
  void sound_own_race(std::uint64_t calls, const std::optional<engine::ActivePiece>& before);
  // The race countdown's beeps (while we race) and the chime of another racer finishing.
  void race_sounds();
  [[nodiscard]] bool lost_connection_modal(const MenuNav& nav);
  void layout_race(float w, float h);
  void render_race(const BoardLook& look, double now_s);
  void race_ui(double now_s, const MenuNav& nav);
  void spectator_keys(const net::RaceView& race, const MenuNav& nav);
  void race_chat();
  // The race results at the bottom left; `spectator_hint` (or null) is drawn as its last line.
  void results_table(const protocol::RaceResults& results, double now_s, const MenuNav& nav,
                     const char* spectator_hint);
  [[nodiscard]] std::vector<std::string> race_layout_notes() const;

  // The multiplayer menus, kept for the whole run: each reopens on the choice last made, and the server list still
  // holds the address after a connection ends (to connect again).
  ServerListScreen server_list_;
  LobbyScreen lobby_;
  RoomScreen room_;
  std::optional<RaceScreenState> race_;  // while in a room
  // What the command line asked of the connection (each request acts once per run).
  bool cli_room_created_ = false;
  bool auto_readied_ = false;
  std::optional<SpectateRequest> spectate_;
};

}  // namespace sr::client
