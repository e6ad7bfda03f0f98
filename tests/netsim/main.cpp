// stackrace-netsim: a bad network between clients and a stackrace-server on this machine (tests/netsim/README.md).
//
//   stackrace-server --port 7878 --data-dir /tmp/sr &
//   stackrace-netsim --server 127.0.0.1:7878 --listen 7879 --profile wifi --seed 7
//   stackrace-bot --server 127.0.0.1:7879 --count 2 --create sprint
//
// It prints the port it listens on, forwards until SIGINT or SIGTERM, then prints what it did to the packets.
// Exit status: 0 stopped by a signal, 1 the proxy could not start, 2 bad arguments.
#include <signal.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <string>

#include "tests/netsim/impairment.h"
#include "tests/netsim/udp_proxy.h"

namespace {

int usage_error(const std::string& message) {
  std::fprintf(stderr, "stackrace-netsim: %s\n(run stackrace-netsim --help for the options)\n", message.c_str());
  return 2;
}

void print_direction(const char* label, const sr::netsim::Counters& c) {
  std::printf("  %s in %" PRIu64 ", out %" PRIu64 ", lost %" PRIu64 ", blacked out %" PRIu64 ", overflowed %" PRIu64
              ", duplicated %" PRIu64 ", reordered %" PRIu64 "\n",
              label, c.in, c.out, c.lost, c.blacked_out, c.overflowed, c.duplicated, c.reordered);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace sr::netsim;
  std::string names;
  for (const std::string& n : all_profile_names()) names += (names.empty() ? "" : ", ") + n;

  CLI::App app{
      "stackrace-netsim: a UDP proxy on 127.0.0.1 that delays, jitters, loses, reorders and duplicates "
      "packets between clients and a server, seeded so that a run repeats"};
  std::string server;
  int listen_port = 0;
  std::string profile_name;
  std::uint64_t seed = 1;
  std::int64_t offset_ms = kDefaultEventOffsetUs / 1000;
  app.add_option("--server", server, "127.0.0.1:PORT of the stackrace-server to forward to")->required();
  app.add_option("--listen", listen_port, "UDP port on 127.0.0.1 for the clients (0 = any free port)")
      ->capture_default_str();
  app.add_option("--profile", profile_name, "the network: " + names)->required();
  app.add_option("--seed", seed, "seed of the impairments: the same seed and traffic give the same run")
      ->capture_default_str();
  app.add_option("--offset-ms", offset_ms,
                 "when the blackout or the address change starts, in milliseconds after the proxy starts")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  const auto target_port = parse_loopback_endpoint(server);
  if (!target_port) return usage_error("--server: " + target_port.error());
  if (listen_port < 0 || listen_port > 65535) {
    return usage_error("--listen: the port must be from 0 to 65535, not " + std::to_string(listen_port));
  }
  if (offset_ms < 0) return usage_error("--offset-ms must be 0 or more, not " + std::to_string(offset_ms));
  auto profile = profile_by_name(profile_name, offset_ms * 1000);
  if (!profile) return usage_error("--profile: " + profile.error());

  ProxyOptions options;
  options.target_port = target_port.value();
  options.listen_port = static_cast<std::uint16_t>(listen_port);
  options.profile = std::move(profile).value();
  options.seed = seed;
  auto proxy = UdpProxy::open(options);
  if (!proxy) {
    std::fprintf(stderr, "stackrace-netsim: %s\n", proxy.error().c_str());
    return 1;
  }

  // The signals are blocked before the proxy's thread starts, so that thread inherits the mask and only sigwait()
  // below takes them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  const auto started = std::chrono::steady_clock::now();
  proxy.value()->start();
  std::printf("stackrace-netsim: profile %s, seed %" PRIu64 ": listening on 127.0.0.1:%u, forwarding to %s\n",
              options.profile.name.c_str(), seed, proxy.value()->listen_port(), server.c_str());
  std::fflush(stdout);

  int signal_number = 0;
  while (sigwait(&signals, &signal_number) != 0) {
  }
  proxy.value()->stop();

  const ProxyCounters c = proxy.value()->counters();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("stackrace-netsim stopped after %.1f s: clients %" PRIu64 ", address changes %" PRIu64
              ", send errors %" PRIu64 ", packets refused %" PRIu64 "\n",
              seconds, c.clients, c.address_changes, c.send_errors, c.refused_packets);
  print_direction("client to server:", c.up);
  print_direction("server to client:", c.down);
  return 0;
}
