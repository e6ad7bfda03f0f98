#include "tests/netsim/udp_proxy.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <ctime>
#include <utility>

namespace sr::netsim {
namespace {

// The proxy's loop never waits longer than this, so stop() and arm() take effect within it.
constexpr TimeUs kMaxPollUs = 10'000;
// Datagrams read from one socket in one round of the loop, so that a flood on one socket starves no other.
constexpr int kMaxReadsPerRound = 256;
constexpr std::size_t kMaxDatagramBytes = 65'536;

TimeUs to_us(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count();
}

TimeUs monotonic_us() { return to_us(std::chrono::steady_clock::now()); }

std::string errno_text(const std::string& what) { return what + ": " + std::strerror(errno); }

sockaddr_in loopback_address(std::uint16_t port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(port);
  return a;
}

bool same_address(const sockaddr_in& a, const sockaddr_in& b) {
  return a.sin_addr.s_addr == b.sin_addr.s_addr && a.sin_port == b.sin_port;
}

// A non-blocking UDP socket bound to 127.0.0.1:port (0: any free port), connected to 127.0.0.1:connect_port unless
// that is 0. The descriptor, or the reason it could not be made.
sr::Result<int, std::string> open_socket(std::uint16_t port, std::uint16_t connect_port) {
  const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  if (fd < 0) return sr::fail(errno_text("cannot open a UDP socket"));
  const auto fail = [fd](const std::string& what) {
    std::string text = errno_text(what);
    ::close(fd);
    return sr::fail(std::move(text));
  };
  const int flags = ::fcntl(fd, F_GETFL, 0);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) return fail("cannot make a socket non-blocking");
  if (::fcntl(fd, F_SETFD, FD_CLOEXEC) < 0) return fail("cannot set close-on-exec on a socket");
  const sockaddr_in local = loopback_address(port);
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&local), sizeof local) < 0) {
    return fail("cannot bind 127.0.0.1:" + std::to_string(port));
  }
  if (connect_port != 0) {
    const sockaddr_in remote = loopback_address(connect_port);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&remote), sizeof remote) < 0) {
      return fail("cannot connect to 127.0.0.1:" + std::to_string(connect_port));
    }
  }
  return fd;
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

struct UdpProxy::Client {
  Client(const sockaddr_in& from, std::uint64_t number, int fd, const ProxyOptions& options)
      : address(from),
        index(number),
        upstream_fd(fd),
        up(options.profile, derive_seed(options.seed, number, Direction::kUp), options.max_queued_per_direction),
        down(options.profile, derive_seed(options.seed, number, Direction::kDown), options.max_queued_per_direction) {}
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;
  ~Client() { close_fd(upstream_fd); }

  sockaddr_in address;  // where the client sends from, and where its replies go
  std::uint64_t index;
  int upstream_fd;  // connected to the server
  bool address_changed = false;
  Impairer up;
  Impairer down;
};

sr::Result<std::uint16_t, std::string> parse_loopback_endpoint(const std::string& host_port) {
  const std::size_t colon = host_port.rfind(':');
  if (colon == std::string::npos) return sr::fail("'" + host_port + "' has no port: write 127.0.0.1:PORT");
  const std::string host = host_port.substr(0, colon);
  const std::string port_text = host_port.substr(colon + 1);
  if (host != kLoopback) {
    return sr::fail("the network simulator works on loopback only: the host must be 127.0.0.1, not '" + host + "'");
  }
  unsigned port = 0;
  const char* end = port_text.data() + port_text.size();
  const auto [ptr, ec] = std::from_chars(port_text.data(), end, port);
  if (port_text.empty() || ec != std::errc{} || ptr != end || port < 1 || port > 65535) {
    return sr::fail("the port must be a number from 1 to 65535, not '" + port_text + "'");
  }
  return static_cast<std::uint16_t>(port);
}

sr::Result<std::unique_ptr<UdpProxy>, std::string> UdpProxy::open(ProxyOptions options) {
  if (options.target_host != kLoopback) {
    return sr::fail("the proxy forwards to 127.0.0.1 (loopback) only, not to '" + options.target_host + "'");
  }
  if (options.target_port == 0) return sr::fail(std::string("the target port must be from 1 to 65535, not 0"));
  if (auto s = check_profile(options.profile); !s)
    return sr::fail("profile '" + options.profile.name + "': " + s.error());
  if (options.max_queued_per_direction < 2) return sr::fail(std::string("max_queued_per_direction must be 2 or more"));
  if (options.max_clients < 1) return sr::fail(std::string("max_clients must be 1 or more"));

  auto fd = open_socket(options.listen_port, 0);
  if (!fd) return sr::fail(std::move(fd).error());
  std::unique_ptr<UdpProxy> proxy(new UdpProxy(std::move(options)));
  proxy->listen_fd_ = fd.value();
  sockaddr_in bound{};
  socklen_t length = sizeof bound;
  if (::getsockname(proxy->listen_fd_, reinterpret_cast<sockaddr*>(&bound), &length) < 0) {
    return sr::fail(errno_text("cannot read the listening port"));
  }
  proxy->listen_port_ = ntohs(bound.sin_port);
  return proxy;
}

UdpProxy::UdpProxy(ProxyOptions options) : options_(std::move(options)), buffer_(kMaxDatagramBytes) {}

UdpProxy::~UdpProxy() {
  stop();
  clients_.clear();
  close_fd(listen_fd_);
}

void UdpProxy::start() {
  if (thread_.joinable()) return;
  if (!armed_.load()) origin_us_.store(monotonic_us());
  stop_.store(false);
  thread_ = std::thread([this] { run(); });
}

void UdpProxy::stop() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
}

void UdpProxy::arm(std::chrono::steady_clock::time_point origin) {
  origin_us_.store(to_us(origin));
  armed_.store(true);
}

ProxyCounters UdpProxy::counters() const {
  const std::lock_guard lock(counters_mutex_);
  return published_;
}

void UdpProxy::run() {
  std::vector<pollfd> fds;
  while (!stop_.load()) {
    TimeUs now_us = monotonic_us();
    const TimeUs origin_us = origin_us_.load();
    for (auto& client : clients_) {
      client->up.set_origin(origin_us);
      client->down.set_origin(origin_us);
    }
    change_addresses(now_us);

    fds.clear();
    fds.push_back(pollfd{listen_fd_, POLLIN, 0});
    for (const auto& client : clients_) fds.push_back(pollfd{client->upstream_fd, POLLIN, 0});
    // ppoll, not poll: its timeout is in nanoseconds, so the lan profile's 0.2 ms is not rounded up to 1 ms.
    const TimeUs wait_us = poll_timeout_us(now_us);
    const timespec timeout{static_cast<std::time_t>(wait_us / 1'000'000),
                           static_cast<long>(wait_us % 1'000'000) * 1000};
    const int ready = ::ppoll(fds.data(), fds.size(), &timeout, nullptr);

    now_us = monotonic_us();
    if (ready > 0) {
      // Clients that arrive in this round are appended, so the indices of the others still match `fds`.
      const std::size_t polled_clients = fds.size() - 1;
      if (fds[0].revents != 0) receive_from_clients(now_us);
      for (std::size_t i = 0; i < polled_clients; ++i) {
        if (fds[i + 1].revents != 0) receive_from_server(*clients_[i], now_us);
      }
    }
    deliver(now_us);
    publish_counters();
  }
}

void UdpProxy::receive_from_clients(TimeUs now_us) {
  for (int n = 0; n < kMaxReadsPerRound; ++n) {
    sockaddr_in from{};
    socklen_t length = sizeof from;
    const ssize_t got =
        ::recvfrom(listen_fd_, buffer_.data(), buffer_.size(), 0, reinterpret_cast<sockaddr*>(&from), &length);
    if (got < 0) return;  // nothing left (EAGAIN), or an error the next round will see again
    if (from.sin_family != AF_INET) continue;
    auto it = std::find_if(clients_.begin(), clients_.end(),
                           [&from](const auto& client) { return same_address(client->address, from); });
    if (it == clients_.end()) {
      if (clients_.size() >= options_.max_clients) {
        ++refused_packets_;
        continue;
      }
      auto fd = open_socket(0, options_.target_port);
      if (!fd) {
        ++refused_packets_;
        continue;
      }
      auto client = std::make_unique<Client>(from, clients_.size(), fd.value(), options_);
      client->up.set_origin(origin_us_.load());
      client->down.set_origin(origin_us_.load());
      // A client that first sends after the change has only ever had one address.
      const std::optional<TimeUs> change_us = client->up.address_change_at_us();
      client->address_changed = change_us && now_us >= *change_us;
      clients_.push_back(std::move(client));
      it = clients_.end() - 1;
    }
    (void)(*it)->up.submit(now_us, std::span(buffer_.data(), static_cast<std::size_t>(got)));
  }
}

void UdpProxy::receive_from_server(Client& client, TimeUs now_us) {
  for (int n = 0; n < kMaxReadsPerRound; ++n) {
    // A connected socket receives only from the server. ECONNREFUSED (nobody listens there yet) ends the round too.
    const ssize_t got = ::recv(client.upstream_fd, buffer_.data(), buffer_.size(), 0);
    if (got < 0) return;
    (void)client.down.submit(now_us, std::span(buffer_.data(), static_cast<std::size_t>(got)));
  }
}

void UdpProxy::change_addresses(TimeUs now_us) {
  for (auto& client : clients_) {
    if (client->address_changed) continue;
    const std::optional<TimeUs> at_us = client->up.address_change_at_us();
    if (!at_us || now_us < *at_us) continue;
    auto fd = open_socket(0, options_.target_port);
    if (!fd) continue;  // tried again next round
    close_fd(client->upstream_fd);
    client->upstream_fd = fd.value();
    client->address_changed = true;
    ++address_changes_;
  }
}

void UdpProxy::deliver(TimeUs now_us) {
  for (auto& client : clients_) {
    for (const Delivery& d : client->up.pop_due(now_us)) {
      if (::send(client->upstream_fd, d.bytes.data(), d.bytes.size(), 0) < 0) ++send_errors_;
    }
    for (const Delivery& d : client->down.pop_due(now_us)) {
      if (::sendto(listen_fd_, d.bytes.data(), d.bytes.size(), 0, reinterpret_cast<const sockaddr*>(&client->address),
                   sizeof client->address) < 0) {
        ++send_errors_;
      }
    }
  }
}

TimeUs UdpProxy::poll_timeout_us(TimeUs now_us) const {
  TimeUs wait_us = kMaxPollUs;
  for (const auto& client : clients_) {
    for (const Impairer* impairer : {&client->up, &client->down}) {
      if (const auto due_us = impairer->next_due_us()) wait_us = std::min(wait_us, *due_us - now_us);
    }
  }
  return std::clamp<TimeUs>(wait_us, 0, kMaxPollUs);
}

void UdpProxy::publish_counters() {
  ProxyCounters c;
  for (const auto& client : clients_) {
    c.up += client->up.counters();
    c.down += client->down.counters();
  }
  c.send_errors = send_errors_;
  c.clients = clients_.size();
  c.refused_packets = refused_packets_;
  c.address_changes = address_changes_;
  const std::lock_guard lock(counters_mutex_);
  published_ = c;
}

}  // namespace sr::netsim
