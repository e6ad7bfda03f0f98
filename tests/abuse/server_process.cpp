#include "tests/abuse/server_process.h"

#include <fcntl.h>
#include <httplib.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <string_view>
#include <vector>

#include "tests/abuse/proc_status.h"

extern char** environ;

namespace sr::abuse {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

ServerProcess::~ServerProcess() { stop(); }

sr::Status<std::string> ServerProcess::start(const std::filesystem::path& binary, const std::filesystem::path& data_dir,
                                             const std::filesystem::path& log, std::uint16_t metrics_port,
                                             const std::vector<std::string>& extra) {
  metrics_port_ = metrics_port;
  std::vector<std::string> args{binary.string(),
                                "--port",
                                "0",
                                "--bind",
                                "127.0.0.1",
                                "--data-dir",
                                data_dir.string(),
                                "--metrics-port",
                                std::to_string(metrics_port),
                                "--metrics-bind",
                                "127.0.0.1",
                                "--log-level",
                                "warn"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  // The server's output goes to a file, never a pipe: a pipe nobody reads would stall its main loop once full, which
  // an attack that makes it log would do.
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&files, STDOUT_FILENO, STDERR_FILENO);
  // Under AddressSanitizer (the test build) freed memory waits in a 256 MiB quarantine, which would count as the
  // server's memory; a small one keeps the figure close to what the server itself holds. Ignored by other builds.
  std::vector<std::string> env_text;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::string_view(*e).rfind("ASAN_OPTIONS=", 0) != 0) env_text.emplace_back(*e);
  }
  const char* asan = std::getenv("ASAN_OPTIONS");
  env_text.push_back(std::string("ASAN_OPTIONS=quarantine_size_mb=8") +
                     (asan != nullptr ? std::string(":") + asan : ""));
  std::vector<char*> env;
  for (std::string& e : env_text) env.push_back(e.data());
  env.push_back(nullptr);
  const int spawned = posix_spawn(&pid_, argv[0], &files, nullptr, argv.data(), env.data());
  posix_spawn_file_actions_destroy(&files);
  if (spawned != 0) {
    pid_ = -1;
    return "cannot start " + binary.string() + ": " + std::strerror(spawned);
  }
  const std::regex listening(R"(listening on [^ ]*:([0-9]+) )");
  const auto deadline = Clock::now() + 20s;
  while (Clock::now() < deadline) {
    const std::string text = read_all(log);
    if (std::smatch m; std::regex_search(text, m, listening)) {
      port_ = static_cast<std::uint16_t>(std::stoi(m[1].str()));
      return {};
    }
    if (exited()) return "the server exited at once: " + text;
    std::this_thread::sleep_for(20ms);  // polling a file the child writes; nothing to wait on instead
  }
  return "the server did not say its port within 20 s: " + read_all(log);
}

void ServerProcess::start_sampling() {
  sampling_ = true;
  sampler_ = std::thread([this] {
    while (sampling_) {
      if (const auto m = read_memory(pid_)) {
        std::int64_t peak = peak_kb_.load();
        const std::int64_t now = std::max(m->rss_kb, m->hwm_kb);
        while (now > peak && !peak_kb_.compare_exchange_weak(peak, now)) {
        }
      }
      std::this_thread::sleep_for(50ms);  // the sampling period
    }
  });
}

bool ServerProcess::exited() {
  if (pid_ <= 0) return true;
  if (reaped_) return true;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) == pid_) reaped_ = true;
  return reaped_;
}

std::optional<std::string> ServerProcess::scrape(std::chrono::milliseconds timeout) const {
  httplib::Client client("127.0.0.1", metrics_port_);
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(timeout);
  client.set_connection_timeout(seconds.count(), 0);
  client.set_read_timeout(seconds.count(), 0);
  const httplib::Result r = client.Get("/metrics");
  if (!r || r->status != 200) return std::nullopt;
  return r->body;
}

void ServerProcess::stop() {
  sampling_ = false;
  if (sampler_.joinable()) sampler_.join();
  if (pid_ <= 0 || exited()) return;
  ::kill(pid_, SIGTERM);
  const auto deadline = Clock::now() + 15s;
  while (!exited() && Clock::now() < deadline) std::this_thread::sleep_for(20ms);
  if (!exited()) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    (void)waitpid(pid_, &status, 0);
    reaped_ = true;
  }
}

}  // namespace sr::abuse
