// An external Tetris Bot Protocol bot choosing the placements of a game on a server (`stackrace-bot --server ...
// --external CMD`): a Player (online_player.h) that an OnlineBot drives instead of the built-in bot.
//
// Online the race clock runs in real time: while the bot thinks, gravity keeps acting on the piece. On each new
// piece the bot is told the position (tbp_session.h), gets --think-ms of wall time, and is sent suggest; its answer
// is awaited without blocking (each next() only looks at what has arrived). When it arrives, the key presses are
// planned from the game as it is then (the piece may have fallen meanwhile; Bot::set_targets, common/bot/reach.h),
// trying the suggested moves in order.
//
// # Losing a game (a forfeit)
// If none of the moves can be reached any more, or the answer takes longer than --answer-ms, the bot has forfeited
// that game: no more keys are pressed, the game runs to its end by itself (pieces lock where gravity takes them), and
// race_note() says why. A slow bot is restarted when that game is over, as in solo games. An answer that comes after
// its piece locked by gravity (a long --answer-ms) is dropped; the bot is then told the position afresh (start).
//
// # Failing
// A bot that ends its output, reports an error or sends a line that is not TBP breaks the player (broken()); why is
// written on `err`. The caller gives up the run.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "bot/online_player.h"
#include "bot/tbp_session.h"

namespace sr::botcli {

struct ExternalPlayerCounters {
  std::int64_t suggestions = 0;  // suggest messages sent
  std::int64_t played = 0;       // suggestions whose move was played
  std::int64_t unreachable = 0;  // forfeits: none of the suggested moves could be reached
  std::int64_t slow = 0;         // forfeits: no answer within --answer-ms
  std::int64_t stale = 0;        // answers dropped because their piece had locked by gravity meanwhile
};

class ExternalPlayer final : public Player {
 public:
  // `settings`: the key timing and pace the plans keep (as in solo games). Diagnostics go to `err`, which must
  // outlive the player.
  ExternalPlayer(ExternalOptions options, bot::BotSettings settings, std::ostream& err);
  ~ExternalPlayer() override;

  // Starts the bot for games of `config`'s randomizer (a game of another randomizer restarts it). False (and why,
  // on err) if the bot cannot be started or does not answer the handshake.
  bool open(const engine::GameConfig& config);

  void new_race() override;
  [[nodiscard]] std::optional<bot::Step> next(const engine::Game& game) override;
  [[nodiscard]] std::int64_t decisions() const override { return counters_.played; }
  [[nodiscard]] bool broken() const override { return broken_; }
  // While the bot thinks or its answer is awaited: its pipe is looked at every millisecond.
  [[nodiscard]] std::int64_t us_until_ready() const override { return kPollUs; }
  static constexpr std::int64_t kPollUs = 1000;

  // Why the bot lost the current (or last) race's game, or empty when it has not forfeited it.
  [[nodiscard]] const std::string& race_note() const { return race_note_; }
  [[nodiscard]] const ExternalPlayerCounters& counters() const { return counters_; }
  // "external bot: 270 suggestions, 269 played, 0 forfeits (0 unreachable, 0 slow answers), 0 late answers dropped,
  // 0 fresh starts": the counters and restarts() as the run's last line prints them.
  [[nodiscard]] std::string counters_text() const;
  // How often the bot was told a position afresh (start) because its game went where it was not told.
  [[nodiscard]] std::int64_t restarts() const { return session_.restarts(); }

 private:
  using Clock = std::chrono::steady_clock;
  // A suggest sent and not answered yet.
  struct Asked {
    Clock::time_point deadline;
    std::uint64_t race = 0;
    std::int64_t locks = 0;  // the game's locked pieces when it was sent
  };

  std::optional<bot::Step> play(const engine::Game& game, const tbp::BotMessage& answer);
  void forfeit(const std::string& why);
  void end_game(const engine::Game& game);

  ExternalOptions options_;
  bot::BotSettings settings_;
  std::ostream& err_;
  TbpSession session_;
  std::optional<bot::Bot> bot_;
  std::uint64_t race_ = 0;
  bool lost_ = false;   // this race's game is forfeited
  bool ended_ = false;  // this race's game is over and the bot was told so
  bool broken_ = false;
  std::optional<Clock::time_point> suggest_at_;  // the position was told; suggest goes out then
  std::int64_t told_locks_ = 0;                  // the game's locked pieces when it was told
  std::optional<Asked> asked_;
  std::string race_note_;
  ExternalPlayerCounters counters_;
};

}  // namespace sr::botcli
