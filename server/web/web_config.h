// The web pages' options (WebOptions) from stackrace-server's command line and config file (server_config.h).
#pragma once

#include "server/metrics.h"
#include "server/server_config.h"
#include "server/web/web_server.h"

namespace sr::server::web {

// `server` is what the game loop runs with (its data directory is the store the pages list). `metrics`: the board
// to answer /metrics and /healthz from when they share the web port, else null.
[[nodiscard]] WebOptions web_options(const ServerConfig& config, const ServerOptions& server,
                                     const MetricsBoard* metrics);

}  // namespace sr::server::web
