#include "bot/external_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <ostream>
#include <thread>

#include "bot/tbp_messages.h"
#include "bot/tbp_session.h"

namespace sr::botcli {
namespace {

using tbp::BotMessage;

// Why a game ended in a forfeit: the moves, so that a forfeit can be checked against the replay.
void report_forfeit(std::ostream& err, std::uint64_t seed, const engine::Game& game,
                    const std::vector<tbp::Move>& moves) {
  err << fmt::format(
      "stackrace-bot: seed {} piece {} at {}s: the bot forfeits, none of its {} moves can be reached:{}\n", seed,
      game.stats().pieces + 1, seconds_text(game.now()), moves.size(), moves_text(moves));
}

enum class GameEnd { kPlayed, kForfeit, kSlowAnswer, kBroken };

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

GameEnd play_one(TbpSession& session, const SoloOptions& options, std::uint64_t seed, RunTally& tally,
                 PlanningTimes& planning, std::ostream& out, bool& keep_going) {
  engine::RacerRun run(options.config, seed);
  const engine::Game& game = run.game();
  bot::Bot bot(options.settings);
  session.new_game();
  GameEnd end = GameEnd::kPlayed;
  for (;;) {
    std::optional<bot::Step> step;
    if (bot.needs_decision(game)) {
      const std::int64_t t0 = wall_ns();
      if (!session.tell(game)) return GameEnd::kBroken;
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
      if (const auto& played = bot.played()) session.played(tbp::Move{tbp::to_location(played->state), played->spin});
    } else {
      step = bot.next(game);
    }
    if (!step) break;
    if (run.update(step->time_us, step->buttons).error != engine::UpdateError::kOk) return GameEnd::kBroken;
  }
  const bool lost = end == GameEnd::kForfeit || end == GameEnd::kSlowAnswer;
  if (end != GameEnd::kSlowAnswer && !session.stop()) return GameEnd::kBroken;
  tally.add_game(seed, game, bot.counters(), lost, out, end == GameEnd::kSlowAnswer ? "slow-answer" : "");
  if (options.on_game) {
    const PlayedGame played{&options.config, seed, &run, "external bot", lost};
    keep_going = options.on_game(played);
  }
  return end;
}

}  // namespace

int run_external(const SoloOptions& options, const ExternalOptions& external, std::ostream& out, std::ostream& err) {
  TbpSession session(external, err);
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
