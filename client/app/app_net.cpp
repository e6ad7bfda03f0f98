// Multiplayer in the app: which net screen is up, keys into our race, the race's boards and banners, the results
// table, and our own game kept as a local replay.
#include "client/app/app.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <fstream>

#include "client/game/results.h"
#include "client/settings/settings_io.h"
#include "client/ui/hud.h"

namespace sr::client {
const net::RaceView* App::shown_race() const {
  const auto* race = net_.session().race();
  if (!race || net_.session().state() != net::Session::State::kRoom) return nullptr;
  return race->race_id() == dismissed_race_ ? nullptr : race;
}

void App::start_net_from_cli() {
  if (options_.host_port) {
    if (auto error = net_.host(*options_.host_port, paths_.data_dir / "hosted"); !error.empty()) {
      net_.say(error);
      return;
    }
    if (options_.port_file) {
      std::ofstream(*options_.port_file) << net_.hosted_port() << "\n";
    }
    std::printf("hosting on port %u\n", net_.hosted_port());
    std::fflush(stdout);
    if (auto error = net_.connect("127.0.0.1", net_.hosted_port(), settings_.player_name); !error.empty()) {
      net_.say(error);
    }
  } else if (options_.connect) {
    connect_to(*options_.connect);
  }
  screen_ = Screen::kNet;
}

void App::connect_to(const std::string& address) {
  auto a = parse_address(address);
  if (!a) {
    net_.say("\"" + address + "\" is not an address (host:port)");
    return;
  }
  if (auto error = net_.connect(a->first, a->second, settings_.player_name); !error.empty()) net_.say(error);
}

void App::net_poll(double /*now_s*/) {
  if (net_.session().state() == net::Session::State::kIdle) return;
  const auto state_before = net_.session().state();
  for (const auto& m : net_.poll()) {
    if (std::holds_alternative<protocol::Welcome>(m)) {
      (void)net_.session().set_handling(to_engine(settings_.handling));
      if (options_.create_room && !cli_room_created_) {
        cli_room_created_ = true;
        RoomForm form;
        form.mode = *options_.create_room == "ultra" ? 1 : 0;
        if (options_.lines) form.lines = *options_.lines;
        if (options_.seconds) form.seconds = *options_.seconds;
        std::snprintf(form.name, sizeof form.name, "%s", options_.room_name.c_str());
        (void)net_.session().create_room(form.to_settings());
      }
    } else if (std::holds_alternative<protocol::RoomJoined>(m) || std::holds_alternative<protocol::RoomUpdate>(m)) {
      auto_ready();
    } else if (const auto* c = std::get_if<protocol::CountdownStart>(&m)) {
      race_buttons_ = 0;
      last_press_us_ = 0;
      started_unix_ms_ =
          std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
              .count();
      held_.release_all();
      ImGui::SetWindowFocus(nullptr);
      spdlog::info("race {} countdown", c->race_id);
    } else if (const auto* list = std::get_if<protocol::GameList>(&m)) {
      server_games_ = *list;
    } else if (const auto* r = std::get_if<protocol::RaceResults>(&m)) {
      spdlog::info("race results: race {}, {} racers", r->race_id, r->racers.size());
      results_shown_s_ = Window::now_s();
      save_own_race();
    }
  }
  // A lost connection mid-race: our own game so far is kept.
  if (state_before != net::Session::State::kClosed && net_.session().state() == net::Session::State::kClosed) {
    save_own_race();
    if (options_.exit_after_race) done_ = true;
  }
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
  const auto* race = net_.session().race();
  if (!race || !race->racing() || ev.action == GLFW_REPEAT) return;
  held_.set_key(ev.key, ev.action == GLFW_PRESS);
  const engine::Buttons buttons = held_.buttons(settings_.bindings);
  const auto now_us = net_.session().race_time_us();
  if (!now_us) return;
  // The key's own moment, on the 1 ms grid, never before an earlier press.
  TimeUs t = *now_us - static_cast<TimeUs>((Window::now_s() - ev.time_s) * 1e6);
  t = t / 1000 * 1000;
  if (t < 0) {  // during the countdown: held at the start
    race_buttons_ = buttons;
    return;
  }
  if (race->mine()->game.over()) return;
  t = std::max(t, last_press_us_);
  last_press_us_ = t;
  race_buttons_ = buttons;
  net_.session().race_press(t, buttons);
}

void App::tick_race() {
  const auto* race = net_.session().race();
  if (screen_ != Screen::kNet || !race || !race->racing()) return;
  const auto now_us = net_.session().race_time_us();
  if (!now_us || *now_us < 0) return;
  if (race->mine()->stream.log().empty() && race_buttons_ != 0 && last_press_us_ == 0) {
    net_.session().race_press(0, race_buttons_);  // held through the countdown
  }
  net_.session().race_advance(*now_us / 1000 * 1000);
  if (race->mine()->game.over()) save_own_race();
}

void App::save_own_race() {
  const auto* race = net_.session().race();
  if (!race || !race->racing() || saved_race_ == race->race_id()) return;
  const auto& mine = *race->mine();
  if (mine.stream.log().empty()) return;
  saved_race_ = race->race_id();
  SoloRecord r;
  r.config = mine.game.config();
  r.seed = race->seed();
  for (const auto& c : mine.stream.log()) r.inputs.push_back({c.time_us, c.buttons});
  r.stats = mine.game.stats();
  r.finished = mine.game.state().finished;
  r.abandoned = !mine.game.over();
  r.top_out = mine.game.state().top_out;
  r.final_state_hash = mine.game.state_hash();
  r.player_name = settings_.player_name;
  r.started_unix_ms = started_unix_ms_;
  const SaveOutcome saved = replays_.save(r);
  own_saved_ = saved.error.empty() ? "Your game is saved: " + saved.path.string() : "Not saved: " + saved.error;
  spdlog::info("{}", own_saved_);
}

void App::net_ui(double now_s, const MenuNav& nav) {
  auto& session = net_.session();
  switch (session.state()) {
    case net::Session::State::kIdle:
    case net::Session::State::kClosed:
    case net::Session::State::kConnecting: {
      bool changed = false;
      const ServerListAction a = server_list_.draw(settings_, changed, net_.messages(), nav);
      if (changed) leave_settings_quietly();
      if (session.state() == net::Session::State::kConnecting) {
        ImGui::SetNextWindowPos(ImVec2(20, 20));
        ImGui::Begin("connecting", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoDecoration);
        ImGui::TextUnformatted("Connecting...");
        ImGui::End();
      }
      if (a.kind == ServerListAction::kBack) {
        net_.disconnect();
        net_.stop_hosting();
        screen_ = Screen::kMain;
      } else if (a.kind == ServerListAction::kConnect) {
        connect_to(a.address);
      } else if (a.kind == ServerListAction::kHost) {
        if (auto error = net_.host(a.port, paths_.data_dir / "hosted"); !error.empty()) {
          net_.say(error);
        } else if (auto e2 = net_.connect("127.0.0.1", net_.hosted_port(), settings_.player_name); !e2.empty()) {
          net_.say(e2);
        } else {
          net_.say("hosting on port " + std::to_string(net_.hosted_port()));
        }
      }
      break;
    }
    case net::Session::State::kLobby:
      if (lobby_screen_.draw(session, net_.messages(), nav, now_s) == LobbyAction::kDisconnect) net_.disconnect();
      break;
    case net::Session::State::kRoom:
      if (shown_race()) {
        race_ui(now_s);
      } else {
        room_screen_.draw(session, net_.messages(), nav);
      }
      break;
  }
}

}  // namespace sr::client
