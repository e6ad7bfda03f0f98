#include "server/records_agent.h"

#include <fmt/format.h>
#include <httplib.h>
#include <rapidjson/document.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>

#include "common/protocol/web_url.h"
#include "net/identity/submission.h"

namespace sr::server {
namespace {

// The "error" sentence of a hub's JSON answer, or the body itself.
std::string answer_sentence(const std::string& body) {
  rapidjson::Document doc;
  if (!doc.Parse(body.c_str(), body.size()).HasParseError() && doc.IsObject()) {
    const rapidjson::Value& root = doc;  // const iterators: clang finds the mutable ones' != ambiguous in C++20
    if (auto it = root.FindMember("error"); it != root.MemberEnd() && it->value.IsString()) {
      return hub_text(std::string(it->value.GetString(), it->value.GetStringLength()));
    }
  }
  return hub_text(body);
}

// The runs a 200 answer refused, "racer 1: reason; ...", or "" when it refused none (or does not say).
std::string refused_runs(const std::string& body) {
  rapidjson::Document doc;
  if (doc.Parse(body.c_str(), body.size()).HasParseError() || !doc.IsObject()) return "";
  const rapidjson::Value& root = doc;
  const auto refused = root.FindMember("refused");
  if (refused == root.MemberEnd() || !refused->value.IsArray()) return "";
  std::string out;
  for (const rapidjson::Value& run : refused->value.GetArray()) {
    if (!run.IsObject()) continue;
    const auto racer = run.FindMember("racer");
    const auto reason = run.FindMember("reason");
    if (racer == run.MemberEnd() || !racer->value.IsUint() || reason == run.MemberEnd() || !reason->value.IsString())
      continue;
    if (!out.empty()) out += "; ";
    out += fmt::format("racer {}: {}", racer->value.GetUint(),
                       hub_text(std::string(reason->value.GetString(), reason->value.GetStringLength())));
  }
  return hub_text(out);
}

bool refused_for_good(int status) { return status == 400 || status == 403 || status == 413 || status == 422; }

class HttpRecordsSender final : public RecordsSender {
 public:
  HttpRecordsSender(const std::string& url, std::chrono::seconds connect_timeout, std::chrono::seconds timeout)
      : connect_timeout_(connect_timeout), timeout_(timeout) {
    if (auto checked = check_records_url(url); !checked) {
      problem_ = checked.error();
      return;
    }
    const protocol::WebUrl parsed = protocol::parse_web_url(url).value();
    const std::string host = parsed.host.find(':') != std::string::npos ? "[" + parsed.host + "]" : parsed.host;
    origin_ = "http://" + host + ":" + std::to_string(parsed.port);
    path_ = parsed.path;
    while (!path_.empty() && path_.back() == '/') path_.pop_back();
    path_ += "/api/records/submit";
  }

  HubAnswer post(const QueuedSubmission& submission) override {
    HubAnswer answer;
    if (!problem_.empty()) {
      answer.error = problem_;
      return answer;
    }
    auto client = std::make_shared<httplib::Client>(origin_);
    client->set_connection_timeout(static_cast<time_t>(connect_timeout_.count()), 0);
    client->set_read_timeout(static_cast<time_t>(timeout_.count()), 0);
    client->set_tcp_nodelay(true);  // one request and its answer: no 40 ms wait for a delayed ACK
    client->set_write_timeout(static_cast<time_t>(timeout_.count()), 0);
    {
      std::lock_guard lock(mutex_);
      if (cancelled_) {
        answer.error = "stopping";
        return answer;
      }
      in_flight_ = client;
    }
    const httplib::Headers headers{{net::kSubmissionSignatureHeader, submission.signature}};
    const httplib::Result result = client->Post(path_.c_str(), headers, submission.body, "application/json");
    {
      std::lock_guard lock(mutex_);
      in_flight_.reset();
    }
    if (!result) {
      answer.error = "no answer (" + httplib::to_string(result.error()) + ")";
      return answer;
    }
    answer.status = result->status;
    answer.body = result->body;
    const std::string retry_after = result->get_header_value("Retry-After");
    if (!retry_after.empty() && retry_after.size() <= 9 &&
        std::all_of(retry_after.begin(), retry_after.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      answer.retry_after_s = std::strtoll(retry_after.c_str(), nullptr, 10);
    }
    return answer;
  }

  void cancel() override {
    std::lock_guard lock(mutex_);
    cancelled_ = true;
    if (in_flight_) in_flight_->stop();
  }

 private:
  std::chrono::seconds connect_timeout_;
  std::chrono::seconds timeout_;
  std::string problem_;  // the URL is not one: every post fails with this
  std::string origin_;   // http://host:port, as httplib's client takes it
  std::string path_;     // URL's path + /api/records/submit
  std::mutex mutex_;
  bool cancelled_ = false;
  std::shared_ptr<httplib::Client> in_flight_;
};

}  // namespace

sr::Status<std::string> check_records_url(const std::string& url) {
  auto parsed = protocol::parse_web_url(url);
  if (!parsed) return "the records hub '" + url + "' is not an http:// URL: " + parsed.error();
  if (parsed.value().https) {
    return "the records hub '" + url +
           "' is an https:// URL: the server speaks plain http:// to a records hub (give the hub's http:// "
           "address, or a proxy's on this machine)";
  }
  return {};
}

std::unique_ptr<RecordsSender> http_records_sender(const std::string& url, std::chrono::seconds connect_timeout,
                                                   std::chrono::seconds timeout) {
  return std::make_unique<HttpRecordsSender>(url, connect_timeout, timeout);
}

std::string hub_text(const std::string& text) {
  constexpr std::size_t kMaxBytes = 300;
  std::string out;
  for (const char c : text) {
    if (out.size() == kMaxBytes) return out + "...";
    const auto u = static_cast<unsigned char>(c);
    out.push_back(u >= 0x20 && u < 0x7f ? c : '?');
  }
  return out;
}

RecordsAgent::RecordsAgent(RecordsAgentOptions options, RecordsQueue& queue, std::unique_ptr<RecordsSender> sender)
    : options_(std::move(options)),
      queue_(queue),
      sender_(sender ? std::move(sender)
                     : http_records_sender(options_.url, options_.connect_timeout, options_.timeout)),
      backoff_(options_.retry_first) {}

RecordsAgent::~RecordsAgent() { stop(); }

void RecordsAgent::report(const std::string& problem) {
  if (problem == last_problem_) return;
  if (problem.empty()) {
    spdlog::info("records: the hub {} answers again", options_.url);
  } else {
    spdlog::warn("records: hub {}: {} (the queue waits: {} submissions)", options_.url, problem, queue_.stats().queued);
  }
  last_problem_ = problem;
}

std::chrono::milliseconds RecordsAgent::failure_delay(const HubAnswer& answer) {
  std::chrono::milliseconds delay = backoff_;
  backoff_ = std::min(backoff_ * 2, options_.retry_max);
  if (answer.retry_after_s) {
    const auto asked = std::chrono::seconds(std::clamp<std::int64_t>(*answer.retry_after_s, 0, kMaxRetryAfter.count()));
    delay = std::max<std::chrono::milliseconds>(delay, asked);
  }
  return delay;
}

RecordsAgent::Step RecordsAgent::step(Clock::time_point now) {
  if (now < next_attempt_) return queue_.stats().queued == 0 ? Step::kIdle : Step::kWaiting;
  const std::optional<QueuedSubmission> oldest = queue_.oldest();
  if (!oldest) return Step::kIdle;
  const HubAnswer answer = sender_->post(*oldest);
  const std::uint64_t sequence = oldest->sequence;
  if (answer.status == 0 && stopping()) return Step::kRetrying;  // abandoned by stop(): still queued, nothing failed

  if (answer.status == 200 || answer.status == 409) {
    queue_.delivered(sequence);
    report("");
    backoff_ = options_.retry_first;
    next_attempt_ = now;
    if (answer.status == 409) {
      spdlog::info("records: submission {}: the hub holds it already (409): delivered", sequence);
    } else if (const std::string refused = refused_runs(answer.body); !refused.empty()) {
      spdlog::info("records: submission {} accepted; runs refused: {}", sequence, refused);
    } else {
      spdlog::info("records: submission {} accepted", sequence);
    }
    return Step::kDelivered;
  }
  if (refused_for_good(answer.status)) {
    const std::string reason = fmt::format("HTTP {}: {}", answer.status, answer_sentence(answer.body));
    queue_.refuse(sequence, reason);
    report("");
    backoff_ = options_.retry_first;
    next_attempt_ = now;
    spdlog::warn("records: the hub refused submission {} ({}); kept as {}", sequence, reason,
                 (queue_.refused_dir() / RecordsQueue::file_name(sequence)).string());
    return Step::kRefused;
  }
  queue_.count_send_failure();
  const std::chrono::milliseconds delay = failure_delay(answer);
  next_attempt_ = now + delay;
  std::string problem;
  if (answer.status == 0) {
    problem = answer.error;
  } else if (answer.status == 429) {
    problem = "over the hub's flood limit (429)";
  } else {
    problem = fmt::format("HTTP {}: {}", answer.status, answer_sentence(answer.body));
  }
  report(problem + "; trying again, each time later (up to " +
         std::to_string(std::chrono::duration_cast<std::chrono::seconds>(options_.retry_max).count()) + " s)");
  return Step::kRetrying;
}

bool RecordsAgent::stopping() {
  std::lock_guard lock(mutex_);
  return stopping_;
}

void RecordsAgent::start() {
  if (thread_.joinable()) return;
  queue_.set_listener([this] {
    {
      std::lock_guard lock(mutex_);
      appended_ = true;
    }
    wake_.notify_all();
  });
  thread_ = std::thread([this] { run(); });
}

void RecordsAgent::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  sender_->cancel();
  if (thread_.joinable()) {
    thread_.join();
    queue_.set_listener(nullptr);
  }
}

void RecordsAgent::run() {
  for (;;) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
      appended_ = false;
    }
    const Step step_done = step(Clock::now());
    std::unique_lock lock(mutex_);
    if (step_done == Step::kIdle) {
      wake_.wait(lock, [this] { return stopping_ || appended_; });
    } else if (step_done == Step::kWaiting || step_done == Step::kRetrying) {
      wake_.wait_until(lock, next_attempt_, [this] { return stopping_; });
    }
  }
}

}  // namespace sr::server
