#include "server/web/web_config.h"

namespace sr::server::web {

WebOptions web_options(const ServerConfig& config, const ServerOptions& server, const MetricsBoard* metrics) {
  WebOptions o;
  o.bind = config.web_bind;
  o.port = config.web_port;
  o.site_dir = config.web_dir.empty() ? default_site_dir() : std::filesystem::path(config.web_dir);
  o.data_dir = server.replay_store();
  o.limits.max_streams = config.web_max_streams;
  o.limits.max_streams_per_address = config.web_streams_per_address;
  o.limits.max_connections_per_address = config.web_connections_per_address;
  o.limits.requests_per_second = config.web_requests_per_second;
  o.limits.request_burst = config.web_requests_per_second * 5;
  o.limits.max_connections = std::max(o.limits.max_connections, o.limits.max_streams + 256);
  o.limits.trusted = split_addresses(config.web_trusted_proxies);
  o.metrics = metrics;
  return o;
}

}  // namespace sr::server::web
