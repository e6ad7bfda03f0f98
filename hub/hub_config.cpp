#include "hub/hub_config.h"

#include <httplib.h>

#include <algorithm>

namespace sr::hub {

void add_hub_options(CLI::App& app, HubConfig& config) {
  HubHttpOptions& h = config.http;
  HubLimits& l = config.limits;
  app.add_option("--bind", h.bind, "address to listen on (0.0.0.0 = every IPv4 interface, :: = IPv6 and IPv4)")
      ->capture_default_str();
  app.add_option("--port", h.port, "TCP port of the HTTP API and page (0 = any free port)")->capture_default_str();
  app.add_option("--data-dir", config.data_dir,
                 "data directory, created if missing: the records (records.sqlite) and their replays (replays/); "
                 "without it the hub keeps no records");
  app.add_option("--database", config.database,
                 "keep the records and their replays in this PostgreSQL database instead of --data-dir: "
                 "postgresql://[user[:password]@]host[:port]/db (missing parts from PGHOST, PGPORT, PGUSER, "
                 "PGPASSWORD, PGDATABASE); it may be the database a fleet's servers keep their games in")
      ->check([](const std::string& v) {
        return v.rfind("postgresql://", 0) == 0 || v.rfind("postgres://", 0) == 0
                   ? std::string()
                   : std::string("must start with postgresql://");
      });
  app.add_option("--web-dir", config.web_dir,
                 "the web site for the replay page (default: web/site of the build beside the program, else "
                 "/usr/share/stackrace/web)");
  app.add_option("--log-level", config.log_level, "trace, debug, info, warn, error or off")
      ->capture_default_str()
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));

  const char* limits = "Limits";
  app.add_option("--servers-per-address", l.servers_per_address,
                 "servers listed from one address (IPv6: one /64); more are refused with 429")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{100'000}))
      ->group(limits);
  app.add_option("--challenges-per-address", l.challenges_per_address, "open challenges for one address (IPv6: /64)")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{100'000}))
      ->group(limits);
  app.add_option("--max-servers", l.max_servers, "servers listed in all; more are refused with 503")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1'000'000}))
      ->group(limits);
  app.add_option("--max-challenges", l.max_challenges, "open challenges in all; more are refused with 503")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1'000'000}))
      ->group(limits);
  app.add_option("--registrations-per-second", l.registrations_per_second,
                 "registrations one address (IPv6: one /64) may make a second, after a burst of --registration-burst")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{100'000}))
      ->group(limits);
  app.add_option("--registration-burst", l.registration_burst, "registrations one address may make at once")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{100'000}))
      ->group(limits);
  app.add_option("--rate-table-size", l.rate_table_addresses,
                 "addresses the rate limiter remembers (the least recently seen is forgotten past this)")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{10'000'000}))
      ->group(limits);
  app.add_option("--expire-seconds", config.expire_seconds,
                 "drop a server not renewed for this long (servers renew every third of it)")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{3}, std::int64_t{3600}))
      ->group(limits);
  app.add_option("--challenge-seconds", config.challenge_seconds, "an unanswered challenge lapses after this long")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{600}))
      ->group(limits);

  const char* records_group = "Records";
  app.add_option("--trust", config.trust_keys,
                 "a game server's key (64 hex digits) whose races go on the trusted lists; may be repeated")
      ->group(records_group);
  app.add_option("--trust-file", config.trust_files,
                 "a file of trusted server keys: one per line, optionally a name after it, # comments; may be repeated")
      ->group(records_group);
  app.add_option("--submissions-per-second", config.submissions_per_second,
                 "submissions one address (IPv6: one /64), and one server key, may make a second, after a burst of "
                 "--submission-burst")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{100'000}))
      ->group(records_group);
  app.add_option("--submission-burst", config.submission_burst,
                 "submissions one address or server key may make at once")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{100'000}))
      ->group(records_group);

  const char* http = "HTTP";
  app.add_option("--threads", h.threads, "threads answering requests")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{256}))
      ->group(http);
  app.add_option("--queue", h.queue, "connections accepted and waiting for a thread; past this, accepting waits")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{100'000}))
      ->group(http);
  app.add_option("--timeout-seconds", h.timeout_s,
                 "a connection's read and write timeout (slow clients are cut off) and keep-alive time")
      ->capture_default_str()
      ->check(CLI::Range(1, 300))
      ->group(http);

  app.add_flag("--check-config", config.check_config, "check the options, then exit")->group("Actions");
  app.add_flag("--health-check", config.health_check,
               "ask the hub running with these options for /healthz; exit 0 when it answers (container health checks)")
      ->group("Actions");
}

HubLimits hub_limits(const HubConfig& config) {
  HubLimits l = config.limits;
  l.expire_ms = config.expire_seconds * 1000;
  l.challenge_ms = config.challenge_seconds * 1000;
  l.every_s = std::max<std::int64_t>(1, config.expire_seconds / 3);
  return l;
}

records::RecordsOptions records_options(const HubConfig& config) {
  records::RecordsOptions o;
  o.data_dir = config.data_dir;
  o.database = config.database;
  o.submissions_per_second = config.submissions_per_second;
  o.submission_burst = config.submission_burst;
  o.rate_table_size = config.limits.rate_table_addresses;
  o.verify_slots = std::max<std::size_t>(1, config.http.threads / 2);
  return o;
}

sr::Status<std::string> probe_health(const HubHttpOptions& options) {
  std::string host = options.bind;
  if (host.empty() || host == "0.0.0.0") host = "127.0.0.1";
  if (host == "::") host = "::1";
  httplib::Client client(host, options.port);
  client.set_connection_timeout(2, 0);
  client.set_read_timeout(3, 0);
  const std::string url = "http://" + (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" +
                          std::to_string(options.port) + "/healthz";
  const httplib::Result result = client.Get("/healthz");
  if (!result) return "no answer from " + url + ": " + httplib::to_string(result.error());
  if (result->status != 200) return "unhealthy (HTTP " + std::to_string(result->status) + "): " + result->body;
  return {};
}

}  // namespace sr::hub
