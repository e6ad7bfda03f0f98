// The solo game in progress: starting, keys, pausing, ending, saving the replay, and the in-game screen.
#include "client/app/app.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <random>

#include "client/solo/modes.h"
#include "client/ui/hud.h"

namespace sr::client {
namespace {

std::uint64_t fresh_seed() {
  std::random_device rd;  // the client picks seeds; the engine itself never touches std random
  const auto now = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  return ((static_cast<std::uint64_t>(rd()) << 32) ^ rd() ^ now) & 0xFFFF'FFFF'FFFFull;
}

std::vector<std::pair<std::string, std::string>> result_stats(const engine::Game& g) {
  const auto& s = g.stats();
  std::vector<std::pair<std::string, std::string>> out = {
      {"Time", format_time(s.time_us)},
      {"Lines", format_count(s.lines)},
      {"Pieces", format_count(s.pieces)},
      {"PPS", format_pps(s.pieces, s.time_us)},
      {"Keys per piece", format_kpp(s.key_presses, s.pieces)},
  };
  if (g.config().mode != engine::ModeKind::kSprint) {
    out.emplace_back("Score", format_count(s.score));
    out.emplace_back("Level", std::to_string(s.level));
  }
  out.emplace_back("Singles / doubles / triples",
                   format_count(s.singles) + " / " + format_count(s.doubles) + " / " + format_count(s.triples));
  out.emplace_back("Tetrises", format_count(s.tetrises));
  out.emplace_back("T-spins (0/1/2/3 lines)", format_count(s.tspins) + " / " + format_count(s.tspin_singles) + " / " +
                                                  format_count(s.tspin_doubles) + " / " +
                                                  format_count(s.tspin_triples));
  out.emplace_back("Perfect clears", format_count(s.perfect_clears));
  out.emplace_back("Best combo / back-to-back", std::to_string(s.max_combo) + " / " + std::to_string(s.max_b2b));
  out.emplace_back("Holds", format_count(s.holds));
  return out;
}

}  // namespace

bool App::restart_key(int key) const {
  for (int k : settings_.bindings.keys_for(Action::kRestart)) {
    if (k == key) return true;
  }
  return false;
}

void App::start_game(const GamePick& pick, double now_s) {
  GamePick p = pick;
  engine::Handling h = to_engine(settings_.handling);
  h.are_us = p.config.handling.are_us;  // mode rules, not player preference
  h.line_clear_delay_us = p.config.handling.line_clear_delay_us;
  h.irs = p.config.handling.irs;
  h.ihs = p.config.handling.ihs;
  p.config.handling = h;
  if (auto error = engine::config_error(p.config)) {
    spdlog::error("cannot start the game: {}", *error);
    return;
  }
  const std::uint64_t seed = options_.seed ? *options_.seed : fresh_seed();
  session_ = std::make_unique<SoloSession>(p.config, seed, now_s, options_.countdown_ms / 1000.0);
  bot_.reset();
  if (p.bot_pps) {
    std::string error;
    bot_ = BotRacer::create(p.config, seed, *p.bot_pps, error);
    if (!bot_) spdlog::warn("racing without the bot: {}", error);
  }
  pick_ = p;
  best_before_ = replays_.personal_best(p.config, settings_.player_name);
  results_.reset();
  held_.release_all();
  started_unix_ms_ =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  screen_ = Screen::kGame;
  menu_keys_.clear();              // menu keys typed ahead must not reach the pause or results menus
  ImGui::SetWindowFocus(nullptr);  // nothing of ImGui's may want the keyboard during play
  spdlog::info("{} game, seed {}", mode_label(p.config), seed);
}

void App::game_key(const KeyEvent& ev) {
  if (!session_ || ev.action == GLFW_REPEAT) return;
  const bool press = ev.action == GLFW_PRESS;
  held_.set_key(ev.key, press);
  const SessionPhase phase = session_->phase();
  if (press && (restart_key(ev.key) && phase != SessionPhase::kPaused)) {
    nav_suppressed_ = true;
    restart(ev.time_s);
    return;
  }
  if (phase == SessionPhase::kCountdown || phase == SessionPhase::kPlaying) {
    if (press && ev.key == GLFW_KEY_ESCAPE) {
      nav_suppressed_ = true;
      if (phase == SessionPhase::kCountdown) {
        session_.reset();  // nothing was played: nothing to save
        bot_.reset();
        screen_ = back_to_;
        if (options_.exit_after_game) done_ = true;
      } else {
        session_->pause(ev.time_s);
      }
      return;
    }
    session_->set_buttons(ev.time_s, held_.buttons(settings_.bindings));
  }
}

void App::tick_game(double now_s) {
  if (screen_ != Screen::kGame || !session_) return;
  session_->tick(now_s);
  if (bot_ && session_->phase() == SessionPhase::kPlaying) bot_->advance_to(session_->clock_us(), now_s);
  if (session_->phase() == SessionPhase::kOver && !results_) end_game(now_s);
}

void App::end_game(double /*now_s*/) {
  const auto& game = session_->game();
  SoloRecord record = record_of(*session_, settings_.player_name, started_unix_ms_);
  if (bot_) {
    char name[32];
    std::snprintf(name, sizeof name, "bot %.1f pps", bot_->pps());
    record.bot = SoloRecord::Opponent{name, bot_->run()};
  }
  ResultsView v;
  v.mode = mode_label(game.config());
  v.result = result_of(game.config(), game.stats(), record.finished(), record.abandoned());
  v.previous_best = best_before_;
  v.new_best = beats(v.result, best_before_);
  v.title = record.abandoned()  ? "Abandoned"
            : record.finished() ? (game.config().limit == engine::LimitKind::kTime ? "Time's up!" : "Finished!")
                              : "Game over";
  v.stats = result_stats(game);
  if (bot_) {
    const auto& b = bot_->game();
    v.bot_line = "Bot (" + std::to_string(bot_->pps()).substr(0, 4) +
                 " PPS): " + headline(result_of(b.config(), b.stats(), b.state().finished, false)) + ", " +
                 format_count(b.stats().lines) + " lines";
  }
  const SaveOutcome saved = record.abandoned() && record.run.log().empty() ? SaveOutcome{{}, "nothing was played"}
                                                                      // e.g. quick restarts in a row
                                                                      : replays_.save(record);
  if (saved.error.empty()) {
    v.saved = "Replay saved: " + saved.path.string();
    spdlog::info("replay saved to {}", saved.path.string());
  } else {
    v.saved = "Replay not saved: " + saved.error;
    spdlog::warn("replay not saved: {}", saved.error);
  }
  spdlog::info("{}: {} ({} inputs)", v.title, headline(v.result), record.run.log().size());
  results_ = std::move(v);
  if (options_.exit_after_game) done_ = true;
}

void App::quit_game(double now_s) {
  if (!session_) return;
  if (session_->phase() != SessionPhase::kOver) {
    session_->abandon(now_s);
    end_game(now_s);
  }
  session_.reset();
  bot_.reset();
  results_.reset();
  screen_ = back_to_;
}

void App::restart(double now_s) {
  if (!pick_) return;
  if (session_ && session_->phase() != SessionPhase::kOver &&
      (session_->phase() != SessionPhase::kCountdown || !session_->run().log().empty())) {
    session_->abandon(now_s);
    const bool exit_after = options_.exit_after_game;
    options_.exit_after_game = false;  // a quick restart is not the end of the session
    end_game(now_s);
    options_.exit_after_game = exit_after;
  }
  start_game(*pick_, now_s);
}

void App::layout_boards(float w, float h) {
  layouts_.clear();
  const float margin = std::min(w, h) * 0.02f;
  const int n = screen_ == Screen::kBench ? bench_.boards() : (bot_ ? 2 : 1);
  if (n == 1) {
    layouts_.push_back(fit_board(margin, margin, w - 2 * margin, h - 2 * margin, settings_.visuals.board_scale));
    return;
  }
  int best_cols = 1;
  float best_cell = 0;
  for (int cols = 1; cols <= n; ++cols) {
    const int rows = (n + cols - 1) / cols;
    const float cell = std::min((w - 2 * margin) / static_cast<float>(cols) / BoardLayout::kWidthCells,
                                (h - 2 * margin) / static_cast<float>(rows) / BoardLayout::kHeightCells);
    if (cell > best_cell) {
      best_cell = cell;
      best_cols = cols;
    }
  }
  const int rows = (n + best_cols - 1) / best_cols;
  const float tw = (w - 2 * margin) / static_cast<float>(best_cols), th = (h - 2 * margin) / static_cast<float>(rows);
  const float scale = screen_ == Screen::kBench ? 1.0f : settings_.visuals.board_scale;
  for (int i = 0; i < n; ++i) {
    const float x = margin + static_cast<float>(i % best_cols) * tw,
                y = margin + static_cast<float>(i / best_cols) * th;
    layouts_.push_back(fit_board(x, y, tw, th, scale));
  }
}

void App::game_ui(double now_s, const MenuNav& nav) {
  if (!session_) {
    screen_ = back_to_;
    return;
  }
  const ImGuiIO& io = ImGui::GetIO();
  layout_boards(io.DisplaySize.x, io.DisplaySize.y);
  draw_hud(fonts_,
           HudBoard{&session_->game(), &session_->feedback(), layouts_[0], settings_.player_name,
                    session_->countdown_left(now_s)},
           now_s);
  if (bot_ && layouts_.size() > 1) {
    draw_hud(fonts_, HudBoard{&bot_->game(), &bot_->feedback(), layouts_[1], "bot", session_->countdown_left(now_s)},
             now_s);
  }
  switch (session_->phase()) {
    case SessionPhase::kPaused:
      switch (draw_pause_menu(pause_menu_, nav)) {
        case PauseChoice::kResume: session_->resume(now_s, held_.buttons(settings_.bindings)); break;
        case PauseChoice::kRestart: restart(now_s); break;
        case PauseChoice::kQuit:
          quit_game(now_s);
          results_.reset();
          break;
        case PauseChoice::kNone: break;
      }
      break;
    case SessionPhase::kOver:
      if (results_) {
        switch (draw_results(results_menu_, nav, *results_)) {
          case ResultsChoice::kRetry: restart(now_s); break;
          case ResultsChoice::kMenu: quit_game(now_s); break;
          case ResultsChoice::kNone: break;
        }
      }
      break;
    default: break;
  }
}

}  // namespace sr::client
