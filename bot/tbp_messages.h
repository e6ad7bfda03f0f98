// Tetris Bot Protocol messages (https://github.com/tetris-bot-protocol/tbp-spec, text/0000-mvp.md): one JSON object
// per line with a "type". The frontend (us) sends rules, start, suggest, play, new_piece, stop, quit; the bot sends
// info, ready, error, suggestion. Unknown message types and unknown members are ignored, as the spec asks.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bot/tbp_coords.h"
#include "common/engine/matrix.h"

namespace sr::botcli::tbp {

struct Move {
  Location location;
  engine::SpinKind spin = engine::SpinKind::kNone;
  bool operator==(const Move&) const = default;
};

// The position a game starts from. `queue` begins with the piece that is out now (TBP has no separate "current").
struct Start {
  engine::Piece hold = engine::Piece::kNone;
  std::vector<engine::Piece> queue;
  int combo = 0;  // consecutive clearing pieces so far (the engine's combo + 1)
  bool back_to_back = false;
  const engine::Matrix* board = nullptr;  // all 40 rows are sent, bottom row first
};

[[nodiscard]] std::string encode_rules();
[[nodiscard]] std::string encode_start(const Start& start);
[[nodiscard]] std::string encode_suggest();
[[nodiscard]] std::string encode_play(const Move& move);
[[nodiscard]] std::string encode_new_piece(engine::Piece piece);
[[nodiscard]] std::string encode_stop();
[[nodiscard]] std::string encode_quit();

struct BotMessage {
  enum class Kind { kInfo, kReady, kError, kSuggestion, kOther, kInvalid };
  Kind kind = Kind::kInvalid;
  std::string type;                   // the "type" member as sent
  std::string name, version, author;  // info
  std::string reason;                 // error: the bot's reason; kInvalid: what is wrong with the line
  std::vector<Move> moves;            // suggestion: the moves that are well formed, in the bot's order
  int skipped_moves = 0;              // suggestion: moves left out because they were malformed
};

[[nodiscard]] BotMessage decode_bot_message(std::string_view line);

}  // namespace sr::botcli::tbp
