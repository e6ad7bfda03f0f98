// Multiplayer: which net screen is up, the command line's room (create, spectate, auto-ready), keys and pads into our
// race, the lost-connection notice, and the race screen: our board large, everyone else's beside it (up to 15, scaled
// to fit), names, live numbers and places, the countdown, end-of-game banners, and the results table with "rematch".
// Our own game of each race is kept by NetPlay.
#include "client/app/net_view.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <chrono>
#include <cstdio>
#include <fstream>

#include "client/app/app.h"
#include "client/app/browse_view.h"
#include "client/app/ladder_view.h"
#include "client/app/replay_views.h"
#include "client/input/game_clock.h"
#include "client/lobby/race_results.h"
#include "client/solo/results.h"
#include "client/ui/hud.h"

namespace sr::client {

std::string NetView::name() const {
  switch (app_.net().session().state()) {
    case net::Session::State::kLobby: return "lobby";
    case net::Session::State::kRoom:
    case net::Session::State::kReconnecting: {
      const auto* race = shown_race();
      if (race == nullptr) return "room";
      const auto& results = app_.net().session().results();
      return results && results->race_id == race->race_id() ? "race results" : "race";
    }
    default: return "multiplayer menu";
  }
}

void NetView::key(const KeyEvent& ev) {
  // In a race only a text field being typed in (the chat) keeps keys from the game: the menus' keyboard navigation
  // never does (releases always go through so the held state stays true).
  if (shown_race() && (!ImGui::GetIO().WantTextInput || ev.action == GLFW_RELEASE)) race_key(ev);
}

void NetView::pad(const PadChange& c, double when_s) {
  if (!shown_race()) return;  // our race (spectators' pads only navigate)
  // Start asks whether to leave the race; while asked, the d-pad, A and B answer.
  if (c.down && racing_now() && (c.input == GLFW_GAMEPAD_BUTTON_START || race_->race.leave_asked)) {
    const int key = c.input == GLFW_GAMEPAD_BUTTON_A                                           ? GLFW_KEY_ENTER
                    : c.input == GLFW_GAMEPAD_BUTTON_DPAD_UP                                   ? GLFW_KEY_UP
                    : c.input == GLFW_GAMEPAD_BUTTON_DPAD_DOWN                                 ? GLFW_KEY_DOWN
                    : c.input == GLFW_GAMEPAD_BUTTON_B || c.input == GLFW_GAMEPAD_BUTTON_START ? GLFW_KEY_ESCAPE
                                                                                               : -1;
    if (key >= 0) leave_race_key(key, when_s);
    return;
  }
  app_.held().set_pad(c.input, c.down);
  race_buttons_changed(when_s);
}

void NetView::tick(double /*now_s*/) {
  tick_race();
  race_sounds();
  poll_record_place();
}

bool NetView::holds_navigation(double now_s) const { return racing_now() || results_fresh(now_s); }

std::optional<double> NetView::wake_at(double now_s) const {
  // The race results' buttons appear after a grace period (results_fresh()).
  if (race_ && results_fresh(now_s)) return race_->results_shown_s + kResultsKeyGraceS;
  // A records hub's answer on its way: looked for every 50 ms (it is a line under the results).
  if (race_ && race_->race.record_place_get) return now_s + 0.05;
  return std::nullopt;
}

void NetView::render(const BoardLook& look, float w, float h, double now_s) {
  layout_race(w, h);
  render_race(look, now_s);
}

const std::vector<BoardLayout>& NetView::layouts() const { return race_ ? race_->layouts : ScreenView::layouts(); }

Activity NetView::activity() const {
  // A race on screen (played or watched) moves until its results are shown.
  const auto* race = shown_race();
  const auto& results = app_.net().session().results();
  return race != nullptr && !(results && results->race_id == race->race_id()) ? Activity::kAnimating : Activity::kIdle;
}

void NetView::net_message(const protocol::Message& m, double now_s) {
  NetPlay& net = app_.net();
  const AppOptions& options = app_.options();
  if (std::holds_alternative<protocol::Welcome>(m)) {
    (void)net.session().set_handling(to_engine(app_.settings().handling));
    if (!net.hosting() || net.address() != "127.0.0.1:" + std::to_string(net.hosted_port())) {
      note_recent_server(app_.settings(), net.address());  // the browser's "recent" (our own hosted server is not)
      app_.apply_settings();
    }
    if (options.room && !cli_room_created_) {
      cli_room_created_ = true;
      if (auto s = options.room->to_settings(); s.ok()) {
        (void)net.session().create_room(s.value());
      } else {
        net.say("cannot create the room: " + s.error());  // checked by the parser already
      }
    }
    if (options.spectate && !spectate_) spectate_ = SpectateRequest{now_s + 15.0, 0, false};
  } else if (std::holds_alternative<protocol::RoomList>(m)) {
    spectate_from_list();
  } else if (std::holds_alternative<protocol::RoomLeft>(m)) {
    race_.reset();
    (void)net.session().list_rooms();  // the lobby shows rooms as they are now (ours may have closed)
  } else if (std::holds_alternative<protocol::RoomJoined>(m)) {
    race_.emplace();  // a new room: nothing of the last one's races
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
  } else if (const auto* r = std::get_if<protocol::RaceResults>(&m)) {
    spdlog::info("race results: race {}, {} racers", r->race_id, r->racers.size());
    if (race_) race_->results_shown_s = Window::now_s();
    ask_record_place(*r);
  }
}

void NetView::net_polled(double now_s) {
  NetPlay& net = app_.net();
  // --spectate: ask for the room list until the room is there (the bots may still be creating it).
  if (spectate_ && !spectate_->done && net.connected()) {
    if (now_s > spectate_->until_s) {
      net.say("no public room named \"" + *app_.options().spectate + "\" on this server");
      spectate_->done = true;  // give up
    } else if (now_s >= spectate_->next_list_s) {
      (void)net.session().list_rooms();
      spectate_->next_list_s = now_s + 0.5;
    }
  }
  // The room's screen state is there exactly while we are in a room (RoomJoined above makes a fresh one per room).
  if (!net.session().in_room()) {
    race_.reset();
  } else if (!race_) {
    race_.emplace();
  }
}

void NetView::connection_closed() {
  race_.reset();
  server_list_.focus_connect();  // Enter tries again
}

const net::RaceView* NetView::shown_race() const {
  const auto* race = app_.net().session().race();
  if (!race || !app_.net().session().in_room() || !race_) return nullptr;
  return race->race_id() == race_->dismissed_race ? nullptr : race;
}

bool NetView::racing_now() const {
  const auto* race = shown_race();
  return app_.screen() == Screen::kNet && race != nullptr && race->racing() && !race->mine()->game().over() &&
         !app_.net().session().results();
}

void NetView::start_from_cli() {
  if (app_.options().host_port) {
    if (auto hosted = app_.net().host(*app_.options().host_port, app_.paths().data_dir / "hosted"); !hosted) {
      app_.net().say(hosted.error());
      app_.show(Screen::kNet);
      return;
    }
    if (app_.options().port_file) {
      std::ofstream(*app_.options().port_file) << app_.net().hosted_port() << "\n";
    }
    std::printf("hosting on port %u\n", app_.net().hosted_port());
    std::fflush(stdout);
    if (auto connected = app_.net().connect("127.0.0.1", app_.net().hosted_port(), app_.settings().player_name);
        !connected) {
      app_.net().say(connected.error());
    }
  } else if (app_.options().connect) {
    connect_to(*app_.options().connect);
  }
  app_.show(Screen::kNet);
}

void NetView::join(const std::string& address) {
  connect_to(address);
  app_.show(Screen::kNet);
}

void NetView::connect_to(const std::string& address) {
  server_list_.set_address(address);  // to connect again from the menu if the connection ends
  auto a = parse_address(address);
  if (!a) {
    app_.net().say("\"" + address + "\" is not an address (host:port)");
    return;
  }
  if (auto connected = app_.net().connect(a->first, a->second, app_.settings().player_name); !connected) {
    app_.net().say(connected.error());
  }
}

void NetView::spectate_from_list() {
  if (!app_.options().spectate || !spectate_ || spectate_->done) return;
  for (const auto& r : app_.net().session().room_list().rooms) {
    if (r.name != *app_.options().spectate) continue;
    spectate_->done = true;
    spdlog::info("watching room {} '{}' ({})", r.room_id, r.name,
                 app_.net().session().state() == net::Session::State::kLobby ? "joining" : "already in a room");
    (void)app_.net().session().join_room(r.room_id, protocol::Role::kSpectator);
    return;
  }
}

void NetView::race_started() {
  if (!race_) race_.emplace();  // not reached: the room came first
  race_->race = {};
  app_.held().release_all();
  ImGui::SetWindowFocus(nullptr);  // no menu keeps the keyboard while racing
}

void NetView::ask_record_place(const protocol::RaceResults& results) {
  if (!race_) return;
  RaceScreenState::Race& r = race_->race;
  r.record_place.reset();
  r.record_place_get.reset();  // an answer still on its way is dropped (never waited for)
  const auto& hubs = app_.settings().directories;
  const net::RaceView* race = app_.net().session().race();
  if (hubs.empty() || race == nullptr || race->race_id() != results.race_id) return;
  const std::uint32_t me = app_.net().session().player_id();
  const auto own = std::find_if(results.racers.begin(), results.racers.end(),
                                [&](const protocol::RacerResult& racer) { return racer.player_id == me; });
  if (own == results.racers.end()) return;  // watched, not raced
  r.record_place = RecordPlaceAsk::make(hubs.front(), race->config(), *own);
  if (!r.record_place) return;
  spdlog::info("records: asking {}", r.record_place->url());
  HttpGetLimits limits;
  limits.timeout = std::chrono::milliseconds(5000);
  limits.max_body_bytes = 64u << 10;
  r.record_place_get.emplace(r.record_place->url(), limits);
}

void NetView::poll_record_place() {
  if (!race_ || !race_->race.record_place_get || !race_->race.record_place_get->ready()) return;
  RaceScreenState::Race& r = race_->race;
  r.record_place->answered(r.record_place_get->take());
  r.record_place_get.reset();
  spdlog::info("records: {}", r.record_place->line());
}

// --auto-ready: ready once someone else races in the room too, so the race does not start alone.
void NetView::auto_ready() {
  const auto& room = app_.net().session().room();
  if (!app_.options().auto_ready || !room || room->phase != protocol::RoomPhase::kWaiting) return;
  int racers = 0;
  bool me_ready = true;
  for (const auto& m : room->members) {
    if (m.role != protocol::Role::kRacer) continue;
    ++racers;
    if (m.player_id == app_.net().session().player_id()) me_ready = m.ready;
  }
  if (racers >= 2 && !me_ready && !auto_readied_) {
    auto_readied_ = true;
    (void)app_.net().session().set_ready(true);
  }
}

void NetView::race_key(const KeyEvent& ev) {
  if (ev.action == GLFW_REPEAT) return;
  if (ev.action == GLFW_PRESS && racing_now() && (ev.key == GLFW_KEY_ESCAPE || race_->race.leave_asked)) {
    leave_race_key(ev.key, ev.time_s);  // racing_now(): there is a race screen
    return;
  }
  app_.held().set_key(ev.key, ev.action == GLFW_PRESS);
  race_buttons_changed(ev.time_s);
}

// Esc while racing asks whether to leave (a race cannot pause: our game goes on, with no button held, while the
// question is up). Up/Down choose, Enter confirms, Esc again goes back to the race.
void NetView::leave_race_key(int key, double when_s) {
  RaceScreenState::Race& r = race_->race;
  if (!r.leave_asked) {
    r.leave_asked = true;
    r.leave_choice = 0;
    app_.held().release_all();  // nothing stays pressed in the game while the question is up
    race_buttons_changed(when_s);
    app_.suppress_nav();
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
  app_.suppress_nav();
}

void NetView::leave_race(int choice) {
  if (race_) race_->race.leave_asked = false;
  switch (choice) {
    case kLeaveRoom:
      spdlog::info("left the race (forfeited): back to the {}",
                   app_.view<LadderView>(Screen::kLadder).playing_game() ? "contest ladder" : "lobby");
      (void)app_.net().session().leave_room();  // our game so far is saved as forfeited (NetPlay, on RoomLeft)
      break;
    case kLeaveServer:
      spdlog::info("left the race (forfeited) and the server");
      app_.net().disconnect();
      break;
    default: break;  // keep racing
  }
}

// The held buttons changed at wall time `when_s` (a key's callback stamp, or a pad poll): at the race time of that
// moment, stamped on the 1 ms grid (race_event_us, client/input/game_clock.h), never before an earlier press.
void NetView::race_buttons_changed(double when_s) {
  const auto* race = app_.net().session().race();
  if (!race || !race->racing() || !race_) return;
  RaceScreenState::Race& ours = race_->race;
  const engine::Buttons buttons = app_.held().buttons(app_.settings().bindings);
  const auto now_us = app_.net().session().race_time_us();
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
  app_.net().race_press(t, buttons);
  sound_own_race(calls, before);
}

void NetView::tick_race() {
  const auto* race = app_.net().session().race();
  if (!race || !race->racing() || !race_) return;  // tick() runs while this screen is shown
  const auto now_us = app_.net().session().race_time_us();
  if (!now_us || *now_us < 0) return;
  const RaceScreenState::Race& ours = race_->race;
  if (race->mine()->run.log().empty() && ours.buttons != 0 && ours.last_press_us == 0) {
    const std::uint64_t calls = race->own_calls();
    const auto before = race->mine()->game().active();
    app_.net().race_press(0, ours.buttons);  // held through the countdown
    sound_own_race(calls, before);
  }
  const std::uint64_t calls = race->own_calls();
  const auto before = race->mine()->game().active();
  app_.net().race_advance(*now_us / 1000 * 1000);
  sound_own_race(calls, before);
}

void NetView::sound_own_race(std::uint64_t calls, const std::optional<engine::ActivePiece>& before) {
  const auto* race = app_.net().session().race();
  if (!race || !race->racing() || race->own_calls() == calls) return;
  std::vector<audio::Cue> cues;
  audio::append_cues(before, race->own_events(), race->mine()->game().active(), cues);
  app_.sound().play(cues);
}

void NetView::race_sounds() {
  const auto* race = app_.net().session().race();
  if (!race || !race_) return;
  RaceScreenState::Race& ours = race_->race;
  const auto now_us = app_.net().session().race_time_us();
  if (race->racing() && now_us) {
    if (const auto beep = ours.beeps.at(-static_cast<double>(*now_us) / 1e6)) app_.sound().play(*beep);
  }
  for (const net::RacerBoard& b : race->boards()) {
    if (&b == race->mine() || b.status != protocol::RacerStatus::kFinished) continue;
    if (std::find(ours.finished_heard.begin(), ours.finished_heard.end(), b.entrant.player_id) !=
        ours.finished_heard.end()) {
      continue;
    }
    ours.finished_heard.push_back(b.entrant.player_id);
    if (ours.finishes_seen) app_.sound().play(audio::Cue::kRacerFinished);  // not those who finished before we came
  }
  ours.finishes_seen = true;
}

// Said in words when the connection ends without the player asking; OK (Enter, Esc, pad A or B) closes it. True
// while it is up (the screen beneath gets no keys).
bool NetView::lost_connection_modal(const MenuNav& nav) {
  const auto& lost = app_.net().lost();
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
    default_focus();
    if (ImGui::Button("OK") || nav.accept || nav.back) {
      spdlog::info("lost-connection notice closed");
      app_.net().acknowledge_lost();
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  }
  return true;
}

void NetView::ui(double now_s, const MenuNav& frame_nav) {
  auto& session = app_.net().session();
  const MenuNav none;
  const bool notice =
      app_.net().lost().has_value();  // drawn over the screen, after it; the screen gets no keys meanwhile
  const MenuNav& nav = notice ? none : frame_nav;
  switch (session.state()) {
    case net::Session::State::kIdle:
    case net::Session::State::kClosed:
    case net::Session::State::kConnecting: {
      bool changed = false;
      // While connecting the list takes no keys: Esc (pad B) or the Cancel button gives up the attempt.
      const bool connecting = session.state() == net::Session::State::kConnecting;
      const ServerListAction a =
          server_list_.draw(app_.settings(), changed, app_.net().messages(), connecting ? none : nav);
      if (changed) app_.apply_settings();
      if (connecting) {
        begin_overlay("Connecting", 0.5f, 1.0f);
        ImGui::Text("Connecting to %s ...", app_.net().address().c_str());
        ImGui::TextDisabled("(gives up after %u s without an answer)", net::Connection::kTimeoutMs / 1000);
        if (ImGui::Button("Cancel (Esc)") || (nav.back && !ImGui::GetIO().WantTextInput)) {
          app_.net().disconnect();
          app_.net().say("connecting cancelled");
          spdlog::info("connecting cancelled");
          server_list_.focus_connect();
        }
        ImGui::End();
      }
      if (a.kind == ServerListAction::kBack) {
        app_.net().disconnect();
        app_.net().stop_hosting();
        app_.show(Screen::kMain);
      } else if (a.kind == ServerListAction::kConnect) {
        connect_to(a.address);
      } else if (a.kind == ServerListAction::kBrowse) {
        app_.view<BrowseView>(Screen::kBrowse).open();
      } else if (a.kind == ServerListAction::kHost) {
        HostChoice choice;
        choice.lan = app_.settings().host_lan;
        if (app_.settings().host_public) choice.directories = app_.settings().directories;
        if (app_.settings().host_public && choice.directories.empty()) {
          app_.net().say("public hosting lists the server on your directories: add one in Browse servers first");
        }
        if (auto hosted = app_.net().host(a.port, app_.paths().data_dir / "hosted", choice); !hosted) {
          app_.net().say(hosted.error());
        } else if (auto connected =
                       app_.net().connect("127.0.0.1", app_.net().hosted_port(), app_.settings().player_name);
                   !connected) {
          app_.net().say(connected.error());
        } else {
          app_.net().say("hosting on port " + std::to_string(app_.net().hosted_port()));
        }
      }
      break;
    }
    case net::Session::State::kLobby:
      switch (lobby_.draw(session, app_.net().messages(), nav, now_s)) {
        case LobbyAction::kDisconnect: app_.net().disconnect(); break;
        case LobbyAction::kReplays: app_.open_replay_browser(); break;
        case LobbyAction::kLadder: app_.view<LadderView>(Screen::kLadder).open(); break;
        case LobbyAction::kNone: break;
      }
      break;
    case net::Session::State::kRoom:
    case net::Session::State::kReconnecting:
      if (shown_race()) {
        race_ui(now_s, nav);
      } else {
        room_.draw(session, app_.net().messages(), nav);
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
  const double results_s = race_ ? race_->results_shown_s : 0;
  if (app_.options().exit_after_race && results_s > 0 && now_s - results_s > 1.0) {
    if (app_.options().screenshot && !race_->exit_screenshot_taken) {
      app_.request_screenshot();
      race_->exit_screenshot_taken = true;
    } else if (now_s - results_s > 1.5) {
      app_.quit();
    }
  }
}

namespace {

// The banner over a board whose game ended ("" while it races).
const char* status_banner(protocol::RacerStatus s) {
  switch (s) {
    case protocol::RacerStatus::kFinished: return "FINISHED";
    case protocol::RacerStatus::kToppedOut: return "TOPPED OUT";
    case protocol::RacerStatus::kDisconnected: return "LEFT";
    case protocol::RacerStatus::kRemoved: return "REMOVED";
    case protocol::RacerStatus::kUnfinished: return "UNFINISHED";
    case protocol::RacerStatus::kRacing: return "";
  }
  return "";
}

}  // namespace

namespace {

// The race's chat panel: bottom right, a few lines and the input line.
struct ChatRect {
  float x, y, w, h;
};
ChatRect chat_rect(float w, float h, float margin) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float cw = std::min(w * 0.3f, ImGui::GetFontSize() * 26.0f);
  const float ch = ImGui::GetTextLineHeightWithSpacing() * 5 + ImGui::GetFrameHeightWithSpacing() +
                   style.WindowPadding.y * 2 + style.ItemSpacing.y;
  return {w - margin - cw, h - margin - ch, cw, ch};
}

}  // namespace

// Board i of the race (in RaceView order) gets layouts[order[i]]: ours first and large, then the others. The
// others' grid leaves the chat panel's corner free.
void NetView::layout_race(float w, float h) {
  if (!race_) return;
  std::vector<BoardLayout>& layouts = race_->layouts;
  std::vector<std::size_t>& order = race_->order;
  const std::uint32_t enlarged = race_->race.enlarged;
  layouts.clear();
  order.clear();
  const auto* race = shown_race();
  if (!race) return;
  const float margin = std::min(w, h) * 0.02f;
  // The bottom holds the chat, and the results once they are shown (their height of the last frame): boards stay
  // above both.
  const float results_h = race_->results_h;
  const float grid_h = h - 2 * margin - std::max(chat_rect(w, h, margin).h, results_h) - margin;
  const float full_h = results_h > 0 ? h - 3 * margin - results_h : h - 2 * margin;
  const int n = static_cast<int>(race->boards().size());
  std::vector<BoardLayout> others;
  if (!race->racing() && enlarged != 0 && race->board(enlarged) != nullptr && n > 1) {
    // Spectating with one board chosen: that one at full height, the others smaller beside it (one or two of them
    // would fit as large: they get half the height).
    const float big_w = (w - 2 * margin) * 0.55f;
    layouts.push_back(fit_board(margin, margin, big_w, full_h));
    const float others_h = n - 1 <= 2 ? std::min(grid_h, full_h * 0.55f) : grid_h;
    grid_layouts(others, n - 1, margin + big_w, margin, w - 2 * margin - big_w, others_h);
    layouts.insert(layouts.end(), others.begin(), others.end());
    std::size_t next = 1;
    for (const auto& b : race->boards()) order.push_back(b.entrant.player_id == enlarged ? 0 : next++);
    return;
  }
  if (race->racing()) {
    const float own_w = n > 1 ? (w - 2 * margin) * 0.45f : w - 2 * margin;
    layouts.push_back(fit_board(margin, margin, own_w, full_h));
    if (n > 1) grid_layouts(others, n - 1, margin + own_w, margin, w - 2 * margin - own_w, grid_h);
  } else {
    grid_layouts(others, n, margin, margin, w - 2 * margin, grid_h);
  }
  layouts.insert(layouts.end(), others.begin(), others.end());
  std::size_t next = race->racing() ? 1 : 0;
  for (const auto& b : race->boards()) {
    order.push_back(&b == race->mine() ? 0 : next++);
  }
}

std::vector<std::string> NetView::race_layout_notes() const {
  if (!race_) return {};
  const std::vector<std::size_t>& order = race_->order;
  std::vector<std::string> notes(race_->layouts.size());
  const auto* race = shown_race();
  if (!race) return notes;
  for (std::size_t i = 0; i < race->boards().size() && i < order.size(); ++i) {
    const auto& b = race->boards()[i];
    if (order[i] < notes.size()) {
      notes[order[i]] =
          std::to_string(b.game().now()) + " " + std::to_string(b.game().stats().pieces) + " " + b.entrant.name;
    }
  }
  return notes;
}

void NetView::render_race(const BoardLook& look, double now_s) {
  const auto* race = shown_race();
  if (!race) return;  // also when there is no race_
  const RaceScreenState& rs = *race_;
  for (std::size_t i = 0; i < race->boards().size() && i < rs.order.size(); ++i) {
    BoardLook l = look;
    l.dim = race->boards()[i].status != protocol::RacerStatus::kRacing || race->boards()[i].game().over();
    draw_board(app_.batch(), rs.layouts[rs.order[i]], race->boards()[i].game(), nullptr, l, now_s);
  }
}

// Spectators choose a board without a mouse: Left/Right (pad d-pad) step through the boards and the grid, Esc
// (pad B) goes back to the grid, and from the grid leaves the room.
void NetView::spectator_keys(const net::RaceView& race, const MenuNav& nav) {
  if (race.racing() || ImGui::GetIO().WantTextInput) return;
  const auto& boards = race.boards();
  std::uint32_t& enlarged = race_->race.enlarged;  // shown_race(): there is a race screen
  if (nav.left || nav.right) {
    // Positions 0..n: 0 is the grid, k the k-th board.
    std::size_t at = 0;
    for (std::size_t i = 0; i < boards.size(); ++i) {
      if (boards[i].entrant.player_id == enlarged) at = i + 1;
    }
    const std::size_t count = boards.size() + 1;
    at = nav.right ? (at + 1) % count : (at + count - 1) % count;
    enlarged = at == 0 ? 0 : boards[at - 1].entrant.player_id;
  } else if (nav.back) {
    if (enlarged != 0) {
      enlarged = 0;
    } else {
      (void)app_.net().session().leave_room();
    }
  }
}

// A small chat in the corner: read, and click to type; Enter sends and gives the keys back to the game, Esc gives
// them back without sending. It never takes the keyboard by itself.
void NetView::race_chat() {
  auto& draft = race_->chat;  // only on the race screen: there is one
  const ImGuiIO& io = ImGui::GetIO();
  const float margin = std::min(io.DisplaySize.x, io.DisplaySize.y) * 0.02f;
  const ChatRect r = chat_rect(io.DisplaySize.x, io.DisplaySize.y, margin);
  ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(r.w, r.h), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.55f);
  ImGui::Begin("##race chat", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoNav |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoSavedSettings);
  ImGui::BeginChild("lines", ImVec2(0, -ImGui::GetFrameHeightWithSpacing()), false);
  const auto& log = app_.net().session().chat_log();
  const std::size_t first = log.size() > 20 ? log.size() - 20 : 0;
  for (std::size_t i = first; i < log.size(); ++i) {
    ImGui::TextWrapped("%s: %s", log[i].from_name.c_str(), log[i].text.c_str());
  }
  if (ImGui::GetScrollY() >= ImGui::GetScrollMaxY()) ImGui::SetScrollHereY(1.0f);
  ImGui::EndChild();
  ImGui::SetNextItemWidth(-1);
  const bool sent = ImGui::InputTextWithHint("##say", "chat: click to type, Enter sends", draft, sizeof draft,
                                             ImGuiInputTextFlags_EnterReturnsTrue);
  if (sent) {
    if (draft[0] != 0) (void)app_.net().session().chat(draft);
    draft[0] = 0;
  }
  const bool left_field = sent || (ImGui::IsItemDeactivated() && !ImGui::IsItemActive());
  ImGui::End();
  if (left_field) ImGui::SetWindowFocus(nullptr);  // the keys are the game's again
}

void NetView::race_ui(double now_s, const MenuNav& nav) {
  const auto* race = shown_race();
  const auto& results = app_.net().session().results();
  const bool over = results && results->race_id == race->race_id();
  if (!over) spectator_keys(*race, nav);
  race = shown_race();  // leaving the room ends it
  if (!race) return;
  const ImGuiIO& io = ImGui::GetIO();
  layout_race(io.DisplaySize.x, io.DisplaySize.y);
  RaceScreenState& rs = *race_;  // shown_race(): there is a race screen
  const auto t = app_.net().session().race_time_us();
  const double countdown = t && *t < 0 ? static_cast<double>(-*t) / 1e6 : 0.0;
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  for (std::size_t i = 0; i < race->boards().size() && i < rs.order.size(); ++i) {
    const auto& b = race->boards()[i];
    const BoardLayout& layout = rs.layouts[rs.order[i]];
    std::string name = b.entrant.name;
    if (b.live.place > 0) name += "  #" + std::to_string(b.live.place);
    if (t && race->mine() != &b && b.lagging(*t)) name += "  LAGGING";
    draw_hud(app_.fonts(), HudBoard{&b.game(), nullptr, layout, name, countdown}, now_s);
    // Spectators click a board to enlarge it (again to go back to the grid).
    if (!race->racing() && ImGui::IsMouseClicked(0) && !io.WantCaptureMouse) {
      const ImVec2 m = io.MousePos;
      if (m.x >= layout.x && m.x < layout.x + layout.width() && m.y >= layout.y && m.y < layout.y + layout.height()) {
        rs.race.enlarged = rs.race.enlarged == b.entrant.player_id ? 0 : b.entrant.player_id;
      }
    }
    if (const char* banner = status_banner(b.status); banner[0] != 0) {
      // Sized to the board, with the time under it: the numbers beside the board stay readable.
      std::string text = banner;
      if (b.place > 0 && b.status == protocol::RacerStatus::kFinished) text += " #" + std::to_string(b.place);
      draw_banner(app_.fonts(), layout, text, format_time(b.game().stats().time_us));
    }
  }
  // The spectator's hint: at the bottom of the screen, or once the results are up (they hold the bottom), as the last
  // line of the results window.
  const char* hint = nullptr;
  if (!race->racing() && race->boards().size() > 1) {
    hint = rs.race.enlarged == 0 ? "click a board (or Left/Right) to enlarge it; Esc leaves the room"
                                 : "click it again (or Esc) for every board; Left/Right for the next";
  }
  if (hint != nullptr && !over) {
    const ImVec2 size = ImGui::CalcTextSize(hint);
    dl->AddText(ImVec2(io.DisplaySize.x * 0.5f - size.x * 0.5f, io.DisplaySize.y - size.y - 4),
                IM_COL32(200, 200, 210, 255), hint);
  }
  race_chat();
  if (!racing_now()) rs.race.leave_asked = false;  // our game or the race ended meanwhile
  if (rs.race.leave_asked) leave_race_ui();
  if (over) {
    results_table(*results, now_s, nav, hint);
  } else {
    rs.results_h = 0;
  }
}

void NetView::leave_race_ui() {
  RaceScreenState::Race& r = race_->race;                // asked only on the race screen
  begin_overlay("Leave the race?", 0.4f, 0.95f, false);  // the game keeps the keys
  ImGui::TextUnformatted("A race cannot be paused: your game goes on meanwhile.");
  ImGui::TextDisabled("Leaving forfeits it (your game so far is kept as a replay).");
  static constexpr const char* kChoices[kLeaveChoices] = {"Keep racing (Esc)", "Forfeit and leave the room",
                                                          "Forfeit and leave the server"};
  int chosen = -1;
  for (int i = 0; i < kLeaveChoices; ++i) {
    if (ImGui::Selectable(kChoices[i], r.leave_choice == i)) chosen = i;
  }
  ImGui::TextDisabled("Up/Down choose, Enter confirms");
  ImGui::End();
  if (chosen >= 0) leave_race(chosen);
}

bool NetView::results_fresh(double now_s) const {
  const auto* race = shown_race();
  const auto& results = app_.net().session().results();
  return app_.screen() == Screen::kNet && race != nullptr && results && results->race_id == race->race_id() &&
         now_s - race_->results_shown_s < kResultsKeyGraceS;  // shown_race(): there is a race screen
}

void NetView::results_table(const protocol::RaceResults& results, double now_s, const MenuNav& nav,
                            const char* spectator_hint) {
  const ImGuiIO& io = ImGui::GetIO();
  // Bottom left, beside the chat (bottom right): the boards are laid out above it (layout_race, results_h).
  const float margin = std::min(io.DisplaySize.x, io.DisplaySize.y) * 0.02f;
  const ChatRect chat = chat_rect(io.DisplaySize.x, io.DisplaySize.y, margin);
  const float table_w = chat.x - 2 * margin;
  ImGui::SetNextWindowPos(ImVec2(margin, io.DisplaySize.y - margin), ImGuiCond_Always, ImVec2(0.0f, 1.0f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(table_w, io.DisplaySize.y * 0.5f));
  // Keys still pressed as hard drops when the race ends must not press a button: the buttons come a moment later
  // in a window of their own, which then takes the keyboard and pad focus (nav_inputs() holds ImGui's navigation
  // until then).
  const bool fresh = results_fresh(now_s);
  ImGui::Begin("Results", nullptr,
               ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoNav |
                   ImGuiWindowFlags_NoFocusOnAppearing);
  const engine::GoalKind goal = app_.net().session().race()->config().goal;
  // "unverified": game time the server received late (a stalled connection), played with more real time than game
  // time. Empty for a clean run.
  if (ImGui::BeginTable("results", 8,
                        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
    for (const char* h : {"place", "player", goal == engine::GoalKind::kTime ? "time" : "result", "lines", "pieces",
                          "PPS", "KPP", "unverified"}) {
      ImGui::TableSetupColumn(h);
    }
    ImGui::TableHeadersRow();
    for (const ResultRow& r : result_rows(results, goal)) {
      ImGui::TableNextRow();
      for (const std::string* cell :
           {&r.place, &r.name, &r.outcome, &r.lines, &r.pieces, &r.pps, &r.kpp, &r.unverified}) {
        ImGui::TableNextColumn();
        if (cell == &r.outcome && !r.finished) {
          ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.45f, 1.0f), "%s", cell->c_str());
        } else {
          ImGui::TextUnformatted(cell->c_str());
        }
      }
    }
    ImGui::EndTable();
  }
  if (!app_.net().own_saved().empty() && app_.net().session().race()->racing()) {
    ImGui::TextUnformatted(app_.net().own_saved().c_str());
  }
  if (const auto& not_stored = app_.net().session().replay_not_stored()) {
    ImGui::TextUnformatted(net::describe_not_stored(*not_stored).c_str());
  }
  if (const auto& place = race_->race.record_place; place && place->has_answer()) {
    ImGui::TextUnformatted(place->line().c_str());
  } else if (place) {
    ImGui::TextDisabled("%s", place->line().c_str());
  }
  if (spectator_hint != nullptr) ImGui::TextDisabled("%s", spectator_hint);
  const ImVec2 table_pos = ImGui::GetWindowPos();
  float& results_h = race_->results_h;  // on the race screen: there is one
  results_h = ImGui::GetWindowHeight();
  ImGui::End();
  if (fresh) return;
  ImGui::SetNextWindowPos(table_pos, ImGuiCond_Always, ImVec2(0.0f, 1.0f));  // just above the table
  ImGui::Begin("##results actions", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings);
  results_h += ImGui::GetWindowHeight();
  std::uint32_t& dismissed = race_->dismissed_race;  // on the race screen: there is one
  if (app_.view<LadderView>(Screen::kLadder).playing_game()) {
    // A contest ladder game: its room is the server's, for this one game (LadderView comes back to the ladder).
    if (ImGui::Button("Back to the ladder") || (nav.back && !ImGui::GetIO().WantTextInput)) {
      (void)app_.net().session().leave_room();
    }
  } else {
    if (ImGui::Button("Rematch")) {
      dismissed = results.race_id;
      (void)app_.net().session().set_ready(true);
    }
    ImGui::SameLine();
    if (ImGui::Button("Back to the room") || (nav.back && !ImGui::GetIO().WantTextInput)) {
      dismissed = results.race_id;
    }
  }
  default_focus();  // keyboard and pad start on the harmless choice
  std::string& link_note = race_->race.link_note;
  if (const auto stored = app_.net().session().stored_replay()) {
    ImGui::SameLine();
    if (ImGui::Button("Watch replay") && app_.view<ViewerView>(Screen::kViewer).download(*stored)) {
      dismissed = results.race_id;
    }
    // The game's page on the server's web pages (web/README.md, "A game's web link"): L, or the button.
    ImGui::SameLine();
    const bool typing = ImGui::GetIO().WantTextInput;
    if (ImGui::Button("Copy web link (L)") || (!typing && nav.pressed(GLFW_KEY_L))) {
      link_note = app_.copy_game_link(*stored);
    }
  }
  if (!link_note.empty()) ImGui::TextUnformatted(link_note.c_str());
  ImGui::End();
}

}  // namespace sr::client
