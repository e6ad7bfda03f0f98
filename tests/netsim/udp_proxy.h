// A UDP impairment proxy on loopback: clients send to its listening port, it forwards to a server (127.0.0.1 only)
// and back, through one Impairer (tests/netsim/impairment.h) per client and direction. The kernels the tests run on
// have no netem, so this is the test bed's network (tests/netsim/README.md).
//
// # Clients
// Each distinct source address that sends to the listening port is a client, numbered from 0 in order of arrival.
// It gets its own upstream socket (the server sees one address per client, as without the proxy) and its own
// Impairers, seeded with derive_seed(seed, client index, direction).
//
// # Time
// The proxy runs on its own thread with the monotonic clock. The profile's blackouts and address change count from
// the origin: start() unless arm() says otherwise, so a test can start them at the start of a race.
//
// # Address change
// When the profile has one, at that time each client's upstream socket is replaced by a new one: the server sees the
// client's packets come from a new source port, and replies to the new port still reach the client. Replies to the
// old port are lost, as when a phone moves from Wi-Fi to mobile data. A client first seen after that time keeps the
// one address it has.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/result.h"
#include "tests/netsim/impairment.h"

namespace sr::netsim {

// The only address the proxy listens on and forwards to.
inline constexpr const char* kLoopback = "127.0.0.1";

// Parses "127.0.0.1:PORT" into the port.
// # Errors
// No ':', a host other than 127.0.0.1, or a port that is not a number in 1..65535.
[[nodiscard]] sr::Result<std::uint16_t, std::string> parse_loopback_endpoint(const std::string& host_port);

struct ProxyOptions {
  std::string target_host = kLoopback;  // must be 127.0.0.1
  std::uint16_t target_port = 0;        // 1..65535: the server's port
  std::uint16_t listen_port = 0;        // 0: any free port (UdpProxy::listen_port() says which)
  Profile profile;                      // applied in both directions
  std::uint64_t seed = 1;
  std::size_t max_queued_per_direction = Impairer::kDefaultMaxQueued;  // per client, >= 2
  std::size_t max_clients = 256;  // packets from further source addresses are dropped and counted
};

struct ProxyCounters {
  Counters up;                        // client to server, every client summed
  Counters down;                      // server to client
  std::uint64_t send_errors = 0;      // copies the kernel refused to send (counted in `out` too)
  std::uint64_t clients = 0;          // distinct client addresses seen
  std::uint64_t refused_packets = 0;  // from clients beyond max_clients, or whose upstream socket could not open
  std::uint64_t address_changes = 0;  // upstream sockets replaced
};

class UdpProxy {
 public:
  // Opens the listening socket; the thread starts with start().
  // # Errors
  // A target other than 127.0.0.1, a target port of 0, a profile that check_profile() refuses, or a socket that
  // cannot be opened or bound (the port is taken), each as a sentence.
  [[nodiscard]] static sr::Result<std::unique_ptr<UdpProxy>, std::string> open(ProxyOptions options);

  UdpProxy(const UdpProxy&) = delete;
  UdpProxy& operator=(const UdpProxy&) = delete;
  ~UdpProxy();  // stops

  [[nodiscard]] std::uint16_t listen_port() const { return listen_port_; }

  // Starts forwarding on the proxy's thread; the origin is now unless arm() set it. Does nothing when running.
  void start();
  // Stops the thread (within about 10 ms); what is still queued waits for the next start(). Safe to call twice.
  void stop();

  // Sets time zero of the profile's blackouts and address change; it applies to packets from then on.
  void arm(std::chrono::steady_clock::time_point origin);
  void arm() { arm(std::chrono::steady_clock::now()); }

  // A snapshot, updated by the proxy's thread after each round of its loop.
  [[nodiscard]] ProxyCounters counters() const;

 private:
  struct Client;
  explicit UdpProxy(ProxyOptions options);

  void run();
  void receive_from_clients(TimeUs now_us);
  void receive_from_server(Client& client, TimeUs now_us);
  void change_addresses(TimeUs now_us);
  void deliver(TimeUs now_us);
  [[nodiscard]] TimeUs poll_timeout_us(TimeUs now_us) const;
  void publish_counters();

  ProxyOptions options_;
  int listen_fd_ = -1;
  std::uint16_t listen_port_ = 0;
  std::vector<std::unique_ptr<Client>> clients_;  // owned by the thread while it runs
  std::uint64_t send_errors_ = 0;
  std::uint64_t refused_packets_ = 0;
  std::uint64_t address_changes_ = 0;
  std::vector<std::uint8_t> buffer_;

  std::atomic<bool> stop_{false};
  std::atomic<bool> armed_{false};
  std::atomic<TimeUs> origin_us_{0};  // on the proxy's clock (monotonic_us() in udp_proxy.cpp)
  std::thread thread_;
  mutable std::mutex counters_mutex_;
  ProxyCounters published_;
};

}  // namespace sr::netsim
