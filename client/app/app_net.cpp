// Multiplayer in the app: which net screen is up, the command line's room (create, spectate, auto-ready), keys and
// pads into our race, and the lost-connection notice. Our own game of each race is kept by NetPlay.
#include "client/app/app.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cstdio>
#include <fstream>

#include "client/input/game_clock.h"
#include "client/settings/settings_io.h"

namespace sr::client {

const net::RaceView* App::shown_race() const {
  const auto* race = net_.session().race();
  if (!race || !net_.session().in_room() || !race_screen_) return nullptr;
  return race->race_id() == race_screen_->dismissed_race ? nullptr : race;
}

bool App::racing_now() const {
  const auto* race = shown_race();
  return screen_ == Screen::kNet && race != nullptr && race->racing() && !race->mine()->game().over() &&
         !net_.session().results();
}

void App::start_net_from_cli() {
  if (options_.host_port) {
    if (auto hosted = net_.host(*options_.host_port, paths_.data_dir / "hosted"); !hosted) {
      net_.say(hosted.error());
      screen_ = Screen::kNet;
      return;
    }
    if (options_.port_file) {
      std::ofstream(*options_.port_file) << net_.hosted_port() << "\n";
    }
    std::printf("hosting on port %u\n", net_.hosted_port());
    std::fflush(stdout);
    if (auto connected = net_.connect("127.0.0.1", net_.hosted_port(), settings_.player_name); !connected) {
      net_.say(connected.error());
    }
  } else if (options_.connect) {
    connect_to(*options_.connect);
  }
  screen_ = Screen::kNet;
}

void App::connect_to(const std::string& address) {
  net_menus_.server_list.set_address(address);  // to connect again from the menu if the connection ends
  auto a = parse_address(address);
  if (!a) {
    net_.say("\"" + address + "\" is not an address (host:port)");
    return;
  }
  if (auto connected = net_.connect(a->first, a->second, settings_.player_name); !connected) {
    net_.say(connected.error());
  }
}

bool App::net_poll(double now_s) {
  if (net_.session().state() == net::Session::State::kIdle) return false;
  const auto state_before = net_.session().state();
  const auto received = net_.poll();
  for (const auto& m : received) {
    ladder_received(m);  // the contest ladder's answers, and the room of a ladder game (app_ladder.cpp)
    if (std::holds_alternative<protocol::Welcome>(m)) {
      (void)net_.session().set_handling(to_engine(settings_.handling));
      if (options_.room && !cli_room_created_) {
        cli_room_created_ = true;
        if (auto s = options_.room->to_settings(); s.ok()) {
          (void)net_.session().create_room(s.value());
        } else {
          net_.say("cannot create the room: " + s.error());  // checked by the parser already
        }
      }
      if (options_.spectate && !spectate_) spectate_ = SpectateRequest{now_s + 15.0, 0, false};
    } else if (std::holds_alternative<protocol::RoomList>(m)) {
      spectate_from_list();
    } else if (std::holds_alternative<protocol::RoomLeft>(m)) {
      race_screen_.reset();
      (void)net_.session().list_rooms();  // the lobby shows rooms as they are now (ours may have closed)
    } else if (std::holds_alternative<protocol::RoomJoined>(m)) {
      race_screen_.emplace();  // a new room: nothing of the last one's races
      auto_ready();
    } else if (std::holds_alternative<protocol::RoomUpdate>(m)) {
      auto_ready();
    } else if (const auto* c = std::get_if<protocol::CountdownStart>(&m)) {
      race_started();
      spdlog::info("race {} countdown", c->race_id);
    } else if (const auto* c = std::get_if<protocol::CatchUpStart>(&m)) {
      race_started();
      spdlog::info("race {}: joined {:.1f} s in, catching up", c->race_id, static_cast<double>(c->elapsed_us) / 1e6);
    } else if (const auto* e = std::get_if<protocol::CatchUpEnd>(&m)) {
      spdlog::info("race {}: caught up, watching live", e->race_id);
    } else if (const auto* u = std::get_if<protocol::ReplayUnavailable>(&m)) {
      // NetPlay has said so among the server's messages already; the browser says it where it was asked.
      if (pending_download_ == u->game_id) {
        pending_download_.reset();
        if (browser_) {
          browser_->problem = "the server cannot send that replay: " + net::describe(u->code) +
                              (u->text.empty() ? "" : " (" + u->text + ")");
        }
      }
    } else if (const auto* list = std::get_if<protocol::GameList>(&m)) {
      if (browser_) {  // asked for by the browser (a list for a browser since closed is not shown)
        browser_->server_games = *list;
        browser_->server_games_shown = true;
      }
    } else if (const auto* r = std::get_if<protocol::RaceResults>(&m)) {
      spdlog::info("race results: race {}, {} racers", r->race_id, r->racers.size());
      if (race_screen_) race_screen_->results_shown_s = Window::now_s();
    }
  }
  // --spectate: ask for the room list until the room is there (the bots may still be creating it).
  if (spectate_ && !spectate_->done && net_.connected()) {
    if (now_s > spectate_->until_s) {
      net_.say("no public room named \"" + *options_.spectate + "\" on this server");
      spectate_->done = true;  // give up
    } else if (now_s >= spectate_->next_list_s) {
      (void)net_.session().list_rooms();
      spectate_->next_list_s = now_s + 0.5;
    }
  }
  // The room's screen state is there exactly while we are in a room (RoomJoined above makes a fresh one per room).
  if (!net_.session().in_room()) {
    race_screen_.reset();
  } else if (!race_screen_) {
    race_screen_.emplace();
  }
  if (state_before != net::Session::State::kClosed && net_.session().state() == net::Session::State::kClosed) {
    held_.release_all();
    pending_download_.reset();
    ladder_.reset();
    if (screen_ == Screen::kLadder) screen_ = Screen::kNet;  // the multiplayer menu says why
    net_menus_.server_list.focus_connect();                  // Enter tries again
    if (net_.lost()) spdlog::warn("connection lost ({}); back on the multiplayer menu", net_.lost()->reason);
    if (options_.exit_after_race) done_ = true;
  }
  return !received.empty() || net_.session().state() != state_before;
}

bool App::net_open() const {
  const auto state = net_.session().state();
  return state != net::Session::State::kIdle && state != net::Session::State::kClosed;
}

void App::spectate_from_list() {
  if (!options_.spectate || !spectate_ || spectate_->done) return;
  for (const auto& r : net_.session().room_list().rooms) {
    if (r.name != *options_.spectate) continue;
    spectate_->done = true;
    spdlog::info("watching room {} '{}' ({})", r.room_id, r.name,
                 net_.session().state() == net::Session::State::kLobby ? "joining" : "already in a room");
    (void)net_.session().join_room(r.room_id, protocol::Role::kSpectator);
    return;
  }
}

void App::race_started() {
  if (!race_screen_) race_screen_.emplace();  // not reached: the room came first
  race_screen_->race = {};
  held_.release_all();
  ImGui::SetWindowFocus(nullptr);  // no menu keeps the keyboard while racing
}

// --auto-ready: ready once someone else races in the room too, so the race does not start alone.
void App::auto_ready() {
  const auto& room = net_.session().room();
  if (!options_.auto_ready || !room || room->phase != protocol::RoomPhase::kWaiting) return;
  int racers = 0;
  bool me_ready = true;
  for (const auto& m : room->members) {
    if (m.role != protocol::Role::kRacer) continue;
    ++racers;
    if (m.player_id == net_.session().player_id()) me_ready = m.ready;
  }
  if (racers >= 2 && !me_ready && !auto_readied_) {
    auto_readied_ = true;
    (void)net_.session().set_ready(true);
  }
}

void App::race_key(const KeyEvent& ev) {
  if (ev.action == GLFW_REPEAT) return;
  if (ev.action == GLFW_PRESS && racing_now() && (ev.key == GLFW_KEY_ESCAPE || race_screen_->race.leave_asked)) {
    leave_race_key(ev.key, ev.time_s);  // racing_now(): there is a race screen
    return;
  }
  held_.set_key(ev.key, ev.action == GLFW_PRESS);
  race_buttons_changed(ev.time_s);
}

// Esc while racing asks whether to leave (a race cannot pause: our game goes on, with no button held, while the
// question is up). Up/Down choose, Enter confirms, Esc again goes back to the race.
void App::leave_race_key(int key, double when_s) {
  RaceScreenState::Race& r = race_screen_->race;
  if (!r.leave_asked) {
    r.leave_asked = true;
    r.leave_choice = 0;
    held_.release_all();  // nothing stays pressed in the game while the question is up
    race_buttons_changed(when_s);
    nav_suppressed_ = true;
    return;
  }
  switch (key) {
    case GLFW_KEY_ESCAPE: r.leave_asked = false; break;
    case GLFW_KEY_UP: r.leave_choice = (r.leave_choice + kLeaveChoices - 1) % kLeaveChoices; break;
    case GLFW_KEY_DOWN: r.leave_choice = (r.leave_choice + 1) % kLeaveChoices; break;
    case GLFW_KEY_ENTER:
    case GLFW_KEY_KP_ENTER: leave_race(r.leave_choice); break;
    default: break;
  }
  nav_suppressed_ = true;
}

void App::leave_race(int choice) {
  if (race_screen_) race_screen_->race.leave_asked = false;
  switch (choice) {
    case kLeaveRoom:
      spdlog::info("left the race (forfeited): back to the {}",
                   ladder_ && ladder_->board.playing() ? "contest ladder" : "lobby");
      (void)net_.session().leave_room();  // our game so far is saved as forfeited (NetPlay, on RoomLeft)
      break;
    case kLeaveServer:
      spdlog::info("left the race (forfeited) and the server");
      net_.disconnect();
      break;
    default: break;  // keep racing
  }
}

// The held buttons changed at wall time `when_s` (a key's callback stamp, or a pad poll): at the race time of that
// moment, stamped on the 1 ms grid (race_event_us, client/input/game_clock.h), never before an earlier press.
void App::race_buttons_changed(double when_s) {
  const auto* race = net_.session().race();
  if (!race || !race->racing() || !race_screen_) return;
  RaceScreenState::Race& ours = race_screen_->race;
  const engine::Buttons buttons = held_.buttons(settings_.bindings);
  const auto now_us = net_.session().race_time_us();
  if (!now_us) return;
  TimeUs t = race_event_us(*now_us, Window::now_s(), when_s);
  if (t < 0) {  // during the countdown: held at the start
    ours.buttons = buttons;
    return;
  }
  if (race->mine()->game().over()) return;
  t = std::max(t, ours.last_press_us);
  ours.last_press_us = t;
  ours.buttons = buttons;
  const std::uint64_t calls = race->own_calls();
  const auto before = race->mine()->game().active();
  net_.race_press(t, buttons);
  sound_own_race(calls, before);
}

void App::tick_race() {
  const auto* race = net_.session().race();
  if (screen_ != Screen::kNet || !race || !race->racing() || !race_screen_) return;
  const auto now_us = net_.session().race_time_us();
  if (!now_us || *now_us < 0) return;
  const RaceScreenState::Race& ours = race_screen_->race;
  if (race->mine()->run.log().empty() && ours.buttons != 0 && ours.last_press_us == 0) {
    const std::uint64_t calls = race->own_calls();
    const auto before = race->mine()->game().active();
    net_.race_press(0, ours.buttons);  // held through the countdown
    sound_own_race(calls, before);
  }
  const std::uint64_t calls = race->own_calls();
  const auto before = race->mine()->game().active();
  net_.race_advance(*now_us / 1000 * 1000);
  sound_own_race(calls, before);
}

void App::sound_own_race(std::uint64_t calls, const std::optional<engine::ActivePiece>& before) {
  const auto* race = net_.session().race();
  if (!race || !race->racing() || race->own_calls() == calls) return;
  std::vector<audio::Cue> cues;
  audio::append_cues(before, race->own_events(), race->mine()->game().active(), cues);
  sound_->play(cues);
}

void App::race_sounds() {
  const auto* race = net_.session().race();
  if (screen_ != Screen::kNet || !race || !race_screen_) return;
  RaceScreenState::Race& ours = race_screen_->race;
  const auto now_us = net_.session().race_time_us();
  if (race->racing() && now_us) {
    if (const auto beep = ours.beeps.at(-static_cast<double>(*now_us) / 1e6)) sound_->play(*beep);
  }
  for (const net::RacerBoard& b : race->boards()) {
    if (&b == race->mine() || b.status != protocol::RacerStatus::kFinished) continue;
    if (std::find(ours.finished_heard.begin(), ours.finished_heard.end(), b.entrant.player_id) !=
        ours.finished_heard.end()) {
      continue;
    }
    ours.finished_heard.push_back(b.entrant.player_id);
    if (ours.finishes_seen) sound_->play(audio::Cue::kRacerFinished);  // not those who finished before we came
  }
  ours.finishes_seen = true;
}

// Said in words when the connection ends without the player asking; OK (Enter, Esc, pad A or B) closes it. True
// while it is up (the screen beneath gets no keys).
bool App::lost_connection_modal(const MenuNav& nav) {
  const auto& lost = net_.lost();
  if (!lost) return false;
  constexpr const char* kTitle = "Connection lost";
  if (!ImGui::IsPopupOpen(kTitle)) ImGui::OpenPopup(kTitle);
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(io.DisplaySize.x * 0.4f, 0), ImVec2(io.DisplaySize.x * 0.8f, FLT_MAX));
  if (ImGui::BeginPopupModal(kTitle, nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove)) {
    std::string reason = lost->reason;  // "the server is shutting down" -> "The server is shutting down."
    if (!reason.empty()) reason[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(reason[0])));
    ImGui::TextWrapped("%s.", reason.c_str());
    if (!lost->own_game.empty()) ImGui::TextWrapped("%s", lost->own_game.c_str());
    ImGui::TextWrapped("You are back on the multiplayer menu.");
    ImGui::SetItemDefaultFocus();
    if (ImGui::Button("OK") || nav.accept || nav.back) {
      spdlog::info("lost-connection notice closed");
      net_.acknowledge_lost();
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  }
  return true;
}

void App::net_ui(double now_s, const MenuNav& frame_nav) {
  auto& session = net_.session();
  const MenuNav none;
  const bool notice = net_.lost().has_value();  // drawn over the screen, after it; the screen gets no keys meanwhile
  const MenuNav& nav = notice ? none : frame_nav;
  switch (session.state()) {
    case net::Session::State::kIdle:
    case net::Session::State::kClosed:
    case net::Session::State::kConnecting: {
      bool changed = false;
      // While connecting the list takes no keys: Esc (pad B) or the Cancel button gives up the attempt.
      const bool connecting = session.state() == net::Session::State::kConnecting;
      const ServerListAction a =
          net_menus_.server_list.draw(settings_, changed, net_.messages(), connecting ? none : nav);
      if (changed) apply_settings();
      if (connecting) {
        begin_overlay("Connecting", 0.5f, 1.0f);
        ImGui::Text("Connecting to %s ...", net_.address().c_str());
        ImGui::TextDisabled("(gives up after %u s without an answer)", net::Connection::kTimeoutMs / 1000);
        if (ImGui::Button("Cancel (Esc)") || (nav.back && !ImGui::GetIO().WantTextInput)) {
          net_.disconnect();
          net_.say("connecting cancelled");
          spdlog::info("connecting cancelled");
          net_menus_.server_list.focus_connect();
        }
        ImGui::End();
      }
      if (a.kind == ServerListAction::kBack) {
        net_.disconnect();
        net_.stop_hosting();
        screen_ = Screen::kMain;
      } else if (a.kind == ServerListAction::kConnect) {
        connect_to(a.address);
      } else if (a.kind == ServerListAction::kHost) {
        if (auto hosted = net_.host(a.port, paths_.data_dir / "hosted"); !hosted) {
          net_.say(hosted.error());
        } else if (auto connected = net_.connect("127.0.0.1", net_.hosted_port(), settings_.player_name); !connected) {
          net_.say(connected.error());
        } else {
          net_.say("hosting on port " + std::to_string(net_.hosted_port()));
        }
      }
      break;
    }
    case net::Session::State::kLobby:
      switch (net_menus_.lobby.draw(session, net_.messages(), nav, now_s)) {
        case LobbyAction::kDisconnect: net_.disconnect(); break;
        case LobbyAction::kReplays: open_replay_browser(); break;
        case LobbyAction::kLadder: open_ladder(); break;
        case LobbyAction::kNone: break;
      }
      break;
    case net::Session::State::kRoom:
    case net::Session::State::kReconnecting:
      if (shown_race()) {
        race_ui(now_s, nav);
      } else {
        net_menus_.room.draw(session, net_.messages(), nav);
      }
      if (const auto away = session.reconnecting_for_us()) {
        // Our game goes on; the session takes our seat back by itself (or gives up after a minute).
        ImGui::SetNextWindowPos(ImVec2(20, 20));
        ImGui::Begin("reconnecting", nullptr,
                     ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoNav |
                         ImGuiWindowFlags_NoFocusOnAppearing);
        ImGui::Text("Connection lost: reconnecting (%d s). Keep playing: your game is kept.",
                    static_cast<int>(*away / 1'000'000));
        ImGui::End();
      }
      break;
  }
  // After the screen: ImGui 1.86 asserts when a window first appears while a modal is open and is begun after it.
  if (notice) (void)lost_connection_modal(frame_nav);
  // --exit-after-race: a moment after the first results (with the screenshot of them, when asked), quit.
  const double results_s = race_screen_ ? race_screen_->results_shown_s : 0;
  if (options_.exit_after_race && results_s > 0 && now_s - results_s > 1.0) {
    if (options_.screenshot && !race_screen_->exit_screenshot_taken) {
      screenshot_requested_ = true;
      race_screen_->exit_screenshot_taken = true;
    } else if (now_s - results_s > 1.5) {
      done_ = true;
    }
  }
}

}  // namespace sr::client
