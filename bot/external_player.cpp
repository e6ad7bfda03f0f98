#include "bot/external_player.h"

#include <fmt/format.h>

#include <ostream>

#include "bot/solo_runner.h"

namespace sr::botcli {

using tbp::BotMessage;

ExternalPlayer::ExternalPlayer(ExternalOptions options, bot::BotSettings settings, std::ostream& err)
    : options_(std::move(options)), settings_(std::move(settings)), err_(err), session_(options_, err) {}

ExternalPlayer::~ExternalPlayer() { session_.close(asked_.has_value()); }

bool ExternalPlayer::open(const engine::GameConfig& config) {
  if (session_.is_open()) session_.close(false);
  if (session_.open(config)) return true;
  session_.close(true);
  broken_ = true;
  return false;
}

void ExternalPlayer::new_race() {
  if (asked_) {
    // The last game's answer never came back within its time: that game is over, and the bot is started afresh
    // rather than reading its late answer as this game's.
    session_.close(true);
    asked_.reset();
  } else if (bot_ && !ended_ && session_.is_open() && !session_.stop()) {
    broken_ = true;
  }
  ++race_;
  bot_.emplace(settings_);
  session_.new_game();
  lost_ = ended_ = false;
  suggest_at_.reset();
  race_note_.clear();
}

std::optional<bot::Step> ExternalPlayer::next(const engine::Game& game) {
  if (broken_ || !bot_) return std::nullopt;
  const Clock::time_point now = Clock::now();
  if (asked_) {
    BotMessage answer;
    switch (session_.poll(BotMessage::Kind::kSuggestion, "a suggestion", answer)) {
      case TbpSession::Poll::kFailed: broken_ = true; return std::nullopt;
      case TbpSession::Poll::kWaiting:
        if (now < asked_->deadline) return std::nullopt;
        // Its late answer would be read as the answer to a later suggest: the bot is ended, and started afresh
        // when the game is over.
        asked_.reset();
        session_.close(true);
        if (!game.over() && !lost_) {
          ++counters_.slow;
          forfeit(fmt::format("piece {} at {}s: the external bot did not answer suggest within {} ms",
                              game.stats().pieces + 1, seconds_text(game.now()), options_.answer_ms));
        } else {
          err_ << fmt::format(
              "stackrace-bot: the external bot did not answer its last suggest of the game within {} ms; it is "
              "restarted\n",
              options_.answer_ms);
        }
        return std::nullopt;
      case TbpSession::Poll::kArrived: break;
    }
    const Asked asked = *asked_;
    asked_.reset();
    if (asked.race == race_ && !lost_ && !game.over() && game.stats().pieces == asked.locks &&
        bot_->needs_decision(game)) {
      return play(game, answer);
    }
    // Its piece locked by gravity (or the game ended) before the answer came: the answer is for a position gone.
    if (asked.race == race_ && !lost_ && !game.over()) ++counters_.stale;
  }
  if (game.over()) {
    end_game(game);
    return std::nullopt;
  }
  if (lost_) return std::nullopt;
  if (!bot_->needs_decision(game)) return bot_->next(game);
  if (!session_.is_open() || session_.generator() != game.config().generator) {
    if (!open(game.config())) return std::nullopt;
    session_.new_game();
  }
  if (!suggest_at_ || game.stats().pieces != told_locks_) {
    // A new position (or the piece locked by gravity while the bot thought): tell it, then let the bot think.
    if (!session_.tell(game)) {
      broken_ = true;
      return std::nullopt;
    }
    told_locks_ = game.stats().pieces;
    suggest_at_ = now + std::chrono::milliseconds(options_.think_ms);
  }
  if (now < *suggest_at_) return std::nullopt;
  suggest_at_.reset();
  if (!session_.send(tbp::encode_suggest())) {
    broken_ = true;
    return std::nullopt;
  }
  ++counters_.suggestions;
  asked_ = Asked{now + std::chrono::milliseconds(options_.answer_ms), race_, game.stats().pieces};
  return std::nullopt;
}

std::optional<bot::Step> ExternalPlayer::play(const engine::Game& game, const BotMessage& answer) {
  std::vector<bot::Target> targets;
  for (const tbp::Move& m : answer.moves) targets.push_back(bot::Target{tbp::to_state(m.location), m.spin});
  bot_->set_targets(std::move(targets));
  // Planned from the game as it is now: the piece may have fallen while the bot thought.
  auto step = bot_->next(game);
  if (bot_->forfeited()) {
    ++counters_.unreachable;
    forfeit(fmt::format("piece {} at {}s: none of its {} moves can be reached any more:{}", game.stats().pieces + 1,
                        seconds_text(game.now()), answer.moves.size(), moves_text(answer.moves)));
    return std::nullopt;
  }
  if (const auto& played = bot_->played()) {
    ++counters_.played;
    session_.played(tbp::Move{tbp::to_location(played->state), played->spin});
  }
  return step;
}

void ExternalPlayer::forfeit(const std::string& why) {
  lost_ = true;
  race_note_ = why;
  err_ << "stackrace-bot: the external bot forfeits this game (no more keys are pressed; it runs to its end): " << why
       << "\n";
}

void ExternalPlayer::end_game(const engine::Game& game) {
  if (ended_) return;
  ended_ = true;
  if (session_.is_open()) {
    if (!session_.stop()) broken_ = true;
    return;
  }
  // A bot that answered too slowly was ended: the next game gets a fresh one.
  (void)open(game.config());
}

std::string ExternalPlayer::counters_text() const {
  const ExternalPlayerCounters& c = counters_;
  return fmt::format(
      "external bot: {} suggestions, {} played, {} forfeits ({} unreachable, {} slow answers), {} late answers "
      "dropped, {} fresh starts",
      c.suggestions, c.played, c.unreachable + c.slow, c.unreachable, c.slow, c.stale, session_.restarts());
}

}  // namespace sr::botcli
