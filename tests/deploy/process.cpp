#include "tests/deploy/process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace sr::test {

ChildProcess::~ChildProcess() {
  if (running()) {
    ::kill(pid_, SIGKILL);
    reap(true);
  }
  if (out_fd_ >= 0) ::close(out_fd_);
}

bool ChildProcess::start(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return false;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);

  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) env_strings.emplace_back(*e);
  for (const std::string& e : extra_env) env_strings.push_back(e);
  std::vector<char*> envp;
  for (std::string& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = argv;
  std::vector<char*> argp;
  for (std::string& a : args) argp.push_back(a.data());
  argp.push_back(nullptr);

  const int rc = posix_spawn(&pid_, argp[0], &actions, nullptr, argp.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    pid_ = -1;
    return false;
  }
  out_fd_ = fds[0];
  return true;
}

bool ChildProcess::read_some(std::chrono::milliseconds timeout) {
  if (out_fd_ < 0) return false;
  pollfd p{out_fd_, POLLIN, 0};
  if (::poll(&p, 1, static_cast<int>(timeout.count())) <= 0) return false;
  char buffer[4096];
  const ssize_t n = ::read(out_fd_, buffer, sizeof buffer);
  if (n <= 0) {
    ::close(out_fd_);
    out_fd_ = -1;
    return false;
  }
  output_.append(buffer, static_cast<std::size_t>(n));
  return true;
}

void ChildProcess::reap(bool block) {
  if (pid_ <= 0 || exited_) return;
  int status = 0;
  const pid_t r = ::waitpid(pid_, &status, block ? 0 : WNOHANG);
  if (r == pid_) {
    exited_ = true;
    if (WIFEXITED(status)) exit_code_ = WEXITSTATUS(status);
  }
}

bool ChildProcess::read_until(const std::function<bool(const std::string&)>& done, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done(output_)) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    if (!read_some(std::min(left, std::chrono::milliseconds(50)))) {
      reap(false);
      if (exited_ && out_fd_ < 0) return done(output_);
      if (out_fd_ < 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  return true;
}

std::optional<int> ChildProcess::wait(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    while (read_some(std::chrono::milliseconds(20))) {
    }
    reap(false);
    if (exited_) {
      while (read_some(std::chrono::milliseconds(0))) {
      }
      return exit_code_;
    }
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    if (out_fd_ < 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

void ChildProcess::signal(int sig) {
  if (running()) ::kill(pid_, sig);
}

ProcessResult run_process(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env,
                          std::chrono::milliseconds timeout) {
  ChildProcess child;
  ProcessResult result;
  if (!child.start(argv, extra_env)) {
    result.output = "could not start " + argv.at(0);
    return result;
  }
  const std::optional<int> code = child.wait(timeout);
  result.exit_code = code.value_or(-1);
  result.output = child.output();
  return result;
}

std::uint16_t free_tcp_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error("socket() failed");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    ::close(fd);
    throw std::runtime_error("cannot find a free port");
  }
  ::close(fd);
  return ntohs(address.sin_port);
}

TempDir::TempDir(const std::string& prefix) {
  path_ = std::filesystem::temp_directory_path() /
          (prefix + "-" + std::to_string(::getpid()) + "-" +
           std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string read_text_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace sr::test
