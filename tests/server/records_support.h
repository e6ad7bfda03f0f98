// What the records tests share (server/records_*): a race's replay writer job with keyed racers and their run
// signatures, real signed submissions, a wait on a condition with a deadline, and a fake records hub: a cpp-httplib
// server on loopback that plays common/protocol/RECORDS.md's "POST /api/records/submit" (net::parse_submission, a
// refusal per replay it holds already) with scripted misbehaviour.
#pragma once

#include <httplib.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "common/engine/config.h"
#include "common/replay/codec.h"
#include "net/identity/run_signature.h"
#include "net/identity/submission.h"
#include "server/records_submitter.h"
#include "server/replay_writer.h"
#include "tests/support/test_keys.h"

namespace sr::test {

inline constexpr engine::TimeUs kRecordsMs = 1000;

// A sprint race of three keyed racers ("ada", "bo", "cy"), each a few hard drops, ending at 2 s; `seed` tells races
// apart. Without run signatures.
inline server::ReplayWriter::Job race_job(std::uint64_t seed = 99) {
  server::ReplayWriter::Job job;
  job.room_id = 3;
  job.race_id = static_cast<std::uint32_t>(seed);
  job.replay.config = engine::make_sprint(40);
  job.replay.seed = seed;
  job.replay.place = "Ada's server";
  job.replay.created_unix_ms = 1'764'612'345'678;
  const char* names[] = {"ada", "bo", "cy"};
  for (int r = 0; r < 3; ++r) {
    replay::Racer racer;
    racer.name = names[r];
    racer.key = test_key(names[r]).public_key();
    for (int i = 0; i < 3 + r; ++i) {
      racer.inputs.push_back({(i + 1) * 100 * kRecordsMs + r * kRecordsMs, engine::button::kHardDrop});
      racer.inputs.push_back({(i + 1) * 100 * kRecordsMs + r * kRecordsMs + 50 * kRecordsMs, 0});
    }
    job.replay.racers.push_back(racer);
    job.ends.push_back({2000 * kRecordsMs, replay::ResultStatus::kDisconnected});
  }
  return job;
}

// Racer `racer`'s run signature of `job`'s race, as their game makes it (net::sign_run over net::run_digest of the
// completed replay).
inline net::Signature run_signature_of(const server::ReplayWriter::Job& job, std::size_t racer) {
  server::ReplayWriter::Job completed = job;
  if (!server::ReplayWriter::complete(completed)) return {};
  const std::string& name = completed.replay.racers[racer].name;
  return net::sign_run(test_key(name), net::run_digest(completed.replay, racer));
}

inline server::RecordsIdentity records_identity() {
  return server::RecordsIdentity{test_key("the server"), "Ada's server", "http://races.example.org/"};
}

// The queue's make function for the race of `seed`, every racer signed, stored as `game_id`.
inline std::function<server::RecordsQueue::Signed(std::uint64_t)> signed_race(std::uint64_t seed,
                                                                              const std::string& game_id,
                                                                              const net::PlayerKey& key) {
  return [seed, game_id, key](std::uint64_t sequence) {
    server::ReplayWriter::Job job = race_job(seed);
    for (std::size_t i = 0; i < job.replay.racers.size(); ++i) job.run_signatures.push_back(run_signature_of(job, i));
    (void)server::ReplayWriter::complete(job);
    server::RecordsIdentity identity = records_identity();
    identity.key = key;
    const net::Submission s = *server::make_submission(job.replay, game_id, job.run_signatures, identity, sequence);
    server::RecordsQueue::Signed out;
    out.body = net::encode_submission(s);
    out.signature = net::sign_submission(key, out.body);
    return out;
  };
}

// Polls `done` every few milliseconds until it holds or `timeout` passes; returns its last answer.
inline bool wait_until(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
  const auto give_up = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= give_up) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

// A records hub on 127.0.0.1 at PREFIX/api/records/submit. Each request takes the next scripted behaviour (then
// kNormal): kNormal parses the submission (refusing as the hub would: 400, 403, 413), answers 409 for a replay it holds
// and otherwise stores it and answers 200; the others answer as named. What it saw is kept by sequence number.
class FakeRecordsHub {
 public:
  enum class Behaviour {
    kNormal,
    kUnavailable,    // 503, nothing stored
    kStoreAndDrop,   // stores the submission, then drops the connection in the middle of its 200 answer
    kRefuse422,      // 422 {"error": unverifiable}, nothing stored
    kTooManyRetry7,  // 429 with Retry-After: 7
    kHold,           // waits (nothing stored) until release(), then 503
  };
  static constexpr const char* kUnverifiable = "racer 0's result does not verify: the hub's simulation topped out";

  explicit FakeRecordsHub(std::vector<Behaviour> script = {}, std::uint16_t port = 0)
      : script_(script.begin(), script.end()) {
    http_.Post("/hub/api/records/submit",
               [this](const httplib::Request& request, httplib::Response& response) { answer(request, response); });
    if (port == 0) {
      port_ = static_cast<std::uint16_t>(http_.bind_to_any_port("127.0.0.1"));
    } else if (http_.bind_to_port("127.0.0.1", port)) {
      port_ = port;
    }
    thread_ = std::thread([this] { http_.listen_after_bind(); });
    // httplib's stop() before its listen loop runs would not stop it (and the destructor would wait forever).
    (void)wait_until([this] { return http_.is_running(); }, std::chrono::seconds(30));
  }
  ~FakeRecordsHub() {
    release();
    http_.stop();
    thread_.join();
  }
  FakeRecordsHub(const FakeRecordsHub&) = delete;
  FakeRecordsHub& operator=(const FakeRecordsHub&) = delete;

  [[nodiscard]] std::uint16_t port() const { return port_; }
  [[nodiscard]] std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/hub"; }
  // The sequence number of each request, in the order they came (0: one that did not parse).
  [[nodiscard]] std::vector<std::uint64_t> requests() const {
    std::lock_guard lock(mutex_);
    return requests_;
  }
  // The submissions it stored, in order.
  [[nodiscard]] std::vector<net::Submission> stored() const {
    std::lock_guard lock(mutex_);
    return stored_;
  }
  [[nodiscard]] std::vector<std::uint64_t> stored_sequences() const {
    std::lock_guard lock(mutex_);
    std::vector<std::uint64_t> out;
    for (const net::Submission& s : stored_) out.push_back(s.sequence);
    return out;
  }
  // Ends every kHold wait.
  void release() {
    {
      std::lock_guard lock(mutex_);
      released_ = true;
    }
    wake_.notify_all();
  }

 private:
  void answer(const httplib::Request& request, httplib::Response& response) {
    std::unique_lock lock(mutex_);
    const Behaviour behaviour = script_.empty() ? Behaviour::kNormal : script_.front();
    if (!script_.empty()) script_.pop_front();
    auto parsed = net::parse_submission(request.body, request.get_header_value(net::kSubmissionSignatureHeader));
    requests_.push_back(parsed.ok() ? parsed.value().sequence : 0);
    const auto json = [&](int status, const std::string& body) {
      response.status = status;
      response.set_content(body, "application/json");
    };
    if (!parsed.ok()) return json(parsed.error().status, "{\"error\":\"" + parsed.error().reason + "\"}");
    switch (behaviour) {
      case Behaviour::kUnavailable: return json(503, R"({"error":"the hub's store cannot be written now"})");
      case Behaviour::kRefuse422: return json(422, std::string("{\"error\":\"") + kUnverifiable + "\"}");
      case Behaviour::kTooManyRetry7:
        response.set_header("Retry-After", "7");
        return json(429, R"({"error":"too many submissions from this server; wait 7 s"})");
      case Behaviour::kHold: wake_.wait(lock, [this] { return released_; }); return json(503, R"({"error":"held"})");
      case Behaviour::kStoreAndDrop:
      case Behaviour::kNormal: break;
    }
    for (const net::Submission& s : stored_) {
      if (s.replay == parsed.value().replay) return json(409, R"({"error":"this replay was submitted already"})");
    }
    stored_.push_back(parsed.value());
    if (behaviour == Behaviour::kStoreAndDrop) {
      // The head says 100 bytes are coming; the provider gives up at once: the connection closes mid-answer.
      response.status = 200;
      response.set_content_provider(100, "application/json",
                                    [](std::size_t, std::size_t, httplib::DataSink&) { return false; });
      return;
    }
    json(200, R"({"status":"accepted","game":"00000000000000ab","runs":[],"refused":[]})");
  }

  httplib::Server http_;
  std::thread thread_;
  std::uint16_t port_ = 0;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool released_ = false;
  std::deque<Behaviour> script_;
  std::vector<std::uint64_t> requests_;
  std::vector<net::Submission> stored_;
};

}  // namespace sr::test
