#include "web/wasm/json_views.h"

#include <cstdint>

#include "common/engine/config.h"
#include "common/engine/stats.h"
#include "common/engine/types.h"
#include "common/replay/names.h"
#include "common/replay/verify.h"
#include "web/wasm/json_writer.h"

namespace sr::web {
namespace {

namespace names = replay::names;
using I64 = std::int64_t;

void put_piece(JsonWriter& w, engine::Piece p) {
  if (p == engine::Piece::kNone) {
    w.null();
  } else {
    const char letter[2] = {engine::piece_letter(p), '\0'};
    w.value(letter);
  }
}

void put_cells(JsonWriter& w, const std::array<CellXY, 4>& cells) {
  w.begin_array();
  for (const CellXY& c : cells) w.begin_array().value(c.x).value(c.y).end_array();
  w.end_array();
}

void put_stats(JsonWriter& w, const engine::Stats& s) {
  w.key("time_us").value(I64{s.time_us});
  w.key("pieces").value(I64{s.pieces});
  w.key("lines").value(I64{s.lines});
  w.key("score").value(I64{s.score});
  w.key("level").value(s.level);
  w.key("key_presses").value(I64{s.key_presses});
  w.key("holds").value(I64{s.holds});
  w.key("singles").value(I64{s.singles});
  w.key("doubles").value(I64{s.doubles});
  w.key("triples").value(I64{s.triples});
  w.key("tetrises").value(I64{s.tetrises});
  w.key("tspins").value(I64{s.tspins});
  w.key("tspin_singles").value(I64{s.tspin_singles});
  w.key("tspin_doubles").value(I64{s.tspin_doubles});
  w.key("tspin_triples").value(I64{s.tspin_triples});
  w.key("minis").value(I64{s.minis});
  w.key("mini_singles").value(I64{s.mini_singles});
  w.key("mini_doubles").value(I64{s.mini_doubles});
  w.key("perfect_clears").value(I64{s.perfect_clears});
  w.key("max_combo").value(s.max_combo);
  w.key("max_b2b").value(s.max_b2b);
}

void put_config(JsonWriter& w, const engine::GameConfig& c) {
  w.begin_object();
  w.key("mode").value(names::name_of(names::kMode, c.mode));
  w.key("limit").value(names::name_of(names::kLimit, c.limit));
  w.key("limit_value").value(I64{c.limit_value});
  w.key("goal").value(names::name_of(names::kGoal, c.goal));
  w.key("rotation").value(names::name_of(names::kRotation, c.rotation));
  w.key("allow_180").value(c.allow_180);
  w.key("generator").value(names::name_of(names::kGenerator, c.generator));
  w.key("initial_rows").value(static_cast<I64>(c.initial_board.size()));
  w.key("hold_enabled").value(c.hold_enabled);
  w.key("preview").value(static_cast<int>(c.preview));
  w.key("gravity").value(names::name_of(names::kGravity, c.gravity));
  w.key("start_level").value(c.start_level);
  w.key("level_up").value(c.level_up);
  w.key("goal_system").value(names::name_of(names::kGoalSystem, c.goal_system));
  w.key("lock_down").value(names::name_of(names::kLockDown, c.lock_down));
  w.key("lock_delay_us").value(c.lock_delay_us);
  w.key("scoring").value(names::name_of(names::kScoring, c.scoring));
  w.key("all_spin").value(c.all_spin);
  w.end_object();
}

void put_handling(JsonWriter& w, const engine::Handling& h) {
  w.begin_object();
  w.key("das_us").value(h.das_us);
  w.key("arr_us").value(h.arr_us);
  w.key("sdf").value(h.sdf);
  w.key("dcd_us").value(h.dcd_us);
  w.key("are_us").value(h.are_us);
  w.key("line_clear_delay_us").value(h.line_clear_delay_us);
  w.key("irs").value(h.irs);
  w.key("ihs").value(h.ihs);
  w.end_object();
}

const char* phase_name(engine::Phase p) {
  switch (p) {
    case engine::Phase::kSpawnDelay: return "spawn_delay";
    case engine::Phase::kFalling: return "falling";
    case engine::Phase::kOver: return "over";
  }
  return "unknown";
}

}  // namespace

std::string engine_info_json() {
  JsonWriter w;
  w.begin_object();
  w.key("rules_version").value(static_cast<I64>(engine::kRulesVersion));
  w.key("oldest_rules_version").value(static_cast<I64>(replay::kOldestRulesVersion));
  w.key("format_version").value(static_cast<I64>(replay::kFormatVersion));
  w.key("snapshot_every").value(static_cast<I64>(RacerCursor::kSnapshotEvery));
  w.end_object();
  return w.text();
}

std::string summary_json(const ReplaySession& session) {
  const replay::Replay& r = session.replay();
  const replay::VerifyReport& report = session.report();
  JsonWriter w;
  w.begin_object();
  w.key("format").value(session.format() == ReplayFormat::kJson ? "json" : "binary");
  w.key("rules_version").value(static_cast<I64>(r.rules_version));
  w.key("created_unix_ms").value(I64{r.created_unix_ms});
  w.key("place").value(r.place);
  w.key("seed").value(std::to_string(r.seed));
  w.key("checkpoint_every").value(r.checkpoint_every);
  w.key("end_us").value(I64{session.end_us()});
  w.key("config");
  put_config(w, r.config);
  w.key("verdict").value(verdict_name(report.verdict));
  w.key("message").value(report.message);
  w.key("racers").begin_array();
  for (std::size_t i = 0; i < r.racers.size(); ++i) {
    const replay::Racer& racer = r.racers[i];
    const replay::Disagreement* d = session.disagreement(i);
    w.begin_object();
    w.key("name").value(racer.name);
    w.key("verified").value(report.verdict != replay::Verdict::kUnsupportedRules && d == nullptr);
    w.key("disagreement");
    if (d != nullptr) {
      w.value(d->describe());
    } else {
      w.null();
    }
    w.key("status").value(replay::status_name(racer.result.status));
    w.key("top_out").value(names::name_of(names::kTopOut, racer.result.top_out));
    w.key("final_hash").value(hex64(racer.result.final_hash));
    w.key("unverified_us").value(I64{racer.result.unverified_us});
    w.key("reconnects").value(static_cast<I64>(racer.result.reconnects));
    w.key("changes").value(static_cast<I64>(racer.inputs.size()));
    w.key("handling");
    put_handling(w, racer.handling);
    w.key("stats").begin_object();
    put_stats(w, racer.result.stats);
    w.end_object();
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.text();
}

std::string frame_json(const RacerCursor& cursor) {
  return frame_json(cursor.game(), cursor.position(), cursor.buttons());
}

std::string frame_json(const engine::Game& game, Position at, engine::Buttons buttons) {
  const engine::GameState& s = game.state();
  JsonWriter w;
  w.begin_object();
  w.key("time_us").value(I64{at.time_us});
  w.key("changes").value(static_cast<I64>(at.changes));
  w.key("phase").value(phase_name(s.phase));
  w.key("finished").value(s.finished);
  w.key("top_out").value(names::name_of(names::kTopOut, s.top_out));
  w.key("board").begin_array();
  for (int y = 0; y < engine::kMatrixHeight; ++y) {
    std::string row(engine::kMatrixWidth, '.');
    for (int x = 0; x < engine::kMatrixWidth; ++x)
      row[static_cast<std::size_t>(x)] = engine::piece_letter(game.matrix().at(x, y));
    w.value(row);
  }
  w.end_array();
  w.key("active");
  if (const auto a = game.active()) {
    w.begin_object();
    w.key("piece");
    put_piece(w, a->piece);
    w.key("rotation").value(static_cast<int>(a->rotation));
    w.key("x").value(static_cast<int>(a->x));
    w.key("y").value(static_cast<int>(a->y));
    w.key("cells");
    put_cells(w, *active_cells_of(game));
    w.key("ghost_y").value(game.ghost_y());
    w.key("ghost_cells");
    put_cells(w, *ghost_cells_of(game));
    w.end_object();
  } else {
    w.null();
  }
  w.key("hold");
  put_piece(w, game.hold());
  w.key("hold_used").value(s.hold_used);
  w.key("next").begin_array();
  for (const engine::Piece p : game.preview()) put_piece(w, p);
  w.end_array();
  w.key("buttons").value(static_cast<int>(buttons));
  const engine::Stats& st = s.stats;
  w.key("stats").begin_object();
  put_stats(w, st);
  // Fixed point, as everywhere in stackrace: pieces per second and key presses per piece, times 100.
  w.key("pps_x100").value(engine::pps_x100(st.pieces, st.time_us));
  w.key("kpp_x100").value(engine::kpp_x100(st.key_presses, st.pieces));
  w.key("lines_left").value(I64{game.lines_left()});
  w.end_object();
  w.key("state_hash").value(hex64(game.state_hash()));
  w.end_object();
  return w.text();
}

std::string track_json(const RacerCursor& cursor) {
  JsonWriter w;
  w.begin_object();
  w.key("changes").begin_array();
  for (std::size_t c = 1; c <= cursor.change_count(); ++c) {
    w.begin_array();
    w.value(I64{cursor.change_time(c)});
    w.value(static_cast<int>(cursor.change_buttons(c)));
    w.value(hex64(cursor.change_hash(c)));
    w.end_array();
  }
  w.end_array();
  w.key("locks").begin_array();
  for (std::int64_t k = 1; k <= cursor.piece_count(); ++k) w.value(I64{cursor.lock_time(k)});
  w.end_array();
  w.key("end_us").value(I64{cursor.end_us()});
  w.key("end_hash").value(hex64(cursor.end_hash()));
  w.end_object();
  return w.text();
}

}  // namespace sr::web
