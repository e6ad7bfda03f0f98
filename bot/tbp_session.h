// The conversation with one external Tetris Bot Protocol (TBP) bot process, shared by solo games
// (external_runner.h) and games on a server (external_player.h).
//
// Session: info -> rules -> ready, then per game: start, and per piece: play (the previous move, as played),
// new_piece (each piece that came into view), suggest -> suggestion; stop after each game, quit at the end. The rules
// and start messages carry the randomizer extension (tbp_messages.h).
//
// # What the bot is told
// tell() sends `start` at a game's first decision. After that it sends `play` for the move last played and a
// `new_piece` for every piece that came into view, as long as the bot can follow the game from those: every piece
// that locked since the last decision must be the move it was told of. A lock it was not told of (a piece that
// locked by gravity while the bot was thinking online) makes tell() send a fresh `start` instead, which TBP allows
// at any time after `stop`. The game modes this is used for are garbage-free: only locks change the board.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "bot/bot_process.h"
#include "bot/tbp_messages.h"
#include "common/engine/game.h"

namespace sr::botcli {

// Milliseconds the external bot gets to send info and ready, and by default to answer each suggest.
inline constexpr int kTbpHandshakeMs = 10'000;
inline constexpr int kTbpSuggestMs = 10'000;

struct ExternalOptions {
  std::string command;            // run with /bin/sh -c
  int think_ms = 0;               // 0..60,000: wall time the bot gets to think between a new position and suggest
  int answer_ms = kTbpSuggestMs;  // 1..600,000: how long a suggestion may take before the game is given up
};

// Pieces taken from the queue so far (locked, held, out now), so the index of the first preview piece.
[[nodiscard]] std::int64_t pieces_taken(const engine::Game& game);

// The start message for `game`'s position: hold, queue (the piece out first), combo, back-to-back, board, and the
// randomizer extension's bag state when the game deals 7-bags. `game` must have a piece out.
[[nodiscard]] tbp::Start start_of(const engine::Game& game);

// The moves of a suggestion as text, " T-north@(4,1)/full ..." (each with a leading space), or " (no moves)": what a
// forfeit report lists, so that it can be checked against the replay.
[[nodiscard]] std::string moves_text(const std::vector<tbp::Move>& moves);

class TbpSession {
 public:
  // Diagnostics go to `err`, each a line starting with "stackrace-bot: ". Both references must outlive the session.
  TbpSession(const ExternalOptions& options, std::ostream& err) : options_(options), err_(err) {}

  // Starts the bot and goes through info, rules and ready. False (and why, on err) if that fails.
  bool open(const engine::GameConfig& config);
  // Says goodbye, or (`kill`) ends a bot that stopped answering at once. The session can be opened again.
  void close(bool kill);
  [[nodiscard]] bool is_open() const { return process_.has_value(); }
  // The randomizer the bot was told of in `rules` (meaningful while open).
  [[nodiscard]] engine::GeneratorKind generator() const { return generator_; }

  // One line to the bot. False (and why, on err) if it stopped reading.
  bool send(const std::string& line);

  // The next message of `kind`, skipping others the spec lets a bot send (info, unknown types). An error message,
  // an invalid line, end of output or the timeout (`timed_out` tells) end the session. A timeout of 0 takes only
  // what has arrived.
  std::optional<tbp::BotMessage> expect(tbp::BotMessage::Kind kind, const char* what, int timeout_ms,
                                        bool* timed_out = nullptr);

  // Without waiting: the message of `kind` if it has arrived (kArrived, in `out`), kWaiting if not yet, kFailed if
  // the bot broke the protocol or ended its output (why, on err).
  enum class Poll { kArrived, kWaiting, kFailed };
  Poll poll(tbp::BotMessage::Kind kind, const char* what, tbp::BotMessage& out);

  // A new game begins: its first tell() sends start.
  void new_game();
  // Tells the bot the position of `game` before a suggest ("What the bot is told"). `game` must have a piece out.
  // False if the bot stopped reading.
  bool tell(const engine::Game& game);
  // The move played for the last suggestion, as the engine locked and scored it: the next tell() sends it.
  void played(const tbp::Move& move);
  // Sends stop if the game was started (once per game). False if the bot stopped reading.
  bool stop();
  // How often tell() sent a fresh start because the game went where the bot was not told.
  [[nodiscard]] std::int64_t restarts() const { return restarts_; }

  [[nodiscard]] std::ostream& err() { return err_; }
  [[nodiscard]] const ExternalOptions& options() const { return options_; }

 private:
  const ExternalOptions& options_;
  std::ostream& err_;
  std::optional<BotProcess> process_;
  engine::GeneratorKind generator_ = engine::GeneratorKind::kBag7;
  // The game the bot follows: whether start was sent, pieces it has been shown (taken + preview), locks it knows.
  bool started_ = false;
  std::int64_t known_ = 0;
  std::int64_t locks_known_ = 0;
  std::optional<tbp::Move> to_play_;
  std::int64_t restarts_ = 0;
};

}  // namespace sr::botcli
