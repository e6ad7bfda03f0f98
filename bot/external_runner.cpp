#include "bot/external_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <ostream>
#include <thread>

#include "bot/bot_process.h"
#include "bot/tbp_messages.h"

namespace sr::botcli {
namespace {

using tbp::BotMessage;

// The conversation with one external bot process, which it starts (and restarts after a slow answer).
class Session {
 public:
  Session(const ExternalOptions& options, std::ostream& err) : options_(options), err_(err) {}

  // Starts the bot and goes through info, rules and ready. False (and why, on err) if that fails.
  bool open(const engine::GameConfig& config) {
    std::string error;
    process_ = BotProcess::start(options_.command, error);
    if (!process_) {
      err_ << "stackrace-bot: cannot start the external bot: " << error << "\n";
      return false;
    }
    const auto info = expect(BotMessage::Kind::kInfo, "its info message", kTbpHandshakeMs);
    if (!info) return false;
    err_ << fmt::format("stackrace-bot: external bot {} {} by {}\n", info->name.empty() ? "(unnamed)" : info->name,
                        info->version, info->author.empty() ? "(unknown)" : info->author);
    if (!send(tbp::encode_rules(tbp::randomizer_name(config.generator)))) return false;
    return expect(BotMessage::Kind::kReady, "ready", kTbpHandshakeMs).has_value();
  }

  // Says goodbye, or (`kill`) ends a bot that stopped answering at once.
  void close(bool kill) {
    if (!process_) return;
    if (!kill) (void)send(tbp::encode_quit());
    process_->finish(kill ? 0 : 2000);
    process_.reset();
  }

  bool send(const std::string& line) {
    if (process_ && process_->send(line)) return true;
    err_ << "stackrace-bot: the external bot stopped reading its input\n";
    return false;
  }

  // The next message of `kind`, skipping others the spec lets a bot send (info, unknown types). An error message,
  // an invalid line, end of output or the timeout (`timed_out` tells) end the session.
  std::optional<BotMessage> expect(BotMessage::Kind kind, const char* what, int timeout_ms, bool* timed_out = nullptr) {
    if (timed_out) *timed_out = false;
    for (;;) {
      bool late = false;
      const auto line = process_ ? process_->receive(timeout_ms, &late) : std::nullopt;
      if (!line) {
        if (timed_out) *timed_out = late;
        if (!late || !timed_out) {
          err_ << fmt::format("stackrace-bot: the external bot {} while we waited for {}\n",
                              late ? "timed out" : "ended its output", what);
        }
        return std::nullopt;
      }
      if (line->empty()) continue;
      BotMessage m = tbp::decode_bot_message(*line);
      if (m.kind == kind) return m;
      if (m.kind == BotMessage::Kind::kError) {
        err_ << fmt::format("stackrace-bot: the external bot reports an error: {}\n", m.reason);
        return std::nullopt;
      }
      if (m.kind == BotMessage::Kind::kInvalid) {
        err_ << fmt::format("stackrace-bot: the external bot sent a line that is not TBP ({}): {}\n", m.reason,
                            line->substr(0, 200));
        return std::nullopt;
      }
    }
  }

  [[nodiscard]] std::ostream& err() { return err_; }
  [[nodiscard]] const ExternalOptions& options() const { return options_; }

 private:
  const ExternalOptions& options_;
  std::ostream& err_;
  std::optional<BotProcess> process_;
};

// Pieces taken from the queue so far (locked, held, out now), so the index of the first preview piece.
std::int64_t taken(const engine::Game& game) {
  return game.stats().pieces + (game.hold() != engine::Piece::kNone ? 1 : 0) + (game.active() ? 1 : 0);
}

// Why a game ended in a forfeit: the moves, so that a forfeit can be checked against the replay.
void report_forfeit(std::ostream& err, std::uint64_t seed, const engine::Game& game,
                    const std::vector<tbp::Move>& moves) {
  std::string list;
  for (const tbp::Move& m : moves) {
    list += fmt::format(" {}-{}@({},{}){}", engine::piece_letter(m.location.piece),
                        tbp::orientation_name(m.location.orientation), m.location.x, m.location.y,
                        m.spin == engine::SpinKind::kNone ? "" : std::string("/") + tbp::spin_name(m.spin));
  }
  err << fmt::format(
      "stackrace-bot: seed {} piece {} at {}s: the bot forfeits, none of its {} moves can be reached:{}\n", seed,
      game.stats().pieces + 1, seconds_text(game.now()), moves.size(), list.empty() ? " (no moves)" : list);
}

enum class GameEnd { kPlayed, kForfeit, kSlowAnswer, kBroken };

// The start message: the position, and the randomizer extension's bag state when the game deals 7-bags.
tbp::Start start_of(const engine::Game& game) {
  tbp::Start start;
  start.hold = game.hold();
  start.queue.push_back(game.active()->piece);
  const auto preview = game.preview();
  start.queue.insert(start.queue.end(), preview.begin(), preview.end());
  start.combo = game.state().combo + 1;
  start.back_to_back = game.state().b2b_chain > 0;
  start.board = &game.matrix();
  // Without a held piece, the queue is the sequence from the active piece on (which is piece taken - 1).
  if (game.config().generator == engine::GeneratorKind::kBag7 && game.hold() == engine::Piece::kNone) {
    start.bag_state = tbp::seven_bag_state(taken(game) - 1, start.queue);
  }
  return start;
}

// CPU time of this thread spent in Bot::next while it turned a suggestion into key presses.
struct PlanningTimes {
  std::vector<std::int64_t> ns;
  void print(std::ostream& out) {
    if (ns.empty()) return;
    std::sort(ns.begin(), ns.end());
    const auto at = [&](std::size_t pct) { return ns[std::min(ns.size() - 1, ns.size() * pct / 100)]; };
    out << fmt::format("planning: moves={} median={}ms p99={}ms max={}ms (cpu time finding the key presses)\n",
                       ns.size(), milli_text(at(50) / 1000, 3), milli_text(at(99) / 1000, 3),
                       milli_text(ns.back() / 1000, 3));
  }
};

GameEnd play_one(Session& session, const SoloOptions& options, std::uint64_t seed, RunTally& tally,
                 PlanningTimes& planning, std::ostream& out, bool& keep_going) {
  engine::RacerRun run(options.config, seed);
  const engine::Game& game = run.game();
  bot::Bot bot(options.settings);
  std::optional<tbp::Move> to_play;
  std::int64_t known = 0;  // pieces the external bot has been shown
  bool started = false;
  GameEnd end = GameEnd::kPlayed;
  for (;;) {
    std::optional<bot::Step> step;
    if (bot.needs_decision(game)) {
      const std::int64_t t0 = wall_ns();
      const auto preview = game.preview();
      if (!started) {
        if (!session.send(tbp::encode_start(start_of(game)))) return GameEnd::kBroken;
        known = taken(game) + static_cast<std::int64_t>(preview.size());
        started = true;
      } else {
        if (to_play && !session.send(tbp::encode_play(*to_play))) return GameEnd::kBroken;
        to_play.reset();
        const std::int64_t first_preview = taken(game);
        for (; known < first_preview + static_cast<std::int64_t>(preview.size()); ++known) {
          const auto i = static_cast<std::size_t>(known - first_preview);
          if (!session.send(tbp::encode_new_piece(preview[i]))) return GameEnd::kBroken;
        }
      }
      // Thinking time: a bot asked at once may not have searched yet (and may answer with no moves).
      if (const int think = session.options().think_ms; think > 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(think));
      }
      if (!session.send(tbp::encode_suggest())) return GameEnd::kBroken;
      bool slow = false;
      const int answer_ms = session.options().answer_ms;
      const auto suggestion = session.expect(BotMessage::Kind::kSuggestion, "a suggestion", answer_ms, &slow);
      if (!suggestion && slow) {
        session.err() << fmt::format(
            "stackrace-bot: seed {} piece {}: the external bot did not answer suggest within {} ms; the game counts "
            "as a forfeit (slow answer), and the bot is restarted for the next game\n",
            seed, game.stats().pieces + 1, answer_ms);
        end = GameEnd::kSlowAnswer;
        break;
      }
      if (!suggestion) return GameEnd::kBroken;
      std::vector<bot::Target> targets;
      for (const tbp::Move& m : suggestion->moves) targets.push_back(bot::Target{tbp::to_state(m.location), m.spin});
      bot.set_targets(std::move(targets));
      const std::int64_t cpu0 = thread_cpu_ns();
      step = bot.next(game);
      planning.ns.push_back(thread_cpu_ns() - cpu0);
      tally.add_decision(wall_ns() - t0);
      if (bot.forfeited()) {
        report_forfeit(session.err(), seed, game, suggestion->moves);
        end = GameEnd::kForfeit;
        break;
      }
      // The move as it was played: its cells in the orientation the piece locked in, and the spin the engine
      // scored, which is what the bot must continue from.
      if (const auto& played = bot.played()) to_play = tbp::Move{tbp::to_location(played->state), played->spin};
    } else {
      step = bot.next(game);
    }
    if (!step) break;
    if (run.update(step->time_us, step->buttons).error != engine::UpdateError::kOk) return GameEnd::kBroken;
  }
  const bool lost = end == GameEnd::kForfeit || end == GameEnd::kSlowAnswer;
  if (end != GameEnd::kSlowAnswer && started && !session.send(tbp::encode_stop())) return GameEnd::kBroken;
  tally.add_game(seed, game, bot.counters(), lost, out, end == GameEnd::kSlowAnswer ? "slow-answer" : "");
  if (options.on_game) {
    const PlayedGame played{&options.config, seed, &run, "external bot", lost};
    keep_going = options.on_game(played);
  }
  return end;
}

}  // namespace

int run_external(const SoloOptions& options, const ExternalOptions& external, std::ostream& out, std::ostream& err) {
  Session session(external, err);
  if (!session.open(options.config)) return 1;
  RunTally tally(options);
  PlanningTimes planning;
  int status = 0;
  for (std::int64_t i = 0; i < options.games; ++i) {
    bool keep_going = true;
    const std::uint64_t seed = options.first_seed + static_cast<std::uint64_t>(i);
    const GameEnd end = play_one(session, options, seed, tally, planning, out, keep_going);
    if (end == GameEnd::kBroken) {
      err << fmt::format("stackrace-bot: game with seed {} abandoned\n", seed);
      status = 1;
      break;
    }
    if (!keep_going) {
      status = 1;
      break;
    }
    if (end == GameEnd::kSlowAnswer) {
      // Its late answer would be read as the answer to the next game's first suggest: start afresh instead.
      session.close(true);
      if (i + 1 < options.games && !session.open(options.config)) {
        status = 1;
        break;
      }
    }
  }
  session.close(false);
  tally.print(out, "wall time, external bot included");
  planning.print(out);
  return status;
}

}  // namespace sr::botcli
