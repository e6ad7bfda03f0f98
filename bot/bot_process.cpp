#include "bot/bot_process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <utility>

namespace sr::botcli {
namespace {

constexpr std::size_t kMaxLine = std::size_t{16} << 20;

std::int64_t now_ms() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1'000'000;
}

}  // namespace

sr::Result<BotProcess, std::string> BotProcess::start(const std::string& command) {
  // A bot that dies must not kill us on the next write: we want EPIPE instead.
  signal(SIGPIPE, SIG_IGN);
  int in[2], out[2];
  if (pipe(in) != 0) return sr::fail(std::string("pipe: ") + strerror(errno));
  if (pipe(out) != 0) {
    const std::string why = std::string("pipe: ") + strerror(errno);
    close(in[0]);
    close(in[1]);
    return sr::fail(why);
  }
  const pid_t pid = fork();
  if (pid < 0) {
    const std::string why = std::string("fork: ") + strerror(errno);
    for (int fd : {in[0], in[1], out[0], out[1]}) close(fd);
    return sr::fail(why);
  }
  if (pid == 0) {
    dup2(in[0], STDIN_FILENO);
    dup2(out[1], STDOUT_FILENO);
    for (int fd : {in[0], in[1], out[0], out[1]}) close(fd);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  fcntl(in[1], F_SETFD, FD_CLOEXEC);
  fcntl(out[0], F_SETFD, FD_CLOEXEC);
  BotProcess p;
  p.pid_ = pid;
  p.to_child_ = in[1];
  p.from_child_ = out[0];
  return p;
}

BotProcess::BotProcess(BotProcess&& o) noexcept
    : pid_(std::exchange(o.pid_, -1)),
      to_child_(std::exchange(o.to_child_, -1)),
      from_child_(std::exchange(o.from_child_, -1)),
      buffer_(std::move(o.buffer_)) {}

BotProcess& BotProcess::operator=(BotProcess&& o) noexcept {
  if (this != &o) {
    finish(0);
    pid_ = std::exchange(o.pid_, -1);
    to_child_ = std::exchange(o.to_child_, -1);
    from_child_ = std::exchange(o.from_child_, -1);
    buffer_ = std::move(o.buffer_);
  }
  return *this;
}

BotProcess::~BotProcess() { finish(1000); }

void BotProcess::close_fds() {
  if (to_child_ >= 0) close(to_child_);
  if (from_child_ >= 0) close(from_child_);
  to_child_ = from_child_ = -1;
}

bool BotProcess::send(const std::string& line) {
  if (to_child_ < 0) return false;
  const std::string data = line + "\n";
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = write(to_child_, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::optional<std::string> BotProcess::receive(int timeout_ms, bool* timed_out) {
  if (timed_out) *timed_out = false;
  const std::int64_t deadline = now_ms() + timeout_ms;
  for (;;) {
    const auto nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    if (from_child_ < 0 || buffer_.size() > kMaxLine) return std::nullopt;
    // The pipe is polled at least once, so a timeout of 0 reads what has already arrived without waiting.
    const std::int64_t left = std::max<std::int64_t>(0, deadline - now_ms());
    pollfd pfd{from_child_, POLLIN, 0};
    const int ready = poll(&pfd, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) return std::nullopt;
    if (ready == 0) {
      if (now_ms() < deadline) continue;
      if (timed_out) *timed_out = true;
      return std::nullopt;
    }
    char chunk[65536];
    const ssize_t n = read(from_child_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close(from_child_);
      from_child_ = -1;
      continue;  // what is buffered is handed out above; an unterminated last line is dropped
    }
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

void BotProcess::finish(int timeout_ms) {
  if (pid_ < 0) {
    close_fds();
    return;
  }
  if (to_child_ >= 0) {
    close(to_child_);
    to_child_ = -1;
  }
  const std::int64_t deadline = now_ms() + timeout_ms;
  int status = 0;
  for (;;) {
    const pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_ || (r < 0 && errno != EINTR)) break;
    if (now_ms() >= deadline) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      break;
    }
    struct timespec pause = {0, 10'000'000};
    nanosleep(&pause, nullptr);
  }
  pid_ = -1;
  close_fds();
}

}  // namespace sr::botcli
