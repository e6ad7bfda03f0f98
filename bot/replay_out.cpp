#include "bot/replay_out.h"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <ostream>
#include <system_error>

#include "common/replay/codec.h"
#include "common/replay/replay.h"
#include "common/replay/simulate.h"
#include "replays/store/file_io.h"

namespace sr::botcli {

namespace fs = std::filesystem;

sr::Result<ReplayOut, std::string> ReplayOut::open(const std::string& path, bool many) {
  ReplayOut out;
  out.path_ = path;
  out.many_ = many;
  std::error_code ec;
  out.directory_ = (!path.empty() && path.back() == '/') || fs::is_directory(path, ec);
  if (out.directory_) {
    fs::create_directories(path, ec);
    if (ec) return sr::fail("--out: cannot create directory " + path + ": " + ec.message());
  } else {
    const fs::path parent = fs::path(path).parent_path();
    if (!parent.empty() && !fs::is_directory(parent, ec)) {
      return sr::fail("--out: directory " + parent.string() + " does not exist");
    }
  }
  return out;
}

std::string ReplayOut::path_for(const engine::GameConfig& config, std::uint64_t seed) const {
  if (directory_) return (fs::path(path_) / fmt::format("{}-{}.srr", engine::mode_name(config.mode), seed)).string();
  if (!many_) return path_;
  // FILE.srr -> FILE-<seed>.srr (the seed goes before the extension, whatever it is).
  const fs::path p(path_);
  const std::string stem = (p.parent_path() / p.stem()).string();
  return fmt::format("{}-{}{}", stem, seed, p.has_extension() ? p.extension().string() : std::string(".srr"));
}

bool ReplayOut::write(const PlayedGame& g, std::ostream& err) {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  replay::Replay r =
      replay::replay_of(*g.config, g.seed, "local", std::chrono::duration_cast<std::chrono::milliseconds>(now).count());
  // The recorder's re-run fills the result and checkpoints; a game the bot gave up on is a forfeit at that time.
  replay::add_racer(r, *g.run, g.bot_name, replay::ResultStatus::kForfeited);
  if (auto checked = replay::check_replay(r); !checked) {
    err << "stackrace-bot: replay for seed " << g.seed << " is not storable: " << checked.error() << "\n";
    return false;
  }
  if (r.racers[0].result.final_hash != g.run->game().state_hash()) {
    err << "stackrace-bot: internal error: the recorded inputs do not reproduce the game (seed " << g.seed << ")\n";
    return false;
  }
  const std::string path = path_for(*g.config, g.seed);
  const std::vector<std::uint8_t> bytes = replay::encode_binary(r);
  if (auto written = replay::write_file_atomic(path, bytes); !written) {
    err << "stackrace-bot: cannot write " << path << ": " << written.error() << "\n";
    return false;
  }
  return true;
}

}  // namespace sr::botcli
