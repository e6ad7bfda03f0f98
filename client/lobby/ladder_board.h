// The "Contest ladder" screen without a window (PROTOCOL.md "Contest ladder"): the leaderboard's rows as the screen
// shows them, which best games can be watched, the entrant form's check, and what each server message means to the
// screen (a board, a refusal, our ladder game starting or left). Pure: client/ui/ladder_screen.h draws it, the app
// (client/app/ladder_view.cpp) sends the requests.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/protocol/messages.h"
#include "common/result.h"

namespace sr::client {

// One of an entrant's best ranked games.
struct LadderBestGame {
  std::string score;          // "9,000"; "9,000 (not stored)" when the server could not store its replay
  std::uint64_t game_id = 0;  // the stored replay (DownloadReplay); 0: not stored, nothing to watch
  [[nodiscard]] bool watchable() const { return game_id != 0; }
};

// One entrant's line, as shown.
struct LadderBoardRow {
  std::string rank;                  // "1", by the server's order
  std::string entrant;               // as the server spells it
  std::string played;                // "3 / 10": ranked games spent of those allowed
  std::string average;               // "3,000.00": the rank score, exact (protocol::ladder_average_text, grouped)
  std::vector<LadderBestGame> best;  // best first, at most Ladder::counted_best
};

struct LadderBoardView {
  std::string average_heading;  // "Average of best 3"
  std::string rules;            // "10 ranked games each; the average of the best 3 ranks (a game not played counts 0)"
  std::vector<LadderBoardRow> rows;
  std::string note;  // "No entrants yet.", "12 more entrants below.", or ""
};

// The leaderboard as shown: one row per Ladder row, in the server's order.
[[nodiscard]] LadderBoardView ladder_board_view(const protocol::Ladder& ladder);

// Ok if `name` can enter (protocol::kPlayerNameText), otherwise a sentence saying why:
// "The entrant name is not valid: starts or ends with a space.", "The entrant name is too long: 17 characters, at most
// 16.".
[[nodiscard]] sr::Status<std::string> check_entrant_name(std::string_view name);

// What the screen says when the game sent the old secret of `entrant` from `file` (an entrant claimed before player
// keys passes to the player's key with it).
[[nodiscard]] std::string legacy_secret_text(std::string_view entrant, const std::filesystem::path& file);

// What a server message meant to the ladder screen (LadderBoard::take).
enum class LadderEvent {
  kNone,          // not about the ladder
  kBoard,         // a leaderboard arrived
  kListRefused,   // the server sent no leaderboard (list_refused() says why: no ladder there, too many requests)
  kEnterRefused,  // our LadderEnter was refused (enter_refused() says why)
  kGameStarted,   // the room of the ladder game we entered was joined: the race screen plays it
  kGameLeft,      // we left the room of our ladder game (its results shown, forfeited, or the room closed)
  kWatchRefused,  // the replay asked for with Watch cannot be sent (watch_refused() says why)
};

// The screen's state across a visit, including the ladder game played from it.
class LadderBoard {
 public:
  // ListLadder was sent: waiting for its answer.
  void asked();
  // LadderEnter was sent for `entrant`: the next room joined is its game, a Notice about LadderEnter its refusal.
  void entering(std::string entrant, bool ranked);
  // The replay of `game_id` was asked for (Watch).
  void watching(std::uint64_t game_id);
  void watched() { watching_.reset(); }

  // Acts on one server message and says what it meant. A Notice about ListLadder that is kInvalidRequest (the server
  // runs no ladder) drops the board; other refusals (rate limits) keep the board shown and say why above it.
  LadderEvent take(const protocol::Message& message);

  [[nodiscard]] const std::optional<LadderBoardView>& board() const { return board_; }
  [[nodiscard]] bool waiting() const { return waiting_; }
  // The server said it runs no ladder (until a board arrives): the screen offers no entry form.
  [[nodiscard]] bool no_ladder() const { return no_ladder_; }
  [[nodiscard]] const std::string& list_refused() const { return list_refused_; }
  [[nodiscard]] const std::string& enter_refused() const { return enter_refused_; }
  [[nodiscard]] const std::string& watch_refused() const { return watch_refused_; }
  [[nodiscard]] bool entering() const { return entering_; }
  [[nodiscard]] bool playing() const { return playing_; }
  [[nodiscard]] const std::string& entrant() const { return entrant_; }
  [[nodiscard]] bool ranked() const { return ranked_; }
  [[nodiscard]] std::optional<std::uint64_t> watching() const { return watching_; }

 private:
  std::optional<LadderBoardView> board_;
  bool waiting_ = false;
  bool no_ladder_ = false;
  std::string list_refused_;
  std::string enter_refused_;
  std::string watch_refused_;
  bool entering_ = false;
  bool playing_ = false;
  std::string entrant_;
  bool ranked_ = true;
  std::optional<std::uint64_t> watching_;
};

}  // namespace sr::client
