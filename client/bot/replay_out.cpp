#include "client/bot/replay_out.h"

#include <ostream>

namespace sr::botcli {

ReplayOut::Opened ReplayOut::open(const std::string& path, bool many) {
  (void)path;
  (void)many;
  return {std::nullopt, "--out: this build cannot write replays yet (replays/ has no writer)"};
}

bool ReplayOut::write(const PlayedGame& game, std::ostream& err) {
  (void)game;
  err << "stackrace-bot: replay writing is not available\n";
  return false;
}

std::string ReplayOut::path_for(const engine::GameConfig& config, std::uint64_t seed) const {
  (void)config;
  (void)seed;
  return path_;
}

}  // namespace sr::botcli
