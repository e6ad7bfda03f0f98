// `stackrace LINK`: a game's web link to its replay, fetched (LINK.srr over HTTP, http_get.h) and decoded with the
// replay codec, ready for the viewer. Blocking for up to the limits' timeout.
#pragma once

#include <string>
#include <string_view>

#include "client/web/http_get.h"
#include "common/replay/replay.h"
#include "common/result.h"

namespace sr::client {

// The replay a game's web link points to, or a sentence saying why not: the link is not a game's web link (or is
// https), the host cannot be reached or did not answer in time, the server answered something other than 200 (a
// game it does not have: 404), the answer was too large or broken, or what came is not a replay (the decoder's
// sentence). Only binary replays (.srr) are taken: that is what LINK.srr is.
[[nodiscard]] sr::Result<replay::Replay, std::string> fetch_replay(std::string_view link,
                                                                   const HttpGetLimits& limits = {});

}  // namespace sr::client
