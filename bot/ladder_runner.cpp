#include "bot/ladder_runner.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <functional>
#include <memory>
#include <ostream>

#include "bot/external_player.h"
#include "bot/online_bot.h"
#include "net/identity/ladder_secret.h"

namespace sr::botcli {
namespace {

using Clock = std::chrono::steady_clock;

// Pumps (net/session_pump.h) until `done` holds, the session closes or the deadline passes. True when `done` held.
bool pump_until(OnlineBot& bot, Clock::time_point deadline, std::vector<protocol::Message>& received,
                const std::function<bool()>& done) {
  net::SessionPump pump(
      1, [&bot](std::size_t) -> const net::Session& { return bot.session(); },
      [&](std::size_t) {
        for (auto& m : bot.pump(0)) received.push_back(std::move(m));
        return bot.us_until_due();
      });
  (void)pump.until(
      [&] { return done() || bot.session().state() == net::Session::State::kClosed || bot.player().broken(); },
      deadline);
  return done();
}

// The text of the first Notice about `about` in `received`, if any.
std::optional<std::string> notice_about(const std::vector<protocol::Message>& received, protocol::MessageId about) {
  for (const auto& m : received) {
    if (const auto* n = std::get_if<protocol::Notice>(&m); n != nullptr && n->about == about) {
      return n->text.empty() ? net::describe(n->code) : n->text;
    }
  }
  return std::nullopt;
}

std::optional<protocol::Ladder> ladder_in(const std::vector<protocol::Message>& received) {
  for (auto it = received.rbegin(); it != received.rend(); ++it) {
    if (const auto* l = std::get_if<protocol::Ladder>(&*it)) return *l;
  }
  return std::nullopt;
}

// Connects and waits for the Welcome. An error sentence otherwise.
std::optional<std::string> connect(OnlineBot& bot, Clock::time_point deadline) {
  if (auto opened = bot.open(); !opened) return opened.error();
  std::vector<protocol::Message> ignored;
  const bool welcomed =
      pump_until(bot, deadline, ignored, [&] { return bot.session().state() == net::Session::State::kLobby; });
  if (welcomed) return std::nullopt;
  return bot.session().closed_reason().empty() ? std::string("no answer from the server")
                                               : bot.session().closed_reason();
}

// Asks for the leaderboard: the Ladder, or the reason it was refused.
struct Board {
  std::optional<protocol::Ladder> ladder;
  std::string refused;
};
Board ask_board(OnlineBot& bot, Clock::time_point deadline) {
  std::vector<protocol::Message> received;
  bot.session().send(protocol::ListLadder{});
  const bool answered = pump_until(bot, deadline, received, [&] {
    return ladder_in(received).has_value() || notice_about(received, protocol::MessageId::kListLadder).has_value();
  });
  if (!answered) return {std::nullopt, "the server did not answer"};
  if (auto l = ladder_in(received)) return {std::move(l), {}};
  return {std::nullopt, *notice_about(received, protocol::MessageId::kListLadder)};
}

std::string game_line(const protocol::RaceResults& results, const std::string& replay) {
  if (results.racers.empty()) return "no result";
  const protocol::RacerResult& r = results.racers.front();
  const char* status = r.status == protocol::RacerStatus::kFinished    ? ""
                       : r.status == protocol::RacerStatus::kToppedOut ? ", topped out"
                       : r.status == protocol::RacerStatus::kRemoved   ? ", removed by the referee (scores 0)"
                                                                       : ", did not finish";
  return fmt::format("{} points, {} lines, {} pieces, {}.{:02} pps{} | {}", r.score, r.lines, r.pieces,
                     r.pps_x100 / 100, r.pps_x100 % 100, status, replay);
}

}  // namespace

std::string leaderboard_table(const protocol::Ladder& ladder) {
  std::vector<std::vector<std::string>> rows;
  rows.push_back(
      {"rank", "entrant", "ranked", fmt::format("best-{} avg", ladder.counted_best), "best scores (game id)"});
  for (std::size_t i = 0; i < ladder.rows.size(); ++i) {
    const protocol::LadderRow& r = ladder.rows[i];
    std::string best;
    for (const protocol::LadderGame& g : r.best) {
      if (!best.empty()) best += ", ";
      best +=
          g.game_id == 0 ? fmt::format("{} (not stored)", g.score) : fmt::format("{} ({:016x})", g.score, g.game_id);
    }
    rows.push_back({std::to_string(i + 1), r.entrant, fmt::format("{}/{}", r.ranked_played, ladder.ranked_games),
                    protocol::ladder_average_text(protocol::ladder_sum(r), ladder.counted_best),
                    best.empty() ? "-" : best});
  }
  std::vector<std::size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      // Numbers right-aligned (rank, ranked, average), text left-aligned; the last column is not padded.
      const bool number = c == 0 || c == 2 || c == 3;
      if (c > 0) line += "  ";
      if (c + 1 == row.size()) {
        line += row[c];
      } else {
        line += number ? fmt::format("{:>{}}", row[c], widths[c]) : fmt::format("{:<{}}", row[c], widths[c]);
      }
    }
    out += line + "\n";
  }
  if (ladder.entrants > ladder.rows.size()) {
    out += fmt::format("({} more entrants below)\n", ladder.entrants - ladder.rows.size());
  }
  if (ladder.rows.empty()) out += "(no entrants yet)\n";
  return out;
}

int print_leaderboard(const std::string& host, std::uint16_t port, int timeout_s, std::ostream& out,
                      std::ostream& err) {
  const auto deadline = Clock::now() + std::chrono::seconds(timeout_s);
  net::SessionOptions session;
  session.host = host;
  session.port = port;
  session.name = fmt::format("viewer{}", ::getpid() % 100'000);
  session.client_version = "stackrace-bot 0.1.0";
  OnlineBot bot(session, bot::BotSettings{});
  if (const auto failed = connect(bot, deadline)) {
    err << fmt::format("stackrace-bot: cannot reach {}:{}: {}\n", host, port, *failed);
    return 2;
  }
  const Board board = ask_board(bot, deadline);
  bot.session().close();
  if (!board.ladder) {
    err << fmt::format("stackrace-bot: no leaderboard from {}:{}: {}\n", host, port, board.refused);
    return 1;
  }
  out << leaderboard_table(*board.ladder);
  return 0;
}

int run_ladder(const LadderRunOptions& options, std::ostream& out, std::ostream& err) {
  const auto secret = net::read_legacy_secret(options.secret_file);
  if (!secret.ok()) {
    err << "stackrace-bot: " << secret.error() << "\n";
    return 2;
  }
  if (secret.value()) {
    out << fmt::format("sending the old secret of entrant '{}' from {}: the entrant passes to this key\n",
                       options.entrant, options.secret_file.string());
  }
  net::SessionOptions session;
  session.key = options.key;
  session.host = options.host;
  session.port = options.port;
  session.name = options.entrant;
  session.client_version = "stackrace-bot 0.1.0";
  // An external bot is started first, so that one that cannot play spends no game.
  ExternalPlayer* external = nullptr;
  std::unique_ptr<Player> player;
  if (options.external) {
    auto made = std::make_unique<ExternalPlayer>(*options.external, options.bot, err);
    if (!made->open(engine::make_contest())) return 1;
    external = made.get();
    player = std::move(made);
  } else {
    player = std::make_unique<BuiltinPlayer>(options.bot);
  }
  OnlineBot bot(session, std::move(player));
  if (const auto failed = connect(bot, Clock::now() + std::chrono::seconds(30))) {
    err << fmt::format("stackrace-bot: cannot reach {}:{} as '{}': {}\n", options.host, options.port, options.entrant,
                       *failed);
    return 2;
  }
  const int wanted = options.games.value_or(options.ranked ? protocol::kMaxLadderRankedGames : 1);
  const char* kind = options.ranked ? "ranked" : "practice";
  int played = 0;
  int status = 0;
  while (played < wanted) {
    const auto deadline = Clock::now() + std::chrono::seconds(options.timeout_s);
    std::vector<protocol::Message> received;
    bot.session().send(protocol::LadderEnter{options.entrant, options.ranked, secret.value()});
    const bool entered = pump_until(bot, deadline, received, [&] {
      return bot.session().race() != nullptr || notice_about(received, protocol::MessageId::kLadderEnter);
    });
    if (const auto refused = notice_about(received, protocol::MessageId::kLadderEnter)) {
      // Without --games, ranked games go on until the server says they are spent.
      const bool done = played > 0 && !options.games;
      (done ? out : err) << fmt::format("{}server refused a {} game: {}\n", done ? "" : "stackrace-bot: ", kind,
                                        *refused);
      status = done ? 0 : 1;
      break;
    }
    const bool stored =
        entered && pump_until(bot, deadline, received, [&] {
          return bot.session().stored_replay().has_value() || bot.session().replay_not_stored().has_value();
        });
    if (bot.player().broken()) {
      err << fmt::format("stackrace-bot: {} game {} as '{}' abandoned: the external bot cannot play (see above)\n",
                         kind, played + 1, options.entrant);
      status = 1;
      break;
    }
    if (!stored || !bot.session().results()) {
      err << fmt::format("stackrace-bot: {} game {} as '{}' did not end with results within {} s{}\n", kind, played + 1,
                         options.entrant, options.timeout_s,
                         bot.session().closed_reason().empty() ? "" : ": " + bot.session().closed_reason());
      status = 1;
      break;
    }
    ++played;
    const std::string replay = bot.session().stored_replay()
                                   ? fmt::format("replay {:016x}", *bot.session().stored_replay())
                                   : "replay not stored: " + *bot.session().replay_not_stored();
    out << fmt::format("{} game {} as '{}': {}\n", kind, played, options.entrant,
                       game_line(*bot.session().results(), replay));
    if (external != nullptr && !external->race_note().empty()) {
      out << fmt::format("{} game {} as '{}': the external bot forfeited it at {}\n", kind, played, options.entrant,
                         external->race_note());
    }
    out.flush();
    bot.session().leave_room();
    (void)pump_until(bot, deadline, received, [&] { return !bot.session().room().has_value(); });
  }
  if (played > 0) {
    const Board board = ask_board(bot, Clock::now() + std::chrono::seconds(10));
    if (board.ladder) {
      const auto& rows = board.ladder->rows;
      const auto it = std::find_if(rows.begin(), rows.end(), [&](const protocol::LadderRow& r) {
        return std::equal(
            r.entrant.begin(), r.entrant.end(), options.entrant.begin(), options.entrant.end(), [](char a, char b) {
              return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
            });
      });
      if (it != rows.end()) {
        out << fmt::format("'{}' is ranked {} of {}: {} ranked games of {} played, best-{} average {}\n", it->entrant,
                           it - rows.begin() + 1, board.ladder->entrants, it->ranked_played, board.ladder->ranked_games,
                           board.ladder->counted_best,
                           protocol::ladder_average_text(protocol::ladder_sum(*it), board.ladder->counted_best));
      }
    }
  }
  if (external != nullptr) {
    out << external->counters_text() << "\n";
  }
  bot.session().close();
  return status;
}

}  // namespace sr::botcli
