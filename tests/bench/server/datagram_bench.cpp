// What one UDP datagram costs the machine's kernel on loopback, with no ENet and no game around it: the floor under
// every datagram a server sends or receives, and every one its racers send and receive. deploy/README.md ("How many
// racers one server holds") multiplies it by the datagrams a racer costs to bound how many racers a machine holds.
//
//   BM_SendAndReceive/N   one N-byte datagram sent to a loopback socket and received from it (one thread: on
//                         loopback the kernel delivers it inside the send), CPU time per datagram
//   BM_Receive/N          only the receive: the datagrams are queued outside the measured time, 256 at a time
//
// The send's share is the difference. 60 bytes is about a relay datagram of one change to one opponent; 200 bytes
// one of several. CPU time is the process's (user and system), so a busy machine slows it less than wall time.
#include <arpa/inet.h>
#include <benchmark/benchmark.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

constexpr int kBatch = 256;

// A UDP socket bound to 127.0.0.1 on a port the kernel picks, with room for a batch in its receive queue.
class LoopbackSocket {
 public:
  LoopbackSocket() {
    fd_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) return;
    const int buffer = 4 << 20;
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &buffer, sizeof buffer);
    address_.sin_family = AF_INET;
    address_.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address_;
    if (::bind(fd_, reinterpret_cast<const sockaddr*>(&address_), sizeof address_) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address_), &length) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  LoopbackSocket(const LoopbackSocket&) = delete;
  LoopbackSocket& operator=(const LoopbackSocket&) = delete;
  ~LoopbackSocket() {
    if (fd_ >= 0) ::close(fd_);
  }

  [[nodiscard]] bool ok() const { return fd_ >= 0; }
  [[nodiscard]] bool send(const std::vector<std::uint8_t>& bytes) const {
    return ::sendto(fd_, bytes.data(), bytes.size(), 0, reinterpret_cast<const sockaddr*>(&address_),
                    sizeof address_) == static_cast<ssize_t>(bytes.size());
  }
  [[nodiscard]] bool receive() { return ::recv(fd_, buffer_.data(), buffer_.size(), MSG_DONTWAIT) > 0; }

 private:
  int fd_ = -1;
  sockaddr_in address_{};
  std::array<std::uint8_t, 2048> buffer_{};
};

// The benchmark's datagram (state.range(0) bytes), or nothing when the socket could not be bound (the run is then
// skipped with the reason).
std::vector<std::uint8_t> datagram_for(benchmark::State& state, const LoopbackSocket& socket) {
  if (!socket.ok()) {
    state.SkipWithError("cannot bind a UDP socket on 127.0.0.1");
    return {};
  }
  return std::vector<std::uint8_t>(static_cast<std::size_t>(state.range(0)), 0x5a);
}

// Datagrams a second, and their inverse: CPU time per datagram.
void report_datagrams(benchmark::State& state, std::int64_t datagrams) {
  state.SetItemsProcessed(datagrams);
  state.counters["per_datagram"] =
      benchmark::Counter(static_cast<double>(datagrams), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_SendAndReceive(benchmark::State& state) {
  LoopbackSocket socket;
  const std::vector<std::uint8_t> datagram = datagram_for(state, socket);
  if (datagram.empty()) return;
  for (auto _ : state) {
    if (!socket.send(datagram) || !socket.receive()) {
      state.SkipWithError("a datagram sent on loopback did not arrive");
      return;
    }
  }
  report_datagrams(state, static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_SendAndReceive)->Arg(60)->Arg(200)->MeasureProcessCPUTime();

void BM_Receive(benchmark::State& state) {
  LoopbackSocket socket;
  const std::vector<std::uint8_t> datagram = datagram_for(state, socket);
  if (datagram.empty()) return;
  std::int64_t received = 0;
  for (auto _ : state) {
    state.PauseTiming();
    for (int i = 0; i < kBatch; ++i) {
      if (!socket.send(datagram)) {
        state.SkipWithError("cannot send on loopback");
        return;
      }
    }
    state.ResumeTiming();
    for (int i = 0; i < kBatch; ++i) {
      if (!socket.receive()) {
        state.SkipWithError("a datagram sent on loopback did not arrive");
        return;
      }
    }
    received += kBatch;
  }
  report_datagrams(state, received);
}
BENCHMARK(BM_Receive)->Arg(60)->Arg(200)->MeasureProcessCPUTime();

}  // namespace

BENCHMARK_MAIN();
