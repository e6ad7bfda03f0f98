#include "client/game/replay_link.h"

#include <algorithm>
#include <ctime>
#include <fstream>

#include "client/game/modes.h"

#ifdef STACKRACE_HAVE_REPLAY
#include "replays/codec.h"
#include "replays/replay.h"
#include "replays/simulate.h"
#endif

namespace sr::client {

SoloRecord record_of(const SoloSession& session, const std::string& player_name, std::int64_t started_unix_ms) {
  const auto& game = session.game();
  SoloRecord r;
  r.config = game.config();
  r.seed = game.seed();
  r.inputs = session.inputs();
  r.stats = game.stats();
  r.finished = game.state().finished;
  r.abandoned = session.abandoned();
  r.top_out = game.state().top_out;
  r.final_state_hash = game.state_hash();
  r.player_name = player_name;
  r.started_unix_ms = started_unix_ms;
  return r;
}

#ifdef STACKRACE_HAVE_REPLAY

replay::Replay to_replay(const SoloRecord& r) {
  replay::Replay out;
  out.created_unix_ms = std::clamp<std::int64_t>(r.started_unix_ms, 0, replay::kMaxCreatedUnixMs);
  out.place = "local";
  out.config = r.config;
  out.config.handling = engine::Handling{};  // not stored: the racer carries it
  out.seed = r.seed;
  replay::Racer racer;
  racer.name = replay::valid_text(r.player_name, replay::kMaxNameBytes) && !r.player_name.empty() ? r.player_name
                                                                                                   : "player";
  racer.handling = r.config.handling;
  for (const auto& in : r.inputs) racer.inputs.push_back({in.time_us, in.buttons});
  out.racers.push_back(std::move(racer));
  // The recorder's own re-run fills the result and checkpoints, so the file verifies by construction; a game that
  // had not ended by itself is a forfeit at the time the player left.
  replay::record_racer(out, 0, r.stats.time_us, replay::ResultStatus::kForfeited);
  return out;
}

#endif

// Until the replay store (sr_replay_store: replay directory + SQLite index) is in the tree, replays are written
// straight into the replay directory with the replay codec, and personal bests are not known.
struct ReplayLink::Store {};

ReplayLink::ReplayLink(std::filesystem::path replay_dir) : dir_(std::move(replay_dir)) {}
ReplayLink::~ReplayLink() = default;

#ifdef STACKRACE_HAVE_REPLAY

bool ReplayLink::available() { return true; }

SaveOutcome ReplayLink::save(const SoloRecord& record) {
  const replay::Replay r = to_replay(record);
  if (auto problem = replay::replay_error(r)) return {{}, "the replay is not storable: " + *problem};
  const std::vector<std::uint8_t> bytes = replay::encode_binary(r);
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) return {{}, "cannot create " + dir_.string() + ": " + ec.message()};
  const std::time_t secs = static_cast<std::time_t>(record.started_unix_ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  std::string mode = mode_label(record.config);
  std::replace(mode.begin(), mode.end(), ' ', '-');
  const auto path = dir_ / (std::string(stamp) + "-" + mode + "-" + std::to_string(record.seed) + ".srr");
  const auto tmp = std::filesystem::path(path.string() + ".tmp");
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) return {{}, "cannot write " + tmp.string()};
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) return {{}, "cannot rename " + tmp.string() + ": " + ec.message()};
  return {path, {}};
}

#else

bool ReplayLink::available() { return false; }

SaveOutcome ReplayLink::save(const SoloRecord&) {
  return {{}, "this build has no replay library (replays/); the game was not saved"};
}

#endif

std::optional<RunResult> ReplayLink::personal_best(const engine::GameConfig&) { return std::nullopt; }

}  // namespace sr::client
