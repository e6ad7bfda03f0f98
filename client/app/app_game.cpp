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

// A new SoloGame every time (a restart too): the old one's results and menus go with it.
void App::start_game(GamePick p, Screen back_to, double now_s) {
  engine::Handling h = to_engine(settings_.handling);
  h.are_us = p.config.handling.are_us;  // mode rules, not player preference
  h.line_clear_delay_us = p.config.handling.line_clear_delay_us;
  h.irs = p.config.handling.irs;
  h.ihs = p.config.handling.ihs;
  p.config.handling = h;
  if (auto checked = engine::check_config(p.config); !checked) {
    spdlog::error("cannot start the game: {}", checked.error());
    return;
  }
  const std::uint64_t seed = options_.seed ? *options_.seed : fresh_seed();
  SoloGame& g = game_.emplace();
  g.back_to = back_to;
  g.results_menu.dock_right();
  g.session = std::make_unique<SoloSession>(p.config, seed, now_s,
                                            options_.countdown_ms.value_or(settings_.countdown_ms) / 1000.0);
  if (p.bot_pps) {
    if (auto bot = BotRacer::create(p.config, seed, *p.bot_pps); bot.ok()) {
      g.bot = std::move(bot.value());
    } else {
      spdlog::warn("racing without the bot: {}", bot.error());
    }
  }
  g.pick = p;
  g.best_before = replays_.personal_best(p.config, settings_.player_name);
  held_.release_all();
  g.started_unix_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  screen_ = Screen::kGame;
  menu_keys_.clear();              // menu keys typed ahead must not reach the pause or results menus
  ImGui::SetWindowFocus(nullptr);  // nothing of ImGui's may want the keyboard during play
  spdlog::info("{} game, seed {}", mode_label(p.config), seed);
}

void App::game_key(const KeyEvent& ev) {
  if (!game_ || ev.action == GLFW_REPEAT) return;
  const bool press = ev.action == GLFW_PRESS;
  held_.set_key(ev.key, press);
  const SessionPhase phase = game_->session->phase();
  if (press && restart_key(ev.key)) {  // playing, paused ("Restart (R)") or over ("Retry (R)")
    nav_suppressed_ = true;
    restart(ev.time_s);
    return;
  }
  if (phase == SessionPhase::kCountdown || phase == SessionPhase::kPlaying) {
    if (press && ev.key == GLFW_KEY_ESCAPE) {
      nav_suppressed_ = true;
      if (phase == SessionPhase::kCountdown) {
        screen_ = game_->back_to;
        game_.reset();  // nothing was played: nothing to save
        if (options_.exit_after_game) done_ = true;
      } else {
        game_->session->pause(ev.time_s);
      }
      return;
    }
    game_->session->set_buttons(ev.time_s, held_.buttons(settings_.bindings));
  }
}

void App::tick_game(double now_s) {
  if (screen_ != Screen::kGame || !game_) return;
  SoloSession& session = *game_->session;
  session.tick(now_s);
  if (const auto beep = game_->beeps.at(session.countdown_left(now_s))) sound_->play(*beep);
  sound_->play(session.take_cues());  // also those of this frame's keys, pressed a moment ago in input()
  if (game_->bot && session.phase() == SessionPhase::kPlaying) game_->bot->advance_to(session.clock_us(), now_s);
  if (session.phase() == SessionPhase::kOver && !game_->results) end_game(now_s);
}

void App::apply_sound_settings(bool focused) {
  if (!sound_) return;
  sound_->set_gain(effects_gain(settings_.sound));
  sound_->set_muted(settings_.sound.mute_unfocused && !focused);
}

void App::end_game(double /*now_s*/) {
  SoloGame& g = *game_;
  const auto& game = g.session->game();
  const BotRacer* bot = g.bot.get();
  SoloRecord record = record_of(*g.session, settings_.player_name, g.started_unix_ms);
  if (bot) {
    char name[32];
    std::snprintf(name, sizeof name, "bot %.1f pps", bot->pps());
    record.bot = SoloRecord::Opponent{name, bot->run()};
  }
  ResultsView v;
  v.mode = mode_label(game.config());
  v.result = result_of(game.config(), game.stats(), record.finished(), record.abandoned());
  v.previous_best = g.best_before;
  v.new_best = !g.puzzle && beats(v.result, g.best_before);
  if (v.new_best) sound_->play(audio::Cue::kPersonalBest);
  v.title = record.abandoned()  ? "Abandoned"
            : record.finished() ? (game.config().limit == engine::LimitKind::kTime ? "Time's up!" : "Finished!")
                                : "Topped out";
  v.stats = result_stats(game);
  if (bot) {
    const auto& b = bot->game();
    const RunResult theirs = result_of(b.config(), b.stats(), b.state().finished, false, b.over());
    switch (bot_race_winner(v.result, theirs)) {
      case RaceWinner::kPlayer: v.title = "You won!"; break;
      case RaceWinner::kBot: v.title = "The bot won"; break;
      case RaceWinner::kTie: v.title = "A tie"; break;
    }
    const std::string how = b.over() ? headline(theirs) : "still playing";
    v.bot_line = "Bot (" + std::to_string(bot->pps()).substr(0, 4) + " PPS): " + how +
                 (b.over() && theirs.completed && theirs.goal == engine::GoalKind::kTime
                      ? ""
                      : " at " + format_time(b.stats().time_us)) +
                 ", " + format_count(b.stats().lines) + " lines";
  }
  // A puzzle attempt is stored whenever a button was pressed, however quickly it was given up: each attempt counts.
  if (g.puzzle) record.place = puzzle_place(g.puzzle->stage);
  const bool store = worth_storing(record, g.puzzle ? 0 : settings_.keep_given_up_after_s);
  const SaveOutcome saved = store ? replays_.save(record) : SaveOutcome{};
  if (!store) {
    v.saved = record.run.log().empty()
                  ? "Not stored: nothing was played"
                  : "Not stored: given up in its first " + std::to_string(settings_.keep_given_up_after_s) +
                        " s (Settings > Replays changes this)";
    spdlog::info("replay not stored: {}", v.saved);
  } else if (saved.error.empty()) {
    v.saved = "Replay saved: " + saved.path.string();
    spdlog::info("replay saved to {}", saved.path.string());
  } else {
    v.saved = "Replay not saved: " + saved.error;
    spdlog::warn("replay not saved: {}", saved.error);
  }
  spdlog::info("{}: {} ({} inputs)", v.title, headline(v.result), record.run.log().size());
  g.results = std::move(v);
  if (g.puzzle) end_puzzle_attempt(saved, store);
  if (options_.exit_after_game) done_ = true;
}

void App::quit_game(double now_s) {
  if (!game_) return;
  if (game_->session->phase() != SessionPhase::kOver) {
    game_->session->abandon(now_s);
    end_game(now_s);
  }
  if (game_->puzzle) leave_puzzle();
  screen_ = game_->back_to;
  game_.reset();
}

void App::restart(double now_s) {
  if (!game_) return;
  if (game_->puzzle) {
    restart_puzzle(now_s);
    return;
  }
  SoloSession& session = *game_->session;
  if (session.phase() != SessionPhase::kOver &&
      (session.phase() != SessionPhase::kCountdown || !session.run().log().empty())) {
    session.abandon(now_s);
    const bool exit_after = options_.exit_after_game;
    options_.exit_after_game = false;  // a quick restart is not the end of the session
    end_game(now_s);
    options_.exit_after_game = exit_after;
  }
  start_game(game_->pick, game_->back_to, now_s);  // copies: the new game replaces this one
}

void solo_layouts(std::vector<BoardLayout>& out, int n, float w, float h, float scale) {
  out.clear();
  const float margin = std::min(w, h) * 0.02f;
  if (n == 1) {
    out.push_back(fit_board(margin, margin, w - 2 * margin, h - 2 * margin, scale));
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
  for (int i = 0; i < n; ++i) {
    const float x = margin + static_cast<float>(i % best_cols) * tw,
                y = margin + static_cast<float>(i / best_cols) * th;
    out.push_back(fit_board(x, y, tw, th, scale));
  }
}

void App::layout_boards(float w, float h) {
  const float scale = settings_.visuals.board_scale;
  if (screen_ == Screen::kBench && bench_) {
    const int n = bench_->bench.boards();
    solo_layouts(bench_->layouts, n, w, h, n == 1 ? scale : 1.0f);  // the bench's grid is drawn at full size
  } else if (game_) {
    // The results (solo, puzzle, race the bot) dock at the right: the boards move left of them, uncovered.
    const bool results = game_->session->phase() == SessionPhase::kOver;
    const float panel = results ? docked_panel_width(w, h, ImGui::GetFontSize()) : 0.0f;
    solo_layouts(game_->layouts, game_->bot ? 2 : 1, w - panel, h, scale);
  }
}

void App::game_ui(double now_s, const MenuNav& nav) {
  if (!game_) {
    screen_ = Screen::kMain;  // not reached: leaving a game always changes the screen
    return;
  }
  const ImGuiIO& io = ImGui::GetIO();
  layout_boards(io.DisplaySize.x, io.DisplaySize.y);
  SoloGame& g = *game_;
  const double countdown = g.session->countdown_left(now_s);
  const std::string name = g.puzzle
                               ? puzzle_board_name(g.puzzle->stage, g.puzzle->attempt, g.session->game().stats().pieces)
                               : settings_.player_name;
  draw_hud(fonts_, HudBoard{&g.session->game(), &g.session->feedback(), g.layouts[0], name, countdown}, now_s);
  if (g.puzzle && g.session->phase() != SessionPhase::kOver) {
    draw_puzzle_hint(fonts_, g.layouts[0], "Clear every cell. R restarts, using this attempt");
  }
  if (g.bot && g.layouts.size() > 1) {
    const engine::Game& bot = g.bot->game();
    draw_hud(fonts_, HudBoard{&bot, &g.bot->feedback(), g.layouts[1], "bot", countdown}, now_s);
    if (bot.over()) {  // the bot finished (or topped out) while we play on
      draw_banner(fonts_, g.layouts[1], bot.state().finished ? "BOT FINISHED" : "BOT TOPPED OUT",
                  format_time(bot.stats().time_us));
    }
  }
  // Each choice below may end this game (and `g` with it): nothing reads `g` after one.
  switch (g.session->phase()) {
    case SessionPhase::kPaused:
      switch (draw_pause_menu(g.pause_menu, nav)) {
        case PauseChoice::kResume: g.session->resume(now_s, held_.buttons(settings_.bindings)); break;
        case PauseChoice::kRestart: restart(now_s); break;
        case PauseChoice::kQuit: quit_game(now_s); break;
        case PauseChoice::kNone: break;
      }
      break;
    case SessionPhase::kOver:
      if (g.puzzle) {
        puzzle_results_ui(now_s, nav);
      } else if (g.results) {
        switch (draw_results(g.results_menu, nav, *g.results)) {
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
