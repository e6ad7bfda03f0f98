#include "bot/tbp_session.h"

#include <fmt/format.h>

#include <ostream>

namespace sr::botcli {

using tbp::BotMessage;

std::int64_t pieces_taken(const engine::Game& game) {
  return game.stats().pieces + (game.hold() != engine::Piece::kNone ? 1 : 0) + (game.active() ? 1 : 0);
}

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
    start.bag_state = tbp::seven_bag_state(pieces_taken(game) - 1, start.queue);
  }
  return start;
}

std::string moves_text(const std::vector<tbp::Move>& moves) {
  std::string list;
  for (const tbp::Move& m : moves) {
    list += fmt::format(" {}-{}@({},{}){}", engine::piece_letter(m.location.piece),
                        tbp::orientation_name(m.location.orientation), m.location.x, m.location.y,
                        m.spin == engine::SpinKind::kNone ? "" : std::string("/") + tbp::spin_name(m.spin));
  }
  return list.empty() ? " (no moves)" : list;
}

bool TbpSession::open(const engine::GameConfig& config) {
  auto started = BotProcess::start(options_.command);
  if (!started) {
    err_ << "stackrace-bot: cannot start the external bot: " << started.error() << "\n";
    return false;
  }
  process_ = std::move(started.value());
  const auto info = expect(BotMessage::Kind::kInfo, "its info message", kTbpHandshakeMs);
  if (!info) return false;
  err_ << fmt::format("stackrace-bot: external bot {} {} by {}\n", info->name.empty() ? "(unnamed)" : info->name,
                      info->version, info->author.empty() ? "(unknown)" : info->author);
  generator_ = config.generator;
  if (!send(tbp::encode_rules(tbp::randomizer_name(config.generator)))) return false;
  return expect(BotMessage::Kind::kReady, "ready", kTbpHandshakeMs).has_value();
}

void TbpSession::close(bool kill) {
  if (!process_) return;
  if (!kill) (void)send(tbp::encode_quit());
  process_->finish(kill ? 0 : 2000);
  process_.reset();
}

bool TbpSession::send(const std::string& line) {
  if (process_ && process_->send(line)) return true;
  err_ << "stackrace-bot: the external bot stopped reading its input\n";
  return false;
}

std::optional<BotMessage> TbpSession::expect(BotMessage::Kind kind, const char* what, int timeout_ms, bool* timed_out) {
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

TbpSession::Poll TbpSession::poll(BotMessage::Kind kind, const char* what, BotMessage& out) {
  bool waiting = false;
  auto m = expect(kind, what, 0, &waiting);
  if (m) {
    out = std::move(*m);
    return Poll::kArrived;
  }
  return waiting ? Poll::kWaiting : Poll::kFailed;
}

void TbpSession::new_game() {
  started_ = false;
  to_play_.reset();
}

bool TbpSession::tell(const engine::Game& game) {
  const auto preview = game.preview();
  if (started_ && game.stats().pieces != locks_known_) {
    // Pieces locked that the bot was not told of: its board is wrong, so it starts again from this position.
    ++restarts_;
    if (!send(tbp::encode_stop())) return false;
    started_ = false;
  }
  if (!started_) {
    if (!send(tbp::encode_start(start_of(game)))) return false;
    known_ = pieces_taken(game) + static_cast<std::int64_t>(preview.size());
    locks_known_ = game.stats().pieces;
    to_play_.reset();
    started_ = true;
    return true;
  }
  if (to_play_ && !send(tbp::encode_play(*to_play_))) return false;
  to_play_.reset();
  const std::int64_t first_preview = pieces_taken(game);
  for (; known_ < first_preview + static_cast<std::int64_t>(preview.size()); ++known_) {
    const auto i = static_cast<std::size_t>(known_ - first_preview);
    if (!send(tbp::encode_new_piece(preview[i]))) return false;
  }
  return true;
}

void TbpSession::played(const tbp::Move& move) {
  to_play_ = move;
  ++locks_known_;
}

bool TbpSession::stop() {
  if (!started_) return true;
  started_ = false;
  return send(tbp::encode_stop());
}

}  // namespace sr::botcli
