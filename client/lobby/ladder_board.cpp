#include "client/lobby/ladder_board.h"

#include <fmt/format.h>

#include "client/solo/results.h"
#include "common/protocol/text.h"
#include "net/session.h"

namespace sr::client {
namespace {

// The server's words in a Notice, or the code's sentence when it sent none.
std::string words(const protocol::Notice& n) { return n.text.empty() ? net::describe(n.code) : n.text; }

// "1333.33" -> "1,333.33": the whole part grouped in thousands as every score on screen is (format_count).
std::string grouped(const std::string& decimal) {
  const auto dot = decimal.find('.');
  const std::string whole = decimal.substr(0, dot);
  if (whole.empty() || whole.find_first_not_of("0123456789") != std::string::npos) return decimal;
  return format_count(std::stoll(whole)) + (dot == std::string::npos ? "" : decimal.substr(dot));
}

}  // namespace

LadderBoardView ladder_board_view(const protocol::Ladder& ladder) {
  LadderBoardView view;
  view.average_heading = fmt::format("Average of best {}", ladder.counted_best);
  view.rules = fmt::format(
      "{} ranked games each; the average of the best {} ranks (a game not played counts 0). Practice games count "
      "nowhere.",
      ladder.ranked_games, ladder.counted_best);
  for (std::size_t i = 0; i < ladder.rows.size(); ++i) {
    const protocol::LadderRow& r = ladder.rows[i];
    LadderBoardRow row;
    row.rank = std::to_string(i + 1);
    row.entrant = r.entrant;
    row.played = fmt::format("{} / {}", r.ranked_played, ladder.ranked_games);
    row.average = grouped(protocol::ladder_average_text(protocol::ladder_sum(r), ladder.counted_best));
    for (const protocol::LadderGame& g : r.best) {
      row.best.push_back({format_count(g.score) + (g.game_id == 0 ? " (not stored)" : ""), g.game_id});
    }
    view.rows.push_back(std::move(row));
  }
  if (ladder.rows.empty()) {
    view.note = "No entrants yet.";
  } else if (ladder.entrants > ladder.rows.size()) {
    const std::uint32_t more = ladder.entrants - static_cast<std::uint32_t>(ladder.rows.size());
    view.note = fmt::format("{} more {} below.", more, more == 1 ? "entrant" : "entrants");
  }
  return view;
}

sr::Status<std::string> check_entrant_name(std::string_view name) {
  if (name.empty()) return std::string("Type an entrant name.");
  if (name.size() > protocol::kMaxPlayerNameBytes) {
    return fmt::format("The entrant name is too long: {} characters, at most {}.", name.size(),
                       protocol::kMaxPlayerNameBytes);
  }
  if (auto ok = protocol::check_text(name, protocol::kPlayerNameText); !ok) {
    return "The entrant name is not valid: " + ok.error() + ".";
  }
  return {};
}

std::string legacy_secret_text(std::string_view entrant, const std::filesystem::path& file) {
  return fmt::format(
      "The game sent the ladder secret of '{}' from {}: an entrant claimed with it before player keys passes to your "
      "key. Your key (Settings) holds '{}' from now on; the file is no longer needed.",
      entrant, file.string(), entrant);
}

void LadderBoard::asked() { waiting_ = true; }

void LadderBoard::entering(std::string entrant, bool ranked) {
  entrant_ = std::move(entrant);
  ranked_ = ranked;
  entering_ = true;
  enter_refused_.clear();
}

void LadderBoard::watching(std::uint64_t game_id) {
  watching_ = game_id;
  watch_refused_.clear();
}

LadderEvent LadderBoard::take(const protocol::Message& message) {
  if (const auto* ladder = std::get_if<protocol::Ladder>(&message)) {
    board_ = ladder_board_view(*ladder);
    waiting_ = false;
    no_ladder_ = false;
    list_refused_.clear();
    return LadderEvent::kBoard;
  }
  if (const auto* n = std::get_if<protocol::Notice>(&message)) {
    if (n->about == protocol::MessageId::kListLadder) {
      waiting_ = false;
      list_refused_ = words(*n);
      if (n->code == protocol::NoticeCode::kInvalidRequest) {
        board_.reset();
        no_ladder_ = true;
      }
      return LadderEvent::kListRefused;
    }
    if (n->about == protocol::MessageId::kLadderEnter && entering_) {
      entering_ = false;
      enter_refused_ = words(*n);
      return LadderEvent::kEnterRefused;
    }
    return LadderEvent::kNone;
  }
  if (std::holds_alternative<protocol::RoomJoined>(message) && entering_) {
    entering_ = false;
    playing_ = true;
    return LadderEvent::kGameStarted;
  }
  if (std::holds_alternative<protocol::RoomLeft>(message) && playing_) {
    playing_ = false;
    return LadderEvent::kGameLeft;
  }
  if (const auto* u = std::get_if<protocol::ReplayUnavailable>(&message); u != nullptr && watching_ == u->game_id) {
    watching_.reset();
    watch_refused_ = "The server cannot send that replay: " + net::describe(u->code) +
                     (u->text.empty() ? "." : " (" + u->text + ").");
    return LadderEvent::kWatchRefused;
  }
  return LadderEvent::kNone;
}

}  // namespace sr::client
