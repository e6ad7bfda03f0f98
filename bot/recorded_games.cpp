#include "bot/recorded_games.h"

#include <fmt/format.h>

#include <algorithm>
#include <system_error>

#include "common/replay/replay.h"
#include "replays/store/file_io.h"

namespace sr::botcli {

sr::Result<RecordedGames, std::string> RecordedGames::load(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::directory_iterator it(dir, ec);
  if (ec) return sr::fail(fmt::format("cannot read the recorded games in {}: {}", dir.string(), ec.message()));
  std::vector<std::filesystem::path> files;
  for (; it != std::filesystem::directory_iterator(); it.increment(ec)) {
    const auto& e = *it;
    const std::string ext = e.path().extension().string();
    if (e.is_regular_file(ec) && (ext == ".srr" || ext == ".json")) files.push_back(e.path());
  }
  if (ec) return sr::fail(fmt::format("cannot read the recorded games in {}: {}", dir.string(), ec.message()));
  std::sort(files.begin(), files.end());
  RecordedGames out;
  for (const auto& f : files) {
    auto r = replay::load_replay_file(f);
    if (!r.ok()) return sr::fail(fmt::format("{}: {}", f.string(), r.error().describe()));
    const replay::Replay& rep = r.value();
    for (std::size_t i = 0; i < rep.racers.size(); ++i) {
      const replay::RacerResult& result = rep.racers[i].result;
      const bool ended =
          result.status == replay::ResultStatus::kFinished || result.status == replay::ResultStatus::kToppedOut;
      out.games_.emplace(rep.seed, Game{replay::racer_config(rep, i), rep.racers[i].inputs, f.string(),
                                        ended ? std::optional<engine::TimeUs>(result.stats.time_us) : std::nullopt});
    }
  }
  if (out.games_.empty()) return sr::fail(fmt::format("no recorded game (.srr or .json) in {}", dir.string()));
  return out;
}

const RecordedGames::Game* RecordedGames::find(std::uint64_t seed, const engine::GameConfig& config) const {
  const auto [first, last] = games_.equal_range(seed);
  for (auto it = first; it != last; ++it) {
    if (it->second.config == config) return &it->second;
  }
  return nullptr;
}

}  // namespace sr::botcli
