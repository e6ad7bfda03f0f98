// Tetris Bot Protocol messages (https://github.com/tetris-bot-protocol/tbp-spec, text/0000-mvp.md): one JSON object
// per line with a "type". The frontend (us) sends rules, start, suggest, play, new_piece, stop, quit; the bot sends
// info, ready, error, suggestion. Unknown message types and unknown members are ignored, as the spec asks.
//
// The randomizer extension (text/0001-randomizer.md) is sent too: `rules` names the randomizer ("seven_bag",
// "uniform" or "unknown") and `start` says what is left in the bag at the end of its queue. Both are members a bot
// without the extension ignores, so they are sent whatever the bot's info lists in `features`.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bot/tbp_coords.h"
#include "common/engine/config.h"
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
  // Randomizer extension: the 7-bag's contents at the end of `queue` (I, J, L, O, S, T, Z order; all seven when a
  // new bag begins there). Sent only with the "seven_bag" randomizer; left out when unknown.
  std::optional<std::vector<engine::Piece>> bag_state;
};

// The randomizer extension's name for a generator: "seven_bag", "uniform" or "unknown".
[[nodiscard]] const char* randomizer_name(engine::GeneratorKind generator);

// What is left in the 7-bag after `queue`, whose first piece is the `first_index`-th piece of the game (counting
// from 0; bags start at 0, 7, 14, ...). nullopt when the queue does not reach back to the start of that bag.
[[nodiscard]] std::optional<std::vector<engine::Piece>> seven_bag_state(std::int64_t first_index,
                                                                        std::span<const engine::Piece> queue);

// `randomizer`: what randomizer_name() gives; sent as the rules' "randomizer" member.
[[nodiscard]] std::string encode_rules(const char* randomizer);
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
  std::vector<std::string> features;  // info: the TBP extensions the bot supports
  std::string reason;                 // error: the bot's reason; kInvalid: what is wrong with the line
  std::vector<Move> moves;            // suggestion: the moves that are well formed, in the bot's order
  int skipped_moves = 0;              // suggestion: moves left out because they were malformed
};

[[nodiscard]] BotMessage decode_bot_message(std::string_view line);

}  // namespace sr::botcli::tbp
