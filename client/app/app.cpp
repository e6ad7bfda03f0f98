// The screens: which one is up and what each menu chose, the frame's boards, screenshots, and the bench's report.
#include "client/app/app.h"

#include <imgui.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>

#include "client/app/bench_view.h"
#include "client/app/browse_view.h"
#include "client/app/game_view.h"
#include "client/app/net_view.h"
#include "client/app/puzzles_view.h"
#include "client/app/records_view.h"
#include "client/app/replay_views.h"
#include "client/render/screenshot.h"
#include "client/settings/puzzle_progress_io.h"
#include "client/settings/settings_io.h"
#include "client/solo/modes.h"
#include "client/ui/hud.h"
#include "client/web/game_link.h"

namespace sr::client {

App::App(AppOptions options, Window& window, Fonts fonts)
    : options_(std::move(options)),
      window_(window),
      fonts_(fonts),
      paths_(resolve_paths(options_.config_dir, options_.data_dir)),
      replays_(paths_.replay_dir()),
      net_(replays_),
      pacer_(options_.vsync, window.refresh_hz()) {
  views_ = make_screen_views(*this);
}

App::~App() = default;

void App::load_key() {
  bool created = false;
  auto key = net::load_or_create_key(paths_.key_file(), created);
  if (!key) {
    // Never made anew over a file that is there: the player mends or moves it. Meanwhile a key for this run only.
    spdlog::error("{}", key.error());
    notice_title_ = "Player key";
    notice_ += (notice_.empty() ? "" : "\n\n") + key.error() +
               ": this run uses a new key, so servers may not give you the names your key holds.";
    net_.set_key(net::PlayerKey::generate());
    return;
  }
  spdlog::info("player key {} ({}{})", key.value().short_id(), paths_.key_file().string(), created ? ", new" : "");
  net_.set_key(key.value());
}

sr::Status<std::string> App::set_key(const net::PlayerKey& key) {
  if (auto saved = net::save_key(paths_.key_file(), key); !saved) return saved;
  net_.set_key(key);
  spdlog::info("player key {} imported", key.short_id());
  return {};
}

sr::Status<std::string> App::init() {
  auto load = load_settings(paths_.settings_file());
  settings_ = load.settings;
  const bool first_start = !load.from_file && load.problem.empty();
  if (!load.problem.empty()) {
    spdlog::warn("{}", load.problem);
    notice_title_ = "Settings";
    notice_ = load.problem;
  }
  auto puzzles = load_puzzle_progress(paths_.puzzles_file());
  puzzles_ = puzzles.progress;
  if (!puzzles.problem.empty()) {
    spdlog::warn("{}", puzzles.problem);
    notice_title_ = notice_.empty() ? "Puzzle progress" : "Settings and puzzle progress";
    notice_ += (notice_.empty() ? "" : "\n\n") + puzzles.problem;
  }
  pacer_.set_cap(options_.frame_cap.value_or(settings_.frame_cap));
  sound_ = std::make_unique<audio::SoundPlayer>();
  apply_sound_settings(window_.focused());
  spdlog::info("frame cap without vsync: {} fps (monitor: {} Hz, 0 = unknown)", pacer_.cap_hz(), window_.refresh_hz());
  if (auto s = batch_.init(); !s) return s;
  net_.set_resume_window(std::chrono::seconds(options_.resume_seconds));
  load_key();
  spdlog::info("settings: {}; replays: {}", paths_.settings_file().string(), paths_.replay_dir().string());
  if (options_.bench_frames > 0) {
    screen_ = Screen::kBench;
    window_.set_vsync(false);
    pacer_.set_vsync_requested(false);
    view<BenchView>(Screen::kBench).start(options_.bench_frames);
    return {};
  }
  if (options_.replay_file) {
    // A file that is not a replay (or cannot be read) is said in the window, over the main menu: the game goes on.
    if (auto opened = view<ViewerView>(Screen::kViewer).open_file(*options_.replay_file); !opened) {
      view<ReplaysView>(Screen::kReplays).close();
      screen_ = Screen::kMain;
      notice_title_ = "Cannot watch this file";
      notice_ = "The file given on the command line, " + options_.replay_file->string() + ", cannot be watched. " +
                opened.error();
    }
    return {};
  }
  if (options_.replay_link) {
    // As for a file: a link that cannot be watched is said over the main menu.
    if (auto opened = view<ViewerView>(Screen::kViewer).open_link(*options_.replay_link); !opened) {
      view<ReplaysView>(Screen::kReplays).close();
      screen_ = Screen::kMain;
      notice_title_ = "Cannot watch this link";
      notice_ =
          "The link given on the command line, " + *options_.replay_link + ", cannot be watched: " + opened.error();
    }
    return {};
  }
  bool directories_added = false;
  for (const std::string& url : options_.directories) {
    auto& list = settings_.directories;
    if (std::find(list.begin(), list.end(), url) != list.end() || list.size() >= kMaxDirectories) continue;
    list.push_back(url);
    directories_added = true;
  }
  if (directories_added) apply_settings();
  if (options_.host_port || options_.connect) {
    view<NetView>(Screen::kNet).start_from_cli();
    return {};
  }
  if (options_.browse) {
    view<BrowseView>(Screen::kBrowse).open();
    return {};
  }
  if (options_.records) {
    view<RecordsView>(Screen::kRecords).open(Screen::kMain);
    return {};
  }
  if (options_.mode) {
    auto config = config_for_cli(*options_.mode, options_.limit);
    if (!config) return config.error();
    // Started from the command line: leaving the game goes to the main menu.
    start_game(GamePick{config.value(), options_.bot_pps}, Screen::kMain, Window::now_s());
    return {};
  }
  if (first_start) {
    // No settings yet: ask the name before anything else, suggesting one that no other newcomer is likely to have
    // (every newcomer called "player" would find the name taken on the second one's server).
    std::random_device random;
    welcome_name_ = "player" + std::to_string(1000 + random() % 9000);
    spdlog::info("first start: asking for a name");
  }
  return {};
}

void App::ui(double now_s) {
  const MenuNav none;
  // A notice (a damaged settings file, a file that is not a replay) is drawn over the main menu, which gets no keys
  // meanwhile.
  // So is the first start's welcome; the close warning (over every screen) answers its own keys.
  const bool welcome = welcome_name_ && screen_ == Screen::kMain;
  const bool notice = !notice_.empty() && screen_ == Screen::kMain;
  const MenuNav& nav = notice || welcome || close_warning_ ? none : frame_nav_;
  view().ui(now_s, nav);
  if (welcome && draw_welcome(*welcome_name_)) {
    settings_.player_name = *welcome_name_;
    welcome_name_.reset();
    spdlog::info("first start: playing as {}", settings_.player_name);
    apply_settings();  // saved: the next start asks nothing
  } else if (!welcome && notice && draw_notice(notice_title_.c_str(), notice_, frame_nav_)) {
    spdlog::info("notice closed: {}", notice_title_);
    notice_.clear();
  }
  if (close_warning_) {
    // The game (a race included) goes on behind it; the window's close button again closes (close_requested).
    const std::size_t others = net_.hosted_others();
    const CloseWarningChoice choice = draw_close_warning(others, frame_nav_);
    if (choice == CloseWarningChoice::kClose) {
      spdlog::info("closing while hosting: the server stops");
      done_ = true;
    } else if (choice == CloseWarningChoice::kStay || others == 0) {
      close_warning_ = false;
      spdlog::info("close warning: keep playing");
    }
  }
  if (now_s < toast_until_s_) draw_toast(toast_);  // drawn after the screenshot it confirms
  // Which screen is up, in the log (the window tests follow the game through it).
  if (std::string name = view().name(); name != logged_screen_) {
    spdlog::info("screen: {}", name);
    logged_screen_ = std::move(name);
  }
}

bool App::close_requested() {
  if (close_warning_ || net_.hosted_others() == 0) return true;
  close_warning_ = true;
  spdlog::info("close asked while hosting {} other players: warning", net_.hosted_others());
  return false;
}

void App::apply_sound_settings(bool focused) {
  if (!sound_) return;
  sound_->set_gain(effects_gain(settings_.sound));
  sound_->set_muted(settings_.sound.mute_unfocused && !focused);
}

void App::apply_settings() {
  clamp_settings(settings_);
  pacer_.set_cap(settings_.frame_cap);
  if (auto saved = save_settings(paths_.settings_file(), settings_); !saved) {
    spdlog::error("{}", saved.error());
    show_notice("Settings not saved", saved.error());
  }
}

void App::show_notice(std::string title, std::string text) {
  notice_title_ = std::move(title);
  notice_ = std::move(text);
}

void App::start_game(GamePick pick, Screen back_to, double now_s) {
  (void)view<GameView>(Screen::kGame).start(std::move(pick), back_to, now_s);  // a failure is said in the log
}

void App::open_replay_browser() { view<ReplaysView>(Screen::kReplays).open(); }

void App::open_puzzles() {
  view<PuzzlesView>(Screen::kPuzzles).select_next();
  screen_ = Screen::kPuzzles;
}

void App::render(int fb_w, int fb_h, double now_s) {
  const ImGuiIO& io = ImGui::GetIO();
  const BoardLook look{settings_.visuals, false};
  view().render(look, io.DisplaySize.x, io.DisplaySize.y, now_s);
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
  sr::Status<std::string> written = write_screenshot(path, fb_w, fb_h);
  const float scale = ImGui::GetIO().DisplaySize.x > 0 ? static_cast<float>(fb_w) / ImGui::GetIO().DisplaySize.x : 1;
  if (written) {
    written = write_layout(path, view().layouts(), scale, view().layout_notes());
  }
  if (written) {
    spdlog::info("screenshot written to {}", path.string());
    toast_ = "Screenshot saved to " + path.string();
  } else {
    spdlog::error("screenshot failed: {}", written.error());
    toast_ = "No screenshot: " + written.error();
  }
  toast_until_s_ = Window::now_s() + 3.0;
}

namespace {

// The longest wait while something must be polled: an open connection; a plugged-in pad on an idle screen.
constexpr double kPollS = 0.016;

}  // namespace

Activity App::activity() const { return view().activity(); }

PaceState App::pace_state(double now_s) const {
  PaceState p;
  p.activity = activity();
  p.focused = window_.focused();
  p.iconified = window_.iconified();
  // Menu keys that arrived together are taken one a frame: the next one now.
  if (!menu_keys_.empty()) p.wake_s = now_s;
  if (const auto at = view().wake_at(now_s)) p.wake_s = *at;  // a button appearing (the race results')
  // A held pad input repeats in menus (ImGui's navigation counts frames), so a plugged-in pad keeps frames coming.
  if (pads_.connected()) p.poll_every_s = kPollS;
  return p;
}

void App::wait_for_next_frame() {
  // While something moves (a game, a race, a replay) the main thread reads a plugged-in pad every 1 ms.
  window_.set_playing(activity() == Activity::kAnimating);
  InputQueue& events = window_.events();
  double now_s = Window::now_s();
  double until_s = now_s + pacer_.wait_s(now_s, pace_state(now_s));
  if (now_s < toast_until_s_) until_s = std::min(until_s, toast_until_s_);  // a frame to take the toast away
  for (;;) {
    if (events.has_keys()) return;  // keys and pad changes: drawn at once
    // Other input may bring the next frame forward (a hover on an idle screen), never put it off.
    if (events.take_input_seen()) {
      pacer_.input_seen(now_s);
      until_s = std::min(until_s, now_s + pacer_.wait_s(now_s, pace_state(now_s)));
    }
    if (now_s >= until_s) return;
    // An open connection is serviced while we wait (ENet acknowledges and resends only when serviced), and a frame
    // is drawn early only when it brought something: an idle lobby or room costs no more than a menu.
    const bool net = net_open();
    events.wait_until(net ? std::min(until_s, now_s + kPollS) : until_s);  // returns early on any input
    now_s = Window::now_s();
    if (net && net_poll(now_s)) return;
  }
}

void App::end_frame(double start_s, double end_s) {
  pacer_.frame_done(start_s, end_s, activity());
  ++frames_counted_;
  if (frames_since_s_ < 0) frames_since_s_ = end_s;
  if (end_s - frames_since_s_ >= 1.0) {
    spdlog::debug("frames: {:.0f} a second ({}, vsync {})", frames_counted_ / (end_s - frames_since_s_), view().name(),
                  pacer_.vsync_honoured() ? "honoured" : "not honoured");
    frames_counted_ = 0;
    frames_since_s_ = end_s;
  }
  view().frame_done(start_s, end_s);
}

void App::shutdown(double now_s) {
  net_.save_own_game();  // a race still running: our game so far
  for (auto& entry : views_) entry.second->shutdown(now_s);
}

bool App::net_poll(double now_s) {
  if (net_.session().state() == net::Session::State::kIdle) return false;
  const auto state_before = net_.session().state();
  const auto received = net_.poll();
  for (const auto& m : received) {
    for (auto& entry : views_) entry.second->net_message(m, now_s);
  }
  for (auto& entry : views_) entry.second->net_polled(now_s);
  if (state_before != net::Session::State::kClosed && net_.session().state() == net::Session::State::kClosed) {
    held_.release_all();
    for (auto& entry : views_) entry.second->connection_closed();
    if (net_.lost()) spdlog::warn("connection lost ({}); back on the multiplayer menu", net_.lost()->reason);
    if (options_.exit_after_race) done_ = true;
  }
  return !received.empty() || net_.session().state() != state_before;
}

bool App::net_open() const {
  const auto state = net_.session().state();
  return state != net::Session::State::kIdle && state != net::Session::State::kClosed;
}

std::string App::copy_game_link(std::uint64_t game_id) {
  const auto address = parse_address(net_.address());
  const auto pages = web_pages(net_.session().welcome(), address ? address->first : std::string());
  if (!pages) return "this server has no web pages: its games have no web links";
  const std::string link = game_link(*pages, game_id);
  window_.set_clipboard(link);
  spdlog::info("link copied: {}", link);
  return "link copied: " + link;
}

}  // namespace sr::client
