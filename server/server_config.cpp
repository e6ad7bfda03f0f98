#include "server/server_config.h"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>

#include "common/protocol/messages.h"
#include "common/protocol/web_url.h"
#include "replays/store/pg_db.h"
#include "server/records_agent.h"

namespace sr::server {
namespace {

std::chrono::milliseconds milliseconds_of(double seconds) {
  return std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000.0 + 0.5));
}

}  // namespace

std::vector<std::string> split_addresses(const std::string& list) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    std::string item = list.substr(start, comma - start);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (!item.empty()) out.push_back(item);
    start = comma + 1;
  }
  return out;
}

void add_server_options(CLI::App& app, ServerConfig& config) {
  ServerOptions& o = config.server;
  app.set_config("--config", "", "read options from a TOML file (same keys as the long options)");
  app.allow_config_extras(CLI::config_extras_mode::error);

  // For unsigned options: CLI11 would wrap "-1" round to 2^64 - 1.
  const auto not_negative = [](const std::string& text) {
    return text.find('-') != std::string::npos ? std::string("must not be negative") : std::string();
  };
  app.add_option("--port", o.port, "UDP port to listen on (0 = any free port)")->capture_default_str();
  app.add_option("--bind", o.bind, "address to listen on (0.0.0.0 = every interface)")->capture_default_str();
  app.add_option("--data-dir", config.data_dir, "replay store directory (created if missing)")->capture_default_str();
  app.add_option("--database", config.database,
                 "keep the replay store (and a --contest ladder) in this PostgreSQL database instead of --data-dir: "
                 "postgresql://[user[:password]@]host[:port]/db (missing parts from PGHOST, PGPORT, PGUSER, "
                 "PGPASSWORD, PGDATABASE); the servers of a fleet can share one")
      ->check([](const std::string& uri) {
        return uri.empty() || sr::replay::pg::is_locator(uri) ? std::string()
                                                              : std::string("must start with postgresql://");
      });
  app.add_option("--replay-low-space-mb", config.replay_low_space_mb,
                 "warn (log and the stackrace_replay_disk_low metric) when the replay store has less free space")
      ->capture_default_str()
      ->check(not_negative);
  app.add_option("--max-players", o.lobby.max_players, "most players connected at once")
      ->capture_default_str()
      ->check(CLI::Range(1, 4000));
  app.add_option("--max-rooms", o.lobby.max_rooms, "most rooms at once")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000));
  app.add_option("--max-per-address", o.lobby.max_per_address, "most players connected from one IP address")
      ->capture_default_str()
      ->check(CLI::Range(1, 4000));
  app.add_option("--max-rooms-per-address", o.lobby.address.max_rooms, "most open rooms made from one IP address")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000));
  app.add_option("--trust-addresses", config.trusted_addresses,
                 "IP addresses, comma-separated, that the per-address limits do not apply to (e.g. 127.0.0.1 for a "
                 "load test whose bots all run on this machine)")
      ->capture_default_str()
      ->check([](const std::string& list) {
        for (const std::string& a : split_addresses(list)) {
          if (const std::string bad = CLI::ValidIPV4(std::string(a)); !bad.empty()) return "'" + a + "': " + bad;
        }
        return std::string();
      });
  app.add_option("--connects-per-second", config.connects_per_second,
                 "connection attempts one IP address may make a second (after a burst of --max-per-address); more are "
                 "dropped unanswered")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  app.add_option("--room-idle-minutes", config.room_idle_minutes,
                 "close a room after this many minutes with no race and nobody joining")
      ->capture_default_str()
      ->check(CLI::Range(1, 10080));
  app.add_option("--lobby-idle-minutes", config.lobby_idle_minutes,
                 "drop a player who has been in the lobby (no room, no race) this many minutes without asking anything "
                 "(0: never)")
      ->capture_default_str()
      ->check(CLI::Range(0, 10080));
  app.add_option("--name", o.lobby.server_name, "server name shown to players")
      ->capture_default_str()
      ->check([](const std::string& s) {
        return s.empty() || s.size() > protocol::kMaxServerNameBytes ? std::string("1 to 32 characters") : "";
      });
  app.add_option("--motd", o.lobby.motd, "message of the day shown on joining")->check([](const std::string& s) {
    return s.size() > protocol::kMaxMotdBytes ? std::string("at most 1024 bytes") : "";
  });
  app.add_option("--relay-every-ms", config.relay_every_ms,
                 "how often a racing room sends each member what the others played since the last time, all of it in "
                 "one datagram (adds at most this long to what a player sees of the others, nothing to their own "
                 "game); 0: every input at once, a datagram per input per opponent")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 50.0));
  app.add_option("--race-seeds", o.race_seeds_from,
                 "race seeds FIRST, FIRST+1, ... in the order races start instead of random ones: for load tests and "
                 "benchmarks, whose games are recorded beforehand; never on a public server (the pieces are known); "
                 "0: random")
      ->capture_default_str()
      ->check(not_negative);
  app.add_option("--log-level", config.log_level, "trace, debug, info, warn, error or off")
      ->capture_default_str()
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));

  const char* contest = "Contest ladder";
  app.add_flag("--contest", config.contest,
               "run a contest: a ladder of named entrants (bots or people) playing contest games (90 seconds, or "
               "--contest-seconds), each "
               "with --ladder-ranked-games ranked games, ranked by the average of their best 3 scores; kept in "
               "DATA_DIR/ladder.sqlite, or with --database in that database, shared by the servers on it "
               "(deploy/README.md, \"Contest ladder\")")
      ->group(contest);
  app.add_option("--ladder-ranked-games", config.ladder_ranked_games,
                 "with --contest: ranked games each entrant may play (practice games are unlimited)")
      ->capture_default_str()
      ->check(CLI::Range(1, static_cast<int>(protocol::kMaxLadderRankedGames)))
      ->group(contest);
  app.add_option("--contest-seconds", config.contest_seconds,
                 "with --contest: how long each contest game lasts; scores of games of different lengths do not "
                 "compare, so keep one length for a ladder's life (a short one is for trial runs and tests)")
      ->capture_default_str()
      ->check(CLI::Range(5, 600))
      ->group(contest);

  const char* monitoring = "Monitoring";
  app.add_option("--metrics-port", config.metrics.port,
                 "TCP port of the Prometheus endpoint (http://BIND:PORT/metrics, /healthz); 0 = off")
      ->capture_default_str()
      ->group(monitoring);
  app.add_option("--metrics-bind", config.metrics.bind, "address of the metrics endpoint")
      ->capture_default_str()
      ->group(monitoring);

  const char* web = "Web pages";
  app.add_option("--web-port", config.web_port,
                 "TCP port of the web pages (every stored game and live race, the JSON API); 0 = off. May equal "
                 "--metrics-port: one HTTP server then serves both")
      ->capture_default_str()
      ->group(web);
  app.add_option("--web-bind", config.web_bind, "address of the web pages (with --metrics-port equal: of both)")
      ->capture_default_str()
      ->group(web);
  app.add_option("--web-url", config.web_url,
                 "the pages' public address, told to players so the game can copy a game's web link (e.g. "
                 "https://races.example.org/stackrace behind a reverse proxy); default http://HOST:WEB_PORT with the "
                 "host each player connected to; ignored without --web-port")
      ->check([](const std::string& s) {
        if (s.empty()) return std::string();
        auto url = protocol::parse_web_url(s);
        return url ? std::string() : "not an http(s) URL: " + url.error();
      })
      ->group(web);
  app.add_option("--web-dir", config.web_dir,
                 "the site's files (default: web/site of the build beside the program, else /usr/share/stackrace/web)")
      ->group(web);
  app.add_option("--web-trusted-proxies", config.web_trusted_proxies,
                 "comma-separated addresses of reverse proxies: their X-Forwarded-For names the client, and they are "
                 "not limited per address")
      ->group(web);
  app.add_option("--web-max-streams", config.web_max_streams, "live pages open at once, every address together")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{100'000}))
      ->group(web);
  app.add_option("--web-streams-per-address", config.web_streams_per_address, "live pages open from one address")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{10'000}))
      ->group(web);
  app.add_option("--web-connections-per-address", config.web_connections_per_address,
                 "HTTP connections open from one address")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{10'000}))
      ->group(web);
  app.add_option("--web-requests-per-second", config.web_requests_per_second,
                 "requests per second from one address (bursts of five seconds' worth)")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{100'000}))
      ->group(web);

  const char* finding = "Public servers and LAN discovery";
  app.add_option("--lan-port", config.lan_port,
                 "UDP port on which players' games find this server on their local network (broadcast and IPv6 "
                 "multicast; common/protocol/DIRECTORY.md)")
      ->capture_default_str()
      ->check(CLI::Range(1, 65535))
      ->group(finding);
  app.add_flag("--no-lan", config.no_lan, "do not answer LAN discovery")->group(finding);
  app.add_flag("--public", config.public_server,
               "list this server in the directories given with --directory (it registers, proves its address and "
               "renews its entry)")
      ->group(finding);
  app.add_option("--directory", config.directories,
                 "with --public: the URL of a server directory (stackrace-hub), e.g. http://hub.example.org:8080; may "
                 "be given more than once")
      ->check([](const std::string& s) {
        if (s.empty()) return std::string();  // the config file's `directory = ""`: none
        auto url = protocol::parse_web_url(s);
        return url ? std::string() : "not an http(s) URL: " + url.error();
      })
      ->group(finding);

  const char* records = "Records";
  app.add_option("--records", config.records,
                 "submit every stored race in which a racer signed their run to this records hub (its http:// base "
                 "URL, e.g. http://hub.example.org:8470), signed with the server's key DATA_DIR/server.key; queued in "
                 "DATA_DIR/records-queue until the hub takes them (deploy/README.md, \"Records\")")
      ->check([](const std::string& url) {
        if (url.empty()) return std::string();  // the config file's `records = ""`: off
        auto checked = check_records_url(url);
        return checked ? std::string() : checked.error();
      })
      ->group(records);
  app.add_option("--records-queue-mb", config.records_queue_mb,
                 "with --records: the most the queue of submissions waiting for the hub may hold (MiB); past it, new "
                 "races are not submitted (counted in stackrace_records_dropped_total)")
      ->capture_default_str()
      ->check(not_negative)
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 20))
      ->group(records);

  const char* agones = "Agones (Kubernetes fleets)";
  app.add_flag("--agones", config.agones,
               "report to the Agones SDK sidecar (localhost:$AGONES_SDK_HTTP_PORT, default 9358): ready, health, "
               "player count label, shutdown when idle")
      ->group(agones);
  app.add_option("--agones-idle-shutdown", config.agones_idle_shutdown_s,
                 "with --agones: shut down after this many seconds with no rooms and no players (0 = never)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 7.0 * 24 * 3600))
      ->group(agones);
  app.add_option("--agones-health-interval", config.agones_health_interval_s,
                 "with --agones: seconds between health pings (keep below the GameServer's health periodSeconds)")
      ->capture_default_str()
      ->check(CLI::Range(0.05, 60.0))
      ->group(agones);

  app.add_flag("--check-config", config.check_config, "check the options and the config file, then exit")
      ->group(kActionsGroup);
  app.add_flag("--health-check", config.health_check,
               "ask the server running with these options for /healthz on its metrics port; exit 0 when healthy "
               "(container health checks)")
      ->group(kActionsGroup);
}

ServerOptions server_options(const ServerConfig& config) {
  ServerOptions options = config.server;
  options.data_dir = config.data_dir;
  options.database = config.database;
  options.writer.low_space_bytes = config.replay_low_space_mb << 20;
  options.net.max_peers = options.lobby.max_players + 64;  // room for refusals beyond the player limit
  // The lobby refuses connections beyond --max-per-address with a message. ENet's own limit, which refuses without
  // a word, is a little above it (room for those refusals to be sent): one address can never hold more slots than
  // that, however fast it connects.
  options.net.max_peers_per_ip =
      std::min(options.net.max_peers, options.lobby.max_per_address + options.lobby.address.max_pending);
  options.lobby.room_idle_us = static_cast<TimeUs>(config.room_idle_minutes) * 60'000'000;
  options.relay_every_us = static_cast<TimeUs>(std::llround(config.relay_every_ms * 1000.0));
  options.lobby.lobby_idle_us = static_cast<TimeUs>(config.lobby_idle_minutes) * 60'000'000;
  options.lobby.address.trusted = split_addresses(config.trusted_addresses);
  options.lobby.web_port = config.web_port;
  options.lobby.web_url = config.web_port != 0 ? config.web_url : std::string();  // no pages, no address
  options.lan_port = config.no_lan ? 0 : config.lan_port;
  options.records.hub = config.records;
  options.records.queue.max_bytes = config.records_queue_mb << 20;
  options.ladder.enabled = config.contest;
  options.ladder.rules.ranked_games = config.ladder_ranked_games;
  options.ladder.rules.counted_best = std::min(3, config.ladder_ranked_games);
  options.ladder.contest_seconds = config.contest_seconds;
  if (config.contest && options.lobby.motd.empty()) {
    options.lobby.motd = fmt::format(
        "Contest: {}-second games, {} ranked games per entrant, ranked by the average of the best {}. People enter "
        "from this lobby: \"Contest ladder\" shows the leaderboard, its replays and a Play button. Bots enter with "
        "stackrace-bot --server HOST:PORT --ladder NAME; see the leaderboard with --leaderboard.",
        config.contest_seconds, options.ladder.rules.ranked_games, options.ladder.rules.counted_best);
  }
  // The gate lets a whole household reconnect at once (after its router restarted, say).
  options.net.connect_gate.burst = static_cast<std::int64_t>(options.lobby.max_per_address);
  options.net.connect_gate.per_second = config.connects_per_second;
  for (const std::string& a : options.lobby.address.trusted) {
    in_addr parsed{};
    if (inet_pton(AF_INET, a.c_str(), &parsed) == 1) options.net.connect_gate.trusted.push_back(parsed.s_addr);
  }
  return options;
}

std::vector<std::string> directory_urls(const ServerConfig& config) {
  std::vector<std::string> urls;
  for (const std::string& url : config.directories) {
    if (!url.empty()) urls.push_back(url);
  }
  return urls;
}

sr::Status<std::string> check_public(const ServerConfig& config) {
  const std::vector<std::string> urls = directory_urls(config);
  if (config.public_server && urls.empty()) {
    return std::string("--public needs a directory to be listed in: give its URL with --directory URL");
  }
  if (!config.public_server && !urls.empty()) {
    return std::string("--directory is given without --public: add --public to list this server there");
  }
  return {};
}

sr::Status<std::string> agones_options(const ServerConfig& config, AgonesOptions& out) {
  out.health_every = milliseconds_of(config.agones_health_interval_s);
  out.idle_shutdown = milliseconds_of(config.agones_idle_shutdown_s);
  if (const char* env = std::getenv("AGONES_SDK_HTTP_PORT"); env != nullptr && *env != '\0') {
    char* end = nullptr;
    const long port = std::strtol(env, &end, 10);
    if (*end != '\0' || port < 1 || port > 65535) {
      return std::string("AGONES_SDK_HTTP_PORT is not a port number: '") + env + "'";
    }
    out.port = static_cast<std::uint16_t>(port);
  }
  return {};
}

}  // namespace sr::server
