#include "server/web/web_json.h"

#include <algorithm>

#include "common/replay/names.h"

namespace sr::server::web {
namespace {

namespace names = replay::names;
using I64 = std::int64_t;

// The place each racer of a stored game finished in: ranked by the mode's goal among those who finished (time
// goals) or finished or topped out (score and lines goals), 0 for the others, as the results screens rank them.
std::vector<int> places_of(const replay::StoredGame& game) {
  std::vector<int> places(game.results.size(), 0);
  std::vector<std::size_t> ranked;
  for (std::size_t i = 0; i < game.results.size(); ++i) {
    const auto s = game.results[i].status;
    if (s == replay::ResultStatus::kFinished ||
        (game.goal != engine::GoalKind::kTime && s == replay::ResultStatus::kToppedOut)) {
      ranked.push_back(i);
    }
  }
  const auto better = [&](std::size_t a, std::size_t b) {
    const replay::StoredResult& x = game.results[a];
    const replay::StoredResult& y = game.results[b];
    switch (game.goal) {
      case engine::GoalKind::kTime: return x.time_us < y.time_us;
      case engine::GoalKind::kScore: return x.score > y.score;
      case engine::GoalKind::kLines: return x.lines > y.lines;
    }
    return false;
  };
  std::stable_sort(ranked.begin(), ranked.end(), better);
  for (std::size_t k = 0; k < ranked.size(); ++k) places[ranked[k]] = static_cast<int>(k + 1);
  return places;
}

}  // namespace

const char* racer_status_name(protocol::RacerStatus status) {
  switch (status) {
    case protocol::RacerStatus::kRacing: return "racing";
    case protocol::RacerStatus::kFinished: return "finished";
    case protocol::RacerStatus::kToppedOut: return "topped_out";
    case protocol::RacerStatus::kDisconnected: return "disconnected";
    case protocol::RacerStatus::kRemoved: return "removed";
    case protocol::RacerStatus::kUnfinished: return "unfinished";
  }
  return "unknown";
}

const char* room_phase_name(protocol::RoomPhase phase) {
  switch (phase) {
    case protocol::RoomPhase::kWaiting: return "waiting";
    case protocol::RoomPhase::kCountdown: return "countdown";
    case protocol::RoomPhase::kRacing: return "racing";
    case protocol::RoomPhase::kResults: return "results";
  }
  return "unknown";
}

const char* race_end_name(protocol::RaceEndReason reason) {
  switch (reason) {
    case protocol::RaceEndReason::kAllDone: return "all_done";
    case protocol::RaceEndReason::kTimeUp: return "time_up";
    case protocol::RaceEndReason::kAborted: return "aborted";
  }
  return "unknown";
}

std::string game_id_text(std::uint64_t game_id) { return sr::web::hex64(game_id); }

bool is_game_id(std::string_view text) {
  if (text.size() != 16) return false;
  for (const char c : text) {
    const bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    if (!hex) return false;
  }
  return true;
}

void put_mode(JsonWriter& w, const protocol::ModeSummary& mode) {
  w.begin_object();
  w.key("mode").value(names::name_of(names::kMode, mode.mode));
  w.key("limit").value(names::name_of(names::kLimit, mode.limit));
  w.key("limit_value").value(I64{mode.limit_value});
  w.key("goal").value(names::name_of(names::kGoal, mode.goal));
  w.end_object();
}

void put_room(JsonWriter& w, const protocol::RoomInfo& room) {
  std::size_t racers = 0;
  for (const protocol::RoomMember& m : room.members) racers += m.role == protocol::Role::kRacer ? 1 : 0;
  w.begin_object();
  w.key("id").value(static_cast<I64>(room.room_id));
  w.key("name").value(room.settings.name);
  w.key("mode");
  put_mode(w, protocol::summarize(room.settings.config));
  w.key("phase").value(room_phase_name(room.phase));
  w.key("race_id").value(static_cast<I64>(room.race_id));
  w.key("max_racers").value(static_cast<I64>(room.settings.max_racers));
  w.key("racers").value(static_cast<I64>(racers));
  w.key("spectators").value(static_cast<I64>(room.members.size() - racers));
  w.key("members").begin_array();
  for (const protocol::RoomMember& m : room.members) {
    w.begin_object();
    w.key("name").value(m.name);
    w.key("role").value(m.role == protocol::Role::kRacer ? "racer" : "spectator");
    w.key("ready").value(m.ready);
    w.end_object();
  }
  w.end_array();
  w.key("live").value("live/" + std::to_string(room.room_id));
  w.end_object();
}

void put_game(JsonWriter& w, const replay::StoredGame& game) {
  const std::vector<int> places = places_of(game);
  w.begin_object();
  w.key("id").value(game.id);
  w.key("played_unix_ms").value(I64{game.created_unix_ms});
  w.key("place").value(game.place);
  w.key("mode");
  put_mode(w, protocol::ModeSummary{game.mode, game.limit, game.limit_value, game.goal});
  w.key("rules_version").value(static_cast<I64>(game.rules_version));
  w.key("verified").value(game.verified);
  w.key("verify_note").value(game.verify_note);
  w.key("racers").begin_array();
  for (std::size_t i = 0; i < game.results.size(); ++i) {
    const replay::StoredResult& r = game.results[i];
    w.begin_object();
    w.key("name").value(r.player);
    w.key("key_id").value(r.key_id);
    w.key("name_shared").value(r.name_shared);
    w.key("status").value(replay::status_name(r.status));
    w.key("top_out").value(names::name_of(names::kTopOut, r.top_out));
    w.key("time_us").value(I64{r.time_us});
    w.key("lines").value(I64{r.lines});
    w.key("score").value(I64{r.score});
    w.key("pieces").value(I64{r.pieces});
    w.key("place").value(places[i]);
    w.end_object();
  }
  w.end_array();
  w.key("page").value("games/" + game.id);
  w.key("srr").value("games/" + game.id + ".srr");
  w.key("json").value("games/" + game.id + ".json");
  w.end_object();
}

void put_record(JsonWriter& w, const replay::BestResult& best) {
  w.begin_object();
  w.key("mode");
  put_mode(w, protocol::ModeSummary{best.mode, best.limit, best.limit_value, best.goal});
  w.key("player").value(best.player);
  w.key("key_id").value(best.key_id);
  w.key("name_shared").value(best.name_shared);
  w.key("game_id").value(best.game_id);
  w.key("played_unix_ms").value(I64{best.created_unix_ms});
  w.key("time_us").value(I64{best.time_us});
  w.key("score").value(I64{best.score});
  w.key("lines").value(I64{best.lines});
  w.key("page").value("games/" + best.game_id);
  w.end_object();
}

void put_ladder(JsonWriter& w, const protocol::Ladder& ladder) {
  w.begin_object();
  w.key("ranked_games").value(static_cast<I64>(ladder.ranked_games));
  w.key("counted_best").value(static_cast<I64>(ladder.counted_best));
  w.key("entrants").value(static_cast<I64>(ladder.entrants));
  w.key("rows").begin_array();
  for (std::size_t i = 0; i < ladder.rows.size(); ++i) {
    const protocol::LadderRow& row = ladder.rows[i];
    w.begin_object();
    w.key("rank").value(static_cast<I64>(i + 1));
    w.key("entrant").value(row.entrant);
    w.key("average").value(
        protocol::ladder_average_text(protocol::ladder_sum(row), std::max<int>(1, ladder.counted_best)));
    w.key("ranked_played").value(static_cast<I64>(row.ranked_played));
    w.key("best").begin_array();
    for (const protocol::LadderGame& g : row.best) {
      w.begin_object();
      w.key("game_id");
      if (g.game_id == 0) {
        w.null();
      } else {
        w.value(game_id_text(g.game_id));
      }
      w.key("score").value(I64{g.score});
      w.key("lines").value(I64{g.lines});
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

}  // namespace sr::server::web
