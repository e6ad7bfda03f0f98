#include "client/game/bot_racer.h"

namespace sr::client {

// Until the bot (common/bot, target sr_bot) is in the tree, there is no second board.
bool BotRacer::available() { return false; }

std::unique_ptr<BotRacer> BotRacer::create(const engine::GameConfig&, std::uint64_t, double, std::string& error) {
  error = "this build has no bot (common/bot is not built yet)";
  return nullptr;
}

}  // namespace sr::client
