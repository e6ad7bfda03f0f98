// A public server's registration agent (--public --directory URL): a thread that keeps the server listed in one
// directory (stackrace-hub) by its HTTP API (common/protocol/DIRECTORY.md, section 3, POST /api/register):
//   - registers with the info JSON the game loop publishes (DirectoryLink), no token and no secret;
//   - 202 (challenge): waits for the hub's challenge token, which the game loop takes from the datagram and hands
//     over through the DirectoryLink, up to 10 s, and registers again with it (without one, starts over later);
//   - 200 (listed): keeps the secret and renews with it every `every_s` seconds;
//   - 403: forgets the secret and starts over (a new challenge);
//   - 400, 429, 503, no answer: waits (backing off, doubling up to retry_max) and tries again.
// Each change of state or of problem is logged once. Like the Agones agent (agones.h) it never touches the Server:
// the game loop only publishes, so a slow or dead directory can never delay a race.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "common/result.h"
#include "server/directory_link.h"

namespace sr::server {

struct DirectoryAgentOptions {
  std::string url;              // http(s)://host[:port][/path] of the directory (protocol::parse_web_url)
  std::uint16_t game_port = 0;  // the port to be listed at
  std::chrono::milliseconds challenge_wait{10'000};  // how long a challenge's token is waited for
  std::chrono::milliseconds retry_first{1'000};      // backoff after a failure: doubles up to
  std::chrono::milliseconds retry_max{60'000};       // retry_max
  std::chrono::seconds timeout{5};                   // connecting, sending, reading, each
};

class DirectoryAgent {
 public:
  enum class State : std::uint8_t { kStarting, kChallenged, kListed, kRetrying };

  DirectoryAgent(DirectoryAgentOptions options, DirectoryLink& link);
  ~DirectoryAgent();
  DirectoryAgent(const DirectoryAgent&) = delete;
  DirectoryAgent& operator=(const DirectoryAgent&) = delete;

  // Ok, or an error sentence when the URL is no http(s) URL. Call before start().
  [[nodiscard]] static sr::Status<std::string> check_url(const std::string& url);
  // Starts the thread; call once the game port is bound.
  void start();
  // Stops the thread (waits for a request in flight, at most `timeout`). Tells the directory nothing: the entry
  // lapses after its expires_s.
  void stop();

  [[nodiscard]] State state() const { return state_.load(); }
  // Times the directory answered 200 (listed or renewed).
  [[nodiscard]] std::uint64_t listed_count() const { return listed_.load(); }

 private:
  struct Answer {
    int status = 0;  // HTTP status, 0: no answer (error says why)
    std::string body;
    std::string error;
  };

  void run();
  bool wait_for(std::chrono::milliseconds delay);  // true if stopped
  [[nodiscard]] Answer post(const std::string& body);
  void resolve();
  // Logs `problem` (at warn) unless it is the one logged last.
  void report(const std::string& problem);
  void set_state(State state);

  DirectoryAgentOptions options_;
  DirectoryLink& link_;
  std::string origin_;  // scheme://host:port, as httplib's client takes it
  std::string host_;
  std::string path_;  // the URL's path, before "/api/register"
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
  std::atomic<State> state_{State::kStarting};
  std::atomic<std::uint64_t> listed_{0};
  std::string last_problem_;  // agent thread only
};

}  // namespace sr::server
