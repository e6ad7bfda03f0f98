// The solo game in progress: starting, keys, pausing, ending, saving the replay, the in-game screen, and a puzzle
// stage's attempts.
#include "client/app/game_view.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>

#include "client/app/app.h"
#include "client/app/puzzles_view.h"
#include "client/settings/puzzle_progress_io.h"
#include "client/solo/modes.h"
#include "client/ui/hud.h"
#include "common/engine/puzzles.h"

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

bool GameView::restart_key(int key) const {
  for (int k : app_.settings().bindings.keys_for(Action::kRestart)) {
    if (k == key) return true;
  }
  return false;
}

// A new SoloGame every time (a restart too): the old one's results and menus go with it.
bool GameView::start(GamePick p, Screen back_to, double now_s) {
  engine::Handling h = to_engine(app_.settings().handling);
  h.are_us = p.config.handling.are_us;  // mode rules, not player preference
  h.line_clear_delay_us = p.config.handling.line_clear_delay_us;
  h.irs = p.config.handling.irs;
  h.ihs = p.config.handling.ihs;
  p.config.handling = h;
  if (auto checked = engine::check_config(p.config); !checked) {
    spdlog::error("cannot start the game: {}", checked.error());
    return false;
  }
  const std::uint64_t seed = app_.options().seed ? *app_.options().seed : fresh_seed();
  SoloGame& g = game_.emplace();
  g.back_to = back_to;
  g.results_menu.dock_right();
  g.session = std::make_unique<SoloSession>(
      p.config, seed, now_s, app_.options().countdown_ms.value_or(app_.settings().countdown_ms) / 1000.0);
  if (p.bot_pps) {
    if (auto bot = BotRacer::create(p.config, seed, *p.bot_pps); bot.ok()) {
      g.bot = std::move(bot.value());
    } else {
      spdlog::warn("racing without the bot: {}", bot.error());
    }
  }
  g.pick = p;
  g.best_before = app_.replays().personal_best(p.config, app_.settings().player_name);
  app_.held().release_all();
  g.started_unix_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  app_.show(Screen::kGame);
  app_.clear_menu_keys();          // menu keys typed ahead must not reach the pause or results menus
  ImGui::SetWindowFocus(nullptr);  // nothing of ImGui's may want the keyboard during play
  spdlog::info("{} game, seed {}", mode_label(p.config), seed);
  return true;
}

bool GameView::playing() const {
  const SessionPhase phase = game_ ? game_->session->phase() : SessionPhase::kOver;
  return phase == SessionPhase::kPlaying || phase == SessionPhase::kCountdown;
}

void GameView::key(const KeyEvent& ev) {
  // Keys go to the game only while ImGui does not want the keyboard (nothing of ImGui's takes focus in play;
  // releases always go through so the held state stays true).
  if (ImGui::GetIO().WantCaptureKeyboard && ev.action == GLFW_PRESS) return;
  game_key(ev);
}

void GameView::pad(const PadChange& c, double when_s) {
  if (!game_) return;
  if (c.down && c.input == GLFW_GAMEPAD_BUTTON_START) {
    game_key({GLFW_KEY_ESCAPE, GLFW_PRESS, 0, when_s});
    return;
  }
  app_.held().set_pad(c.input, c.down);
  bool restart_pressed = false;
  for (int p : app_.settings().bindings.pad_for(Action::kRestart)) restart_pressed |= c.down && p == c.input;
  if (restart_pressed) {
    restart(when_s);
    return;
  }
  game_->session->set_buttons(when_s, app_.held().buttons(app_.settings().bindings));
}

void GameView::focus_lost(double now_s) {
  // Losing focus mid-game pauses it.
  if (game_ && game_->session->phase() == SessionPhase::kPlaying) game_->session->pause(now_s);
}

void GameView::render(const BoardLook& look, float w, float h, double now_s) {
  if (!game_) return;
  layout(w, h);  // the UI may have just started or ended a game
  const SoloSession& session = *game_->session;
  BoardLook dimmed = look;
  dimmed.dim = session.phase() == SessionPhase::kPaused || session.phase() == SessionPhase::kOver;
  draw_board(app_.batch(), game_->layouts.at(0), session.game(), &session.feedback(), dimmed, now_s);
  if (game_->bot && game_->layouts.size() > 1) {
    draw_board(app_.batch(), game_->layouts[1], game_->bot->game(), &game_->bot->feedback(), dimmed, now_s);
  }
}

const std::vector<BoardLayout>& GameView::layouts() const { return game_ ? game_->layouts : ScreenView::layouts(); }

Activity GameView::activity() const { return playing() ? Activity::kAnimating : Activity::kIdle; }

void GameView::shutdown(double now_s) {
  if (game_ && game_->session->phase() != SessionPhase::kOver) quit_game(now_s);
}

void GameView::game_key(const KeyEvent& ev) {
  if (!game_ || ev.action == GLFW_REPEAT) return;
  const bool press = ev.action == GLFW_PRESS;
  app_.held().set_key(ev.key, press);
  const SessionPhase phase = game_->session->phase();
  if (press && restart_key(ev.key)) {  // playing, paused ("Restart (R)") or over ("Retry (R)")
    app_.suppress_nav();
    restart(ev.time_s);
    return;
  }
  if (phase == SessionPhase::kCountdown || phase == SessionPhase::kPlaying) {
    if (press && ev.key == GLFW_KEY_ESCAPE) {
      app_.suppress_nav();
      if (phase == SessionPhase::kCountdown) {
        app_.show(game_->back_to);
        game_.reset();  // nothing was played: nothing to save
        if (app_.options().exit_after_game) app_.quit();
      } else {
        game_->session->pause(ev.time_s);
      }
      return;
    }
    game_->session->set_buttons(ev.time_s, app_.held().buttons(app_.settings().bindings));
  }
}

void GameView::tick(double now_s) {
  if (!game_) return;
  SoloSession& session = *game_->session;
  session.tick(now_s);
  if (const auto beep = game_->beeps.at(session.countdown_left(now_s))) app_.sound().play(*beep);
  app_.sound().play(session.take_cues());  // also those of this frame's keys, pressed a moment ago in input()
  if (game_->bot && session.phase() == SessionPhase::kPlaying) game_->bot->advance_to(session.clock_us(), now_s);
  if (session.phase() == SessionPhase::kOver && !game_->results) end_game(now_s);
}

void GameView::end_game(double /*now_s*/) {
  SoloGame& g = *game_;
  const auto& game = g.session->game();
  const BotRacer* bot = g.bot.get();
  SoloRecord record = record_of(*g.session, app_.settings().player_name, g.started_unix_ms);
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
  if (v.new_best) app_.sound().play(audio::Cue::kPersonalBest);
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
  const bool store = worth_storing(record, g.puzzle ? 0 : app_.settings().keep_given_up_after_s);
  const SaveOutcome saved = store ? app_.replays().save(record) : SaveOutcome{};
  if (!store) {
    v.saved = record.run.log().empty()
                  ? "Not stored: nothing was played"
                  : "Not stored: given up in its first " + std::to_string(app_.settings().keep_given_up_after_s) +
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
  if (app_.options().exit_after_game && !restarting_) app_.quit();
}

void GameView::quit_game(double now_s) {
  if (!game_) return;
  if (game_->session->phase() != SessionPhase::kOver) {
    game_->session->abandon(now_s);
    end_game(now_s);
  }
  if (game_->puzzle) leave_puzzle();
  app_.show(game_->back_to);
  game_.reset();
}

void GameView::restart(double now_s) {
  if (!game_) return;
  if (game_->puzzle) {
    restart_puzzle(now_s);
    return;
  }
  SoloSession& session = *game_->session;
  if (session.phase() != SessionPhase::kOver &&
      (session.phase() != SessionPhase::kCountdown || !session.run().log().empty())) {
    session.abandon(now_s);
    restarting_ = true;  // a quick restart is not the end of the session
    end_game(now_s);
    restarting_ = false;
  }
  start(game_->pick, game_->back_to, now_s);  // copies: the new game replaces this one
}

void GameView::layout(float w, float h) {
  if (!game_) return;
  // The results (solo, puzzle, race the bot) dock at the right: the boards move left of them, uncovered.
  const bool results = game_->session->phase() == SessionPhase::kOver;
  const float panel = results ? docked_panel_width(w, h, ImGui::GetFontSize()) : 0.0f;
  solo_layouts(game_->layouts, game_->bot ? 2 : 1, w - panel, h, app_.settings().visuals.board_scale);
}

void GameView::ui(double now_s, const MenuNav& nav) {
  if (!game_) {
    app_.show(Screen::kMain);  // not reached: leaving a game always changes the screen
    return;
  }
  const ImGuiIO& io = ImGui::GetIO();
  layout(io.DisplaySize.x, io.DisplaySize.y);
  SoloGame& g = *game_;
  const double countdown = g.session->countdown_left(now_s);
  const std::string name = g.puzzle
                               ? puzzle_board_name(g.puzzle->stage, g.puzzle->attempt, g.session->game().stats().pieces)
                               : app_.settings().player_name;
  draw_hud(app_.fonts(), HudBoard{&g.session->game(), &g.session->feedback(), g.layouts[0], name, countdown}, now_s);
  if (g.puzzle && g.session->phase() != SessionPhase::kOver) {
    draw_puzzle_hint(app_.fonts(), g.layouts[0], "Clear every cell. R restarts, using this attempt");
  }
  if (g.bot && g.layouts.size() > 1) {
    const engine::Game& bot = g.bot->game();
    draw_hud(app_.fonts(), HudBoard{&bot, &g.bot->feedback(), g.layouts[1], "bot", countdown}, now_s);
    if (bot.over()) {  // the bot finished (or topped out) while we play on
      draw_banner(app_.fonts(), g.layouts[1], bot.state().finished ? "BOT FINISHED" : "BOT TOPPED OUT",
                  format_time(bot.stats().time_us));
    }
  }
  // Each choice below may end this game (and `g` with it): nothing reads `g` after one.
  switch (g.session->phase()) {
    case SessionPhase::kPaused:
      switch (draw_pause_menu(g.pause_menu, nav)) {
        case PauseChoice::kResume: g.session->resume(now_s, app_.held().buttons(app_.settings().bindings)); break;
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

void GameView::start_puzzle(std::size_t stage, int attempt, double now_s) {
  const auto stages = engine::puzzle_stages();
  if (stage >= stages.size() || !app_.puzzles().playable(stage)) return;
  if (!start(GamePick{engine::make_puzzle(stages[stage]), std::nullopt}, Screen::kPuzzles, now_s)) return;
  game_->puzzle = PuzzleAttempt{stage, attempt, std::nullopt, std::nullopt};
  game_->best_before.reset();  // stages have no personal bests
  spdlog::info("puzzle stage {} ({}), attempt {} of {}", stage + 1, stages[stage].name, attempt,
               engine::kPuzzleAttempts);
}

void GameView::record_puzzle(std::size_t stage, StageOutcome outcome) {
  if (!app_.puzzles().record(stage, outcome)) return;
  spdlog::info("puzzle stage {}: {}", stage + 1, outcome_text(outcome));
  if (auto saved = save_puzzle_progress(app_.paths().puzzles_file(), app_.puzzles()); !saved) {
    spdlog::error("{}", saved.error());
    app_.show_notice("Puzzle progress not saved", saved.error());
  }
}

void GameView::end_puzzle_attempt(const SaveOutcome& saved, bool stored) {
  SoloGame& g = *game_;
  PuzzleAttempt& p = *g.puzzle;
  const SoloSession& session = *g.session;
  // An attempt with no button pressed that did not end by itself (paused and left untouched) does not count.
  if (session.abandoned() && session.run().log().empty()) return;
  const bool cleared = engine::puzzle_cleared(session.game());
  p.end = judge_attempt(p.attempt, cleared);
  record_puzzle(p.stage, outcome_of(*p.end, p.attempt));
  const auto& stats = session.game().stats();
  PuzzleResultsView v;
  v.end = *p.end;
  v.stage = "Stage " + std::to_string(p.stage + 1) + ": " + std::string(engine::puzzle_stages()[p.stage].name) +
            " \xC2\xB7 attempt " + std::to_string(p.attempt) + " of " + std::to_string(engine::kPuzzleAttempts);
  v.attempt = p.attempt;
  v.has_next = p.stage + 1 < app_.puzzles().stage_count();
  int cells = 0;
  for (int y = 0; y < engine::kMatrixHeight; ++y) {
    for (int x = 0; x < engine::kMatrixWidth; ++x) cells += session.game().matrix().at(x, y) != engine::Piece::kNone;
  }
  const auto pieces = static_cast<std::int64_t>(session.game().config().fixed_sequence.size());
  v.stats = {{"Pieces placed", format_count(stats.pieces) + " of " + format_count(pieces)},
             {"Cells left", format_count(cells)},
             {"Lines", format_count(stats.lines)},
             {"Time", format_time(stats.time_us)},
             {"How it ended", session.abandoned()                                          ? "restarted or left"
                              : g.session->game().state().top_out != engine::TopOut::kNone ? "topped out"
                                                                                           : "every piece locked"}};
  if (!stored) {
    v.saved = "Not stored: nothing was played";
  } else if (saved.error.empty()) {
    v.saved = "Replay saved: " + saved.path.string();
  } else {
    v.saved = "Replay not saved: " + saved.error;
  }
  p.results = std::move(v);
  spdlog::info("puzzle attempt: {}", p.end == AttemptEnd::kCleared     ? "cleared"
                                     : p.end == AttemptEnd::kRetryLeft ? "not cleared, one retry left"
                                                                       : "failed");
}

void GameView::leave_puzzle() {
  const PuzzleAttempt& p = *game_->puzzle;
  if (p.end == AttemptEnd::kRetryLeft) record_puzzle(p.stage, StageOutcome::kFailed);  // the retry given up
}

// R, or Retry on the results. While an attempt is played (and counts: a button was pressed) it ends there, used up:
// after attempt 1 attempt 2 starts at once; after the last one the results say "Failed". An attempt with nothing
// pressed starts again as the same attempt. On the results: after "one retry left" the retry starts; after a clear
// or a failure a fresh try starts at attempt 1.
void GameView::restart_puzzle(double now_s) {
  SoloSession& session = *game_->session;
  const std::size_t stage = game_->puzzle->stage;
  const int attempt = game_->puzzle->attempt;
  if (session.phase() != SessionPhase::kOver) {
    if (session.run().log().empty()) {
      if (session.phase() != SessionPhase::kCountdown) session.abandon(now_s);
      start_puzzle(stage, attempt, now_s);
      return;
    }
    session.abandon(now_s);
    restarting_ = true;
    end_game(now_s);
    restarting_ = false;
    if (game_->puzzle->end == AttemptEnd::kRetryLeft) start_puzzle(stage, attempt + 1, now_s);
    return;  // failed: the results stay up
  }
  const std::optional<AttemptEnd> end = game_->puzzle->end;
  start_puzzle(stage, end == AttemptEnd::kRetryLeft ? attempt + 1 : 1, now_s);
}

void GameView::puzzle_results_ui(double now_s, const MenuNav& nav) {
  SoloGame& g = *game_;
  if (!g.puzzle->results) {  // an attempt that did not count: nothing to show, back to the list
    quit_game(now_s);
    return;
  }
  switch (draw_puzzle_results(g.results_menu, nav, *g.puzzle->results)) {
    case PuzzleResultsChoice::kNext: {
      const std::size_t next = g.puzzle->stage + 1;
      app_.view<PuzzlesView>(Screen::kPuzzles).select_next();
      start_puzzle(next, 1, now_s);
      break;
    }
    case PuzzleResultsChoice::kRetry: restart(now_s); break;
    case PuzzleResultsChoice::kBack:
      quit_game(now_s);
      app_.view<PuzzlesView>(Screen::kPuzzles).select_next();
      break;
    case PuzzleResultsChoice::kNone: break;
  }
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

}  // namespace sr::client
