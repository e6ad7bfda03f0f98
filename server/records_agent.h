// The records agent (--records URL): a thread that sends the records queue (records_queue.h) to a records hub,
// common/protocol/RECORDS.md, "3. Submitting (server to hub)", POST URL/api/records/submit with the
// X-Stackrace-Signature header. One submission at a time, the oldest first, never skipping ahead:
//   - 200 (accepted) or 409 (the hub holds that replay already: an earlier attempt got there, its answer did not come
//     back): delivered; the file goes and the next is sent at once;
//   - 400, 403, 413, 422: refused for good; the file moves to DATA_DIR/records-refused/ with the hub's sentence
//     (logged at warn) and the next is sent at once;
//   - 429, 503, any other status, a timeout or no connection: kept, and tried again after a delay that doubles from
//     retry_first up to retry_max (at least the hub's Retry-After, up to an hour). Each change of problem is logged
//     once.
// So each submission reaches the hub once and in order, across restarts (what an earlier run queued is sent first).
// Like the directory agent (directory_agent.h) it never touches the Server: the writer's thread fills the queue, this
// thread empties it, and no slow or dead hub can delay a race.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "common/result.h"
#include "server/records_queue.h"

namespace sr::server {

// A hub's answer to one submission.
struct HubAnswer {
  int status = 0;                             // the HTTP status; 0: no answer (error says why)
  std::string body;                           // as sent (a hub's text: the agent only logs it, cleaned up)
  std::string error;                          // why there was no answer
  std::optional<std::int64_t> retry_after_s;  // the Retry-After header, when it is a number of seconds
};

// How submissions reach the hub: HTTP (http_records_sender), or a fake in tests.
class RecordsSender {
 public:
  virtual ~RecordsSender() = default;
  // Sends one submission and waits for the answer (bounded by the sender's timeouts).
  [[nodiscard]] virtual HubAnswer post(const QueuedSubmission& submission) = 0;
  // From another thread: ends a post() in flight at once, and every later one (the agent is stopping).
  virtual void cancel() = 0;
};

// Ok, or an error sentence when `url` is not an http:// URL (protocol::parse_web_url's form; https:// is not spoken:
// put the hub's plain HTTP port here, or a proxy on this machine in front of an https one).
[[nodiscard]] sr::Status<std::string> check_records_url(const std::string& url);

// POST URL/api/records/submit with cpp-httplib. `url` must pass check_records_url (otherwise every post fails, saying
// so). Connecting gives up after `connect_timeout`; sending the body and reading the answer after `timeout` each.
[[nodiscard]] std::unique_ptr<RecordsSender> http_records_sender(const std::string& url,
                                                                 std::chrono::seconds connect_timeout,
                                                                 std::chrono::seconds timeout);

struct RecordsAgentOptions {
  std::string url;                               // the hub's base URL (check_records_url)
  std::chrono::milliseconds retry_first{1'000};  // the first delay after a failure; doubles up to
  std::chrono::milliseconds retry_max{300'000};  // this (5 minutes)
  std::chrono::seconds connect_timeout{5};
  std::chrono::seconds timeout{30};  // sending, and waiting for the answer (the hub re-simulates the race first)
};

class RecordsAgent {
 public:
  using Clock = std::chrono::steady_clock;
  // What one step() did.
  enum class Step : std::uint8_t {
    kIdle,       // nothing waits in the queue
    kWaiting,    // something waits, but the next attempt is not due yet (next_attempt())
    kDelivered,  // sent the oldest, and the hub holds it (200, 409)
    kRefused,    // sent the oldest, and the hub refused it for good (moved aside)
    kRetrying,   // sent the oldest (or tried to), and it stays first in the queue until next_attempt()
  };
  // The longest wait a hub's Retry-After can ask for.
  static constexpr std::chrono::seconds kMaxRetryAfter{3600};

  // `sender`: null for http_records_sender(options.url, ...).
  RecordsAgent(RecordsAgentOptions options, RecordsQueue& queue, std::unique_ptr<RecordsSender> sender = nullptr);
  ~RecordsAgent();
  RecordsAgent(const RecordsAgent&) = delete;
  RecordsAgent& operator=(const RecordsAgent&) = delete;

  // One attempt at time `now`: sends the oldest queued submission if one waits and the last failure's delay is over,
  // and deals with the answer. The thread (start()) runs it with the steady clock; tests call it with their own
  // clock, without start().
  Step step(Clock::time_point now);
  // When the next attempt is due (the time of the last step() that delivered or refused, or after a failure's delay).
  [[nodiscard]] Clock::time_point next_attempt() const { return next_attempt_; }

  // Starts the thread: it sends whatever waits, then sleeps until the queue gets a new submission or a delay ends.
  void start();
  // Stops the thread at once (a request in flight is abandoned: its submission stays queued). Idempotent.
  void stop();

 private:
  void run();
  [[nodiscard]] bool stopping();
  // The delay after a failure, from now on: the backoff, or the hub's Retry-After if longer.
  std::chrono::milliseconds failure_delay(const HubAnswer& answer);
  // Logs `problem` at warn unless it is the one logged last; an empty problem (it works again) logs that at info.
  void report(const std::string& problem);

  RecordsAgentOptions options_;
  RecordsQueue& queue_;
  std::unique_ptr<RecordsSender> sender_;
  Clock::time_point next_attempt_{};
  std::chrono::milliseconds backoff_;
  std::string last_problem_;  // step() only
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool appended_ = false;  // the queue got a submission since the thread last looked
  std::thread thread_;
};

// A hub's text (an answer's body or its "error" sentence) fit for a log line or a reason file: control characters
// and non-ASCII bytes as '?', at most 300 bytes (then "...").
[[nodiscard]] std::string hub_text(const std::string& text);

}  // namespace sr::server
