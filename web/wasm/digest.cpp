#include "web/wasm/digest.h"

#include <string>

#include "common/replay/names.h"
#include "web/wasm/json_writer.h"
#include "web/wasm/replay_session.h"

namespace sr::web {
namespace {

void put_stats(std::string& out, const engine::Stats& s) {
  const auto fields = replay::names::stat_fields(s);
  for (const auto& [name, value] : fields) out += std::string(" ") + name + "=" + std::to_string(value);
}

std::string at_text(const RacerCursor& cursor) {
  return " at " + std::to_string(cursor.position().changes) + "/" + std::to_string(cursor.position().time_us) +
         " h=" + hex64(cursor.game().state_hash());
}

void put_racer(std::string& out, ReplaySession& session, std::size_t i) {
  const replay::Racer& racer = session.replay().racers[i];
  const std::string p = "r" + std::to_string(i) + " ";
  out += p + "recorded " + replay::status_name(racer.result.status) + " " +
         replay::names::name_of(replay::names::kTopOut, racer.result.top_out) +
         " final_hash=" + hex64(racer.result.final_hash);
  put_stats(out, racer.result.stats);
  out += '\n';

  RacerCursor& cursor = session.cursor(i);
  for (std::size_t c = 1; c <= cursor.change_count(); ++c) {
    out += p + "c" + std::to_string(c) + " t=" + std::to_string(cursor.change_time(c)) +
           " b=" + std::to_string(cursor.change_buttons(c)) + " h=" + hex64(cursor.change_hash(c)) + '\n';
  }
  cursor.seek_time(cursor.end_us());
  out += p + "end t=" + std::to_string(cursor.end_us()) + " h=" + hex64(cursor.end_hash());
  put_stats(out, cursor.game().stats());
  out += '\n';

  // Every lock, forward (from the previous one), then seeks backwards and steps, which start from snapshots.
  for (std::int64_t k = 1; k <= cursor.piece_count(); ++k) {
    (void)cursor.seek_piece(k);
    out += p + "piece " + std::to_string(k) + at_text(cursor) + '\n';
  }
  for (const int part : {4, 2, 1}) {
    cursor.seek_time(cursor.end_us() * part / 5);
    out += p + "seek time " + std::to_string(part) + "/5" + at_text(cursor) + '\n';
    for (const int direction : {-1, -1, 1}) {
      // Each move before its line is written: the operands of + have no order of evaluation.
      const bool changed = cursor.step_change(direction);
      out += p + "seek change " + std::to_string(direction) + (changed ? " ok" : " no") + at_text(cursor) + '\n';
      const bool stepped = cursor.step_piece(direction);
      out += p + "seek piece " + std::to_string(direction) + (stepped ? " ok" : " no") + at_text(cursor) + '\n';
    }
  }
}

}  // namespace

std::string replay_digest(std::span<const std::uint8_t> bytes, const replay::JsonOptions& json) {
  const char* format = format_of(bytes) == ReplayFormat::kJson ? "json" : "binary";
  auto opened = ReplaySession::open(bytes, json);
  if (!opened) return "decode error " + opened.error() + "\n";
  ReplaySession& session = *opened.value();
  std::string out = std::string("decode ") + format + " ok\n";
  out += std::string("verdict ") + verdict_name(session.report().verdict) + " " + session.report().message + "\n";
  for (std::size_t i = 0; i < session.racer_count(); ++i) put_racer(out, session, i);
  return out;
}

}  // namespace sr::web
