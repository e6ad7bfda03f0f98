#include "client/app/app.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>  // NavId / NavDisableHighlight: see nav_inputs()
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <ctime>

#include "client/solo/modes.h"
#include "client/render/screenshot.h"
#include "client/settings/settings_io.h"
#include "client/ui/hud.h"

namespace sr::client {

App::App(AppOptions options, Window& window, Fonts fonts)
    : options_(std::move(options)),
      window_(window),
      fonts_(fonts),
      paths_(resolve_paths(options_.config_dir, options_.data_dir)),
      replays_(paths_.replay_dir()),
      net_(replays_) {}

App::~App() = default;

std::string App::init() {
  auto load = load_settings(paths_.settings_file());
  settings_ = load.settings;
  settings_problem_ = load.problem;
  if (!settings_problem_.empty()) spdlog::warn("{}", settings_problem_);
  if (auto err = batch_.init(); !err.empty()) return err;
  spdlog::info("settings: {}; replays: {}", paths_.settings_file().string(), paths_.replay_dir().string());
  if (options_.bench_frames > 0) {
    screen_ = Screen::kBench;
    window_.set_vsync(false);
    bench_.start(options_.bench_frames);
    return {};
  }
  if (options_.replay_file) {
    open_viewer_file(*options_.replay_file);
    if (screen_ != Screen::kViewer) return browser_problem_;
    return {};
  }
  if (options_.host_port || options_.connect) {
    start_net_from_cli();
    return {};
  }
  if (options_.mode) {
    std::string error;
    auto config = config_for_cli(*options_.mode, options_.limit, error);
    if (!config) return error;
    back_to_ = Screen::kMain;  // started from the command line: leaving the game goes to the main menu
    start_game(GamePick{*config, options_.bot_pps}, Window::now_s());
  }
  return {};
}

MenuNav App::read_nav() {
  MenuNav nav;
  // Menus take one key per frame, so several presses that arrived together (a fast typist, a slow frame) each act.
  std::vector<std::pair<int, bool>> frame_keys;
  if (!menu_keys_.empty()) {
    frame_keys.push_back(menu_keys_.front());
    menu_keys_.pop_front();
  }
  auto any = [&](int key, int pad, bool repeats) {
    for (const auto& [k, repeat] : frame_keys) {
      if (k == key && (repeats || !repeat)) return true;
    }
    return pads_.pressed(pad);
  };
  nav.up = any(GLFW_KEY_UP, GLFW_GAMEPAD_BUTTON_DPAD_UP, true);
  nav.down = any(GLFW_KEY_DOWN, GLFW_GAMEPAD_BUTTON_DPAD_DOWN, true);
  nav.left = any(GLFW_KEY_LEFT, GLFW_GAMEPAD_BUTTON_DPAD_LEFT, true);
  nav.right = any(GLFW_KEY_RIGHT, GLFW_GAMEPAD_BUTTON_DPAD_RIGHT, true);
  nav.accept = any(GLFW_KEY_ENTER, GLFW_GAMEPAD_BUTTON_A, false) || any(GLFW_KEY_KP_ENTER, -1, false);
  nav.back = any(GLFW_KEY_ESCAPE, GLFW_GAMEPAD_BUTTON_B, false);
  nav.page_up = any(GLFW_KEY_PAGE_UP, GLFW_GAMEPAD_BUTTON_LEFT_BUMPER, true);
  nav.page_down = any(GLFW_KEY_PAGE_DOWN, GLFW_GAMEPAD_BUTTON_RIGHT_BUMPER, true);
  for (const auto& [k, repeat] : frame_keys) {
    if (!repeat) nav.presses.push_back(k);
  }
  nav.suppressed = nav_suppressed_;
  return nav;
}

void App::input(double now_s) {
  nav_suppressed_ = false;
  int win_w = 0, win_h = 0;
  window_.size(win_w, win_h);
  scale_menus_to_window(fonts_, window_.content_scale(), static_cast<float>(win_h));  // before ImGui's NewFrame
  for (const KeyEvent& ev : window_.take_key_events()) {
    if (ev.action == GLFW_PRESS && ev.key == GLFW_KEY_F11) {
      window_.toggle_fullscreen();
      continue;
    }
    if (ev.action == GLFW_PRESS && ev.key == GLFW_KEY_F12) {
      screenshot_requested_ = true;
      continue;
    }
    if (screen_ == Screen::kSettings && settings_screen_.capturing() && ev.action == GLFW_PRESS) {
      settings_screen_.capture_key(settings_, ev.key);
      nav_suppressed_ = true;
      continue;
    }
    const bool playing =
        (screen_ == Screen::kGame && session_ &&
         (session_->phase() == SessionPhase::kPlaying || session_->phase() == SessionPhase::kCountdown)) ||
        racing_now();
    if (ev.action != GLFW_RELEASE && !playing && menu_keys_.size() < 16) {
      menu_keys_.emplace_back(ev.key, ev.action == GLFW_REPEAT);
    }
    // Keys go to the game only while ImGui does not want the keyboard (nothing of ImGui's takes focus in play;
    // releases always go through so the held state stays true). In a race only a text field being typed in (the
    // chat) keeps keys from the game: the menus' keyboard navigation never does.
    const ImGuiIO& io = ImGui::GetIO();
    const bool imgui_wants = io.WantCaptureKeyboard && ev.action == GLFW_PRESS;
    if (screen_ == Screen::kGame && !imgui_wants) game_key(ev);
    if (screen_ == Screen::kNet && shown_race() && (!io.WantTextInput || ev.action == GLFW_RELEASE)) race_key(ev);
  }
  // Losing focus mid-game pauses it (GLFW has already released the held keys). Only on the change, so a window
  // that starts unfocused (a test harness focusing it a moment later) is not paused.
  const bool focused = window_.focused();
  if (was_focused_ && !focused && screen_ == Screen::kGame && session_ && session_->phase() == SessionPhase::kPlaying) {
    session_->pause(now_s);
  }
  was_focused_ = focused;
  pad_changes(pads_.poll(), now_s);
  if (screen_ == Screen::kBench) bench_.step();
  tick_game(now_s);
  net_poll(now_s);
  tick_race();
  replay_poll();
}

void App::pad_changes(const std::vector<PadChange>& changes, double now_s) {
  for (const auto& c : changes) {
    if (screen_ == Screen::kSettings && settings_screen_.capturing() && c.down) {
      settings_screen_.capture_pad(settings_, c.input);
      nav_suppressed_ = true;
      continue;
    }
    if (screen_ == Screen::kNet && shown_race()) {  // our race (spectators' pads only navigate)
      held_.set_pad(c.input, c.down);
      race_buttons_changed(now_s);
      continue;
    }
    if (screen_ != Screen::kGame || !session_) continue;
    if (c.down && c.input == GLFW_GAMEPAD_BUTTON_START) {
      game_key({GLFW_KEY_ESCAPE, GLFW_PRESS, 0, now_s});
      continue;
    }
    held_.set_pad(c.input, c.down);
    bool restart_pressed = false;
    for (int p : settings_.bindings.pad_for(Action::kRestart)) restart_pressed |= c.down && p == c.input;
    if (restart_pressed && session_->phase() != SessionPhase::kPaused) {
      restart(now_s);
      continue;
    }
    session_->set_buttons(now_s, held_.buttons(settings_.bindings));
  }
}

void App::nav_inputs() {
  frame_nav_ = read_nav();
  ImGuiIO& io = ImGui::GetIO();
  // ImGui's GLFW backend reads pads by raw button numbers, which differ between pads; ours go through GLFW's
  // gamepad mappings. Nothing navigates while our own race is played.
  std::fill(std::begin(io.NavInputs), std::end(io.NavInputs), 0.0f);
  if (pads_.connected()) {
    io.BackendFlags |= ImGuiBackendFlags_HasGamepad;
  } else {
    io.BackendFlags &= ~ImGuiBackendFlags_HasGamepad;
  }
  // While a race is played, and a moment after its results appear, ImGui's navigation gets no keys at all (its own
  // key mapping included), so hard drops never press a menu button.
  const bool hold = racing_now() || results_fresh(Window::now_s());
  constexpr ImGuiConfigFlags kNav = ImGuiConfigFlags_NavEnableKeyboard | ImGuiConfigFlags_NavEnableGamepad;
  if (hold) {
    io.ConfigFlags &= ~kNav;
  } else {
    io.ConfigFlags |= kNav;
  }
  if (hold || frame_nav_.suppressed) return;
  const auto pad = [&](ImGuiNavInput_ nav, int input) {
    if (pads_.down(input)) io.NavInputs[nav] = 1.0f;
  };
  pad(ImGuiNavInput_Activate, GLFW_GAMEPAD_BUTTON_A);
  pad(ImGuiNavInput_Cancel, GLFW_GAMEPAD_BUTTON_B);
  pad(ImGuiNavInput_Menu, GLFW_GAMEPAD_BUTTON_X);
  pad(ImGuiNavInput_Input, GLFW_GAMEPAD_BUTTON_Y);
  pad(ImGuiNavInput_DpadLeft, GLFW_GAMEPAD_BUTTON_DPAD_LEFT);
  pad(ImGuiNavInput_DpadRight, GLFW_GAMEPAD_BUTTON_DPAD_RIGHT);
  pad(ImGuiNavInput_DpadUp, GLFW_GAMEPAD_BUTTON_DPAD_UP);
  pad(ImGuiNavInput_DpadDown, GLFW_GAMEPAD_BUTTON_DPAD_DOWN);
  pad(ImGuiNavInput_LStickLeft, kPadStickLeft);
  pad(ImGuiNavInput_LStickRight, kPadStickRight);
  pad(ImGuiNavInput_LStickUp, kPadStickUp);
  pad(ImGuiNavInput_LStickDown, kPadStickDown);
  pad(ImGuiNavInput_FocusPrev, GLFW_GAMEPAD_BUTTON_LEFT_BUMPER);
  pad(ImGuiNavInput_FocusNext, GLFW_GAMEPAD_BUTTON_RIGHT_BUMPER);
  pad(ImGuiNavInput_TweakSlow, GLFW_GAMEPAD_BUTTON_LEFT_BUMPER);
  pad(ImGuiNavInput_TweakFast, GLFW_GAMEPAD_BUTTON_RIGHT_BUMPER);
  // Key taps from our own events: ImGui 1.86 sees only whether a key is down when the frame starts, so a press
  // and release between two frames would be lost. Enter activates buttons too (ImGui's own Enter only edits text).
  bool activate = pads_.pressed(GLFW_GAMEPAD_BUTTON_A);
  for (int key : frame_nav_.presses) {
    switch (key) {
      case GLFW_KEY_ENTER:
      case GLFW_KEY_KP_ENTER:
      case GLFW_KEY_SPACE:
        io.NavInputs[ImGuiNavInput_Activate] = 1.0f;
        activate = true;
        break;
      case GLFW_KEY_ESCAPE: io.NavInputs[ImGuiNavInput_Cancel] = 1.0f; break;
      default: break;
    }
  }
  // ImGui 1.86 ignores activation while its focus highlight is hidden (after mouse use, or on a window that has
  // just appeared with its default button focused): Enter (pad A) then presses that default button, and shows it.
  if (ImGuiContext* g = ImGui::GetCurrentContext(); activate && g->NavId != 0) g->NavDisableHighlight = false;
  if (frame_nav_.left) io.NavInputs[ImGuiNavInput_KeyLeft_] = 1.0f;
  if (frame_nav_.right) io.NavInputs[ImGuiNavInput_KeyRight_] = 1.0f;
  if (frame_nav_.up) io.NavInputs[ImGuiNavInput_KeyUp_] = 1.0f;
  if (frame_nav_.down) io.NavInputs[ImGuiNavInput_KeyDown_] = 1.0f;
}

void App::ui(double now_s) {
  const MenuNav& nav = frame_nav_;
  if (!settings_problem_.empty() && screen_ == Screen::kMain) {
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_Always);
    ImGui::Begin("Settings problem", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoNav);
    ImGui::TextWrapped("%s", settings_problem_.c_str());
    if (ImGui::Button("OK")) settings_problem_.clear();
    ImGui::End();
  }
  switch (screen_) {
    case Screen::kMain:
      switch (draw_main_menu(main_menu_, nav, settings_.player_name)) {
        case MainChoice::kSolo: screen_ = Screen::kSolo; break;
        case MainChoice::kBot: screen_ = Screen::kBot; break;
        case MainChoice::kMultiplayer: screen_ = Screen::kNet; break;
        case MainChoice::kReplays: open_replay_browser(); break;
        case MainChoice::kSettings: screen_ = Screen::kSettings; break;
        case MainChoice::kQuit: done_ = true; break;
        case MainChoice::kNone:
          if (main_menu_.back()) done_ = true;
          break;
      }
      break;
    case Screen::kSolo: {
      bool back = false, custom = false;
      if (auto pick = solo_menu_.draw(nav, back, custom)) {
        back_to_ = Screen::kSolo;
        start_game(*pick, now_s);
      } else if (custom) {
        screen_ = Screen::kCustom;
      } else if (back) {
        screen_ = Screen::kMain;
      }
      break;
    }
    case Screen::kCustom: {
      bool back = false;
      if (auto pick = custom_menu_.draw(nav, back)) {
        back_to_ = Screen::kCustom;
        start_game(*pick, now_s);
      } else if (back) {
        screen_ = Screen::kSolo;
      }
      break;
    }
    case Screen::kBot: {
      bool back = false;
      if (auto pick = bot_menu_.draw(nav, back)) {
        back_to_ = Screen::kBot;
        start_game(*pick, now_s);
      } else if (back) {
        screen_ = Screen::kMain;
      }
      break;
    }
    case Screen::kSettings:
      if (settings_screen_.draw(settings_, nav)) leave_settings();
      break;
    case Screen::kGame: game_ui(now_s, nav); break;
    case Screen::kNet: net_ui(now_s, nav); break;
    case Screen::kReplays:
    case Screen::kViewer: replays_ui(now_s, nav); break;
    case Screen::kBench: {
      const ImGuiIO& io = ImGui::GetIO();
      layout_boards(io.DisplaySize.x, io.DisplaySize.y);
      for (std::size_t i = 0; i < bench_.games().size() && i < layouts_.size(); ++i) {
        draw_hud(fonts_, HudBoard{&bench_.games()[i], nullptr, layouts_[i], "bench " + std::to_string(i + 1), 0},
                 now_s);
      }
      break;
    }
  }
  // Which screen is up, in the log (the window tests follow the game through it).
  if (std::string name = screen_name(); name != logged_screen_) {
    spdlog::info("screen: {}", name);
    logged_screen_ = std::move(name);
  }
}

std::string App::screen_name() const {
  switch (screen_) {
    case Screen::kMain: return "main menu";
    case Screen::kSolo: return "solo";
    case Screen::kBot: return "race the bot";
    case Screen::kCustom: return "custom game";
    case Screen::kSettings: return "settings";
    case Screen::kGame: return "game";
    case Screen::kBench: return "bench";
    case Screen::kReplays: return "replays";
    case Screen::kViewer: return "replay viewer";
    case Screen::kNet:
      switch (net_.session().state()) {
        case net::Session::State::kLobby: return "lobby";
        case net::Session::State::kRoom: {
          const auto* race = shown_race();
          if (race == nullptr) return "room";
          const auto& results = net_.session().results();
          return results && results->race_id == race->race_id() ? "race results" : "race";
        }
        default: return "multiplayer menu";
      }
  }
  return "?";
}

void App::leave_settings() {
  leave_settings_quietly();
  screen_ = Screen::kMain;
}

void App::leave_settings_quietly() {
  clamp_settings(settings_);
  const std::string error = save_settings(paths_.settings_file(), settings_);
  if (!error.empty()) {
    spdlog::error("{}", error);
    settings_problem_ = error;
  }
}

void App::render(int fb_w, int fb_h, double now_s) {
  const ImGuiIO& io = ImGui::GetIO();
  BoardLook look{settings_.visuals, false};
  layout_boards(io.DisplaySize.x, io.DisplaySize.y);  // the UI may have just started or ended a game
  if (screen_ == Screen::kGame && session_) {
    look.dim = session_->phase() == SessionPhase::kPaused || session_->phase() == SessionPhase::kOver;
    draw_board(batch_, layouts_.at(0), session_->game(), &session_->feedback(), look, now_s);
    if (bot_ && layouts_.size() > 1) draw_board(batch_, layouts_[1], bot_->game(), &bot_->feedback(), look, now_s);
  } else if (screen_ == Screen::kViewer) {
    layout_viewer(io.DisplaySize.x, io.DisplaySize.y);
    render_viewer(look, now_s);
  } else if (screen_ == Screen::kNet) {
    layout_race(io.DisplaySize.x, io.DisplaySize.y);
    render_race(look, now_s);
  } else if (screen_ == Screen::kBench) {
    for (std::size_t i = 0; i < bench_.games().size() && i < layouts_.size(); ++i) {
      draw_board(batch_, layouts_[i], bench_.games()[i], nullptr, look, now_s);
    }
  }
  batch_.flush(fb_w, fb_h, io.DisplaySize.x, io.DisplaySize.y);
}

void App::after_render(int fb_w, int fb_h) {
  if (!screenshot_requested_) return;
  screenshot_requested_ = false;
  std::filesystem::path path;
  if (options_.screenshot) {
    path = *options_.screenshot;
  } else {
    const std::time_t t = std::time(nullptr);
    char name[64];
    std::strftime(name, sizeof name, "stackrace-%Y%m%d-%H%M%S.png", std::localtime(&t));
    path = paths_.data_dir / "screenshots" / name;
  }
  std::string error = write_screenshot(path, fb_w, fb_h);
  const float scale = ImGui::GetIO().DisplaySize.x > 0 ? static_cast<float>(fb_w) / ImGui::GetIO().DisplaySize.x : 1;
  if (error.empty()) {
    error = write_layout(path,
                         screen_ == Screen::kNet      ? race_layouts_
                         : screen_ == Screen::kViewer ? viewer_layouts_
                                                      : layouts_,
                         scale, screen_ == Screen::kNet ? race_layout_notes() : std::vector<std::string>{});
  }
  if (error.empty()) {
    spdlog::info("screenshot written to {}", path.string());
  } else {
    spdlog::error("screenshot failed: {}", error);
  }
}

void App::end_frame(double frame_s) {
  if (screen_ != Screen::kBench) return;
  bench_.record(frame_s);
  if (bench_.finished()) {
    std::printf(
        "time per frame at %dx%d, vsync off (CPU: this process, GL driver threads included; wall: polling to "
        "swap):\n%s",
        static_cast<int>(ImGui::GetIO().DisplaySize.x), static_cast<int>(ImGui::GetIO().DisplaySize.y),
        bench_.report().c_str());
    std::fflush(stdout);
    done_ = true;
  }
}

void App::shutdown(double now_s) {
  net_.save_own_game();  // a race still running: our game so far
  if (session_ && session_->phase() != SessionPhase::kOver) quit_game(now_s);
}

}  // namespace sr::client
