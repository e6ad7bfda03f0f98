#include "client/web/replay_fetch.h"

#include "client/web/game_link.h"
#include "common/replay/codec.h"

namespace sr::client {

sr::Result<replay::Replay, std::string> fetch_replay(std::string_view link, const HttpGetLimits& limits) {
  auto parsed = parse_game_link(link);
  if (!parsed) return parsed.error();
  protocol::WebUrl file = parsed.value().page;
  file.path = parsed.value().replay_path();
  const std::string address = protocol::to_string(file);
  auto body = http_get(file, limits);
  if (!body) {
    const HttpError& e = body.error();
    if (e.kind == HttpErrorKind::kStatus && e.status == 404) {
      return "cannot download " + address + ": " + e.message + " (the server has no such game)";
    }
    return "cannot download " + address + ": " + e.message;
  }
  auto decoded = replay::decode_binary(body.value());
  if (!decoded) return "what " + address + " sent is not a replay: " + decoded.error().describe();
  return std::move(decoded.value());
}

}  // namespace sr::client
