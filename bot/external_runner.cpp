#include "bot/external_runner.h"

#include <fmt/format.h>

#include <optional>
#include <ostream>

#include "bot/bot_process.h"
#include "bot/tbp_messages.h"

namespace sr::botcli {
namespace {

using tbp::BotMessage;

// The conversation with one external bot process.
class Session {
 public:
  Session(BotProcess& process, std::ostream& err) : process_(process), err_(err) {}

  bool send(const std::string& line) {
    if (process_.send(line)) return true;
    err_ << "stackrace-bot: the external bot stopped reading its input\n";
    return false;
  }

  // The next message of `kind`, skipping others the spec lets a bot send (info, unknown types). An error message,
  // an invalid line, end of output or the timeout end the session.
  std::ostream& err() { return err_; }

  std::optional<BotMessage> expect(BotMessage::Kind kind, const char* what, int timeout_ms) {
    for (;;) {
      bool timed_out = false;
      const auto line = process_.receive(timeout_ms, &timed_out);
      if (!line) {
        err_ << fmt::format("stackrace-bot: the external bot {} while we waited for {}\n",
                            timed_out ? "timed out" : "ended its output", what);
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

 private:
  BotProcess& process_;
  std::ostream& err_;
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

enum class GameEnd { kPlayed, kForfeit, kBroken };

GameEnd play_one(Session& session, const SoloOptions& options, std::uint64_t seed, RunTally& tally, std::ostream& out,
                 bool& keep_going) {
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
        tbp::Start start;
        start.hold = game.hold();
        start.queue.push_back(game.active()->piece);
        start.queue.insert(start.queue.end(), preview.begin(), preview.end());
        start.combo = game.state().combo + 1;
        start.back_to_back = game.state().b2b_chain > 0;
        start.board = &game.matrix();
        if (!session.send(tbp::encode_start(start))) return GameEnd::kBroken;
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
      if (!session.send(tbp::encode_suggest())) return GameEnd::kBroken;
      const auto suggestion = session.expect(BotMessage::Kind::kSuggestion, "a suggestion", kTbpSuggestMs);
      if (!suggestion) return GameEnd::kBroken;
      std::vector<bot::Target> targets;
      for (const tbp::Move& m : suggestion->moves) targets.push_back(bot::Target{tbp::to_state(m.location), m.spin});
      bot.set_targets(std::move(targets));
      step = bot.next(game);
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
  if (started && !session.send(tbp::encode_stop())) return GameEnd::kBroken;
  tally.add_game(seed, game, bot.counters(), end == GameEnd::kForfeit, out);
  if (options.on_game) {
    const PlayedGame played{&options.config, seed, &run, "external bot", end == GameEnd::kForfeit};
    keep_going = options.on_game(played);
  }
  return end;
}

}  // namespace

int run_external(const SoloOptions& options, const std::string& command, std::ostream& out, std::ostream& err) {
  std::string error;
  auto process = BotProcess::start(command, error);
  if (!process) {
    err << "stackrace-bot: cannot start the external bot: " << error << "\n";
    return 1;
  }
  Session session(*process, err);
  const auto info = session.expect(BotMessage::Kind::kInfo, "its info message", kTbpHandshakeMs);
  if (!info) return 1;
  err << fmt::format("stackrace-bot: external bot {} {} by {}\n", info->name.empty() ? "(unnamed)" : info->name,
                     info->version, info->author.empty() ? "(unknown)" : info->author);
  if (!session.send(tbp::encode_rules())) return 1;
  if (!session.expect(BotMessage::Kind::kReady, "ready", kTbpHandshakeMs)) return 1;

  RunTally tally(options);
  int status = 0;
  for (std::int64_t i = 0; i < options.games; ++i) {
    bool keep_going = true;
    const GameEnd end =
        play_one(session, options, options.first_seed + static_cast<std::uint64_t>(i), tally, out, keep_going);
    if (end == GameEnd::kBroken) {
      err << fmt::format("stackrace-bot: game with seed {} abandoned\n",
                         options.first_seed + static_cast<std::uint64_t>(i));
      status = 1;
      break;
    }
    if (!keep_going) {
      status = 1;
      break;
    }
  }
  (void)session.send(tbp::encode_quit());
  process->finish(2000);
  tally.print(out, "wall time, external bot included");
  return status;
}

}  // namespace sr::botcli
