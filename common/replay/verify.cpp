#include "common/replay/verify.h"

#include <array>
#include <utility>

#include "common/replay/detail/text_codec.h"
#include "common/replay/names.h"
#include "common/replay/simulate.h"

namespace sr::replay {
namespace {

using names::stat_fields;

std::string hex(std::uint64_t v) { return detail::hash_hex(v); }

// The first disagreement of one racer, if any.
std::optional<Disagreement> check_racer(const Replay& replay, std::size_t index) {
  const Racer& racer = replay.racers[index];
  const RacerResult& rec = racer.result;
  const Simulation sim =
      simulate(racer_config(replay, index), replay.seed, racer.inputs, rec.stats.time_us, replay.checkpoint_every);
  const engine::GameState& s = sim.game.state();
  const auto at = [&](std::int64_t piece, engine::TimeUs t, std::string field, std::string recorded,
                      std::string replayed) {
    return Disagreement{index, racer.name, piece, t, std::move(field), std::move(recorded), std::move(replayed)};
  };
  const std::size_t n = std::max(racer.checkpoints.size(), sim.checkpoints.size());
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t piece = static_cast<std::int64_t>(i + 1) * replay.checkpoint_every;
    if (i >= sim.checkpoints.size()) {
      return at(piece, racer.checkpoints[i].time_us, "checkpoint", "piece " + std::to_string(piece) + " locked",
                "the game locked only " + std::to_string(s.stats.pieces) + " pieces");
    }
    const engine::Checkpoint& got = sim.checkpoints[i];
    if (i >= racer.checkpoints.size()) {
      return at(piece, got.time_us, "checkpoint", "no checkpoint", "piece " + std::to_string(piece) + " locked");
    }
    const engine::Checkpoint& want = racer.checkpoints[i];
    if (want.time_us != got.time_us) {
      return at(piece, got.time_us, "checkpoint time_us", format_time(want.time_us), format_time(got.time_us));
    }
    if (want.state_hash != got.state_hash) {
      return at(piece, got.time_us, "checkpoint state_hash", hex(want.state_hash), hex(got.state_hash));
    }
  }

  // Checkpoints first: they place a disagreement earliest. Then a log that cannot end where the file says.
  if (sim.feed_error) {
    return at(s.stats.pieces, s.now_us, "inputs", "a playable log ending at " + format_time(rec.stats.time_us),
              *sim.feed_error);
  }
  const std::int64_t pieces = s.stats.pieces;
  const engine::TimeUs now = s.now_us;
  const bool over = sim.game.over();
  const char* replayed_status =
      s.finished ? "finished" : (s.top_out != engine::TopOut::kNone ? "topped_out" : "not over");
  const bool recorded_over = rec.status == ResultStatus::kFinished || rec.status == ResultStatus::kToppedOut;
  const bool status_ok = recorded_over ? (std::string(status_name(rec.status)) == replayed_status) : !over;
  if (!status_ok) {
    return at(pieces, now, "status", status_name(rec.status), replayed_status);
  }
  if (rec.top_out != s.top_out) {
    return at(pieces, now, "top_out", names::name_of(names::kTopOut, rec.top_out),
              names::name_of(names::kTopOut, s.top_out));
  }
  const auto want = stat_fields(rec.stats);
  const auto got = stat_fields(s.stats);
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (want[i].second != got[i].second) {
      return at(pieces, now, std::string("stats.") + want[i].first, std::to_string(want[i].second),
                std::to_string(got[i].second));
    }
  }
  const std::uint64_t final_hash = sim.game.state_hash();
  if (rec.final_hash != final_hash) return at(pieces, now, "final_hash", hex(rec.final_hash), hex(final_hash));
  return std::nullopt;
}

}  // namespace

bool plays_rules(std::uint32_t rules_version) {
  return rules_version >= kOldestRulesVersion && rules_version <= engine::kRulesVersion;
}

std::string Disagreement::describe() const {
  return "racer " + std::to_string(racer) + " \"" + racer_name + "\", piece " + std::to_string(piece) + " at " +
         format_time(time_us) + ": " + field + " differs (recorded " + recorded + ", replayed " + replayed + ")";
}

VerifyReport verify(const Replay& replay) {
  VerifyReport report;
  if (!plays_rules(replay.rules_version)) {
    report.verdict = Verdict::kUnsupportedRules;
    report.message =
        "made with rules v" + std::to_string(replay.rules_version) + ", this build plays " +
        (replay.rules_version > engine::kRulesVersion
             ? "up to v" + std::to_string(engine::kRulesVersion)
             : "v" + std::to_string(kOldestRulesVersion) + " to v" + std::to_string(engine::kRulesVersion));
    return report;
  }
  for (std::size_t i = 0; i < replay.racers.size(); ++i) {
    if (auto d = check_racer(replay, i)) report.disagreements.push_back(std::move(*d));
  }
  if (report.disagreements.empty()) {
    report.message =
        "verified " + std::to_string(replay.racers.size()) + " racer" + (replay.racers.size() == 1 ? "" : "s");
  } else {
    report.verdict = Verdict::kMismatch;
    report.message = report.disagreements.front().describe();
    if (report.disagreements.size() > 1) {
      report.message += " (and " + std::to_string(report.disagreements.size() - 1) + " more racers)";
    }
  }
  return report;
}

std::string format_time(engine::TimeUs t) {
  const bool negative = t < 0;
  const std::uint64_t u = negative ? 0 - static_cast<std::uint64_t>(t) : static_cast<std::uint64_t>(t);
  std::string frac = std::to_string(u % 1'000'000);
  frac.insert(0, 6 - frac.size(), '0');
  return std::string(negative ? "-" : "") + std::to_string(u / 1'000'000) + "." + frac + " s";
}

}  // namespace sr::replay
