#include "server/directory_agent.h"

#include <httplib.h>
#include <netdb.h>
#include <rapidjson/document.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>

#include "common/protocol/server_query.h"
#include "common/protocol/web_url.h"

namespace sr::server {
namespace {

using Clock = std::chrono::steady_clock;

std::int64_t steady_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now().time_since_epoch()).count();
}

bool is_hex32(const std::string& text) {
  return text.size() == protocol::kChallengeTokenChars &&
         std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// The fields of an answer's JSON the agent reads; missing or mistyped ones keep their defaults.
struct Reply {
  std::string secret;
  std::string error;
  std::int64_t every_s = 10;
};

Reply read_reply(const std::string& body) {
  Reply reply;
  rapidjson::Document doc;
  if (doc.Parse(body.c_str(), body.size()).HasParseError() || !doc.IsObject()) return reply;
  const rapidjson::Value& root = doc;  // const iterators: clang finds the mutable ones' != ambiguous in C++20
  if (auto it = root.FindMember("secret"); it != root.MemberEnd() && it->value.IsString())
    reply.secret = it->value.GetString();
  if (auto it = root.FindMember("error"); it != root.MemberEnd() && it->value.IsString())
    reply.error = it->value.GetString();
  if (auto it = root.FindMember("every_s"); it != root.MemberEnd() && it->value.IsInt64()) {
    reply.every_s = std::clamp<std::int64_t>(it->value.GetInt64(), 1, 3600);
  }
  return reply;
}

}  // namespace

DirectoryAgent::DirectoryAgent(DirectoryAgentOptions options, DirectoryLink& link)
    : options_(std::move(options)), link_(link) {
  if (auto url = protocol::parse_web_url(options_.url)) {
    host_ = url.value().host;
    const std::string host = host_.find(':') != std::string::npos ? "[" + host_ + "]" : host_;
    origin_ = std::string(url.value().https ? "https://" : "http://") + host + ":" + std::to_string(url.value().port);
    path_ = url.value().path;
    while (!path_.empty() && path_.back() == '/') path_.pop_back();
  }
}

DirectoryAgent::~DirectoryAgent() { stop(); }

sr::Status<std::string> DirectoryAgent::check_url(const std::string& url) {
  auto parsed = protocol::parse_web_url(url);
  if (!parsed) return "the directory '" + url + "' is not an http(s) URL: " + parsed.error();
  return {};
}

void DirectoryAgent::start() {
  if (thread_.joinable() || origin_.empty()) return;
  thread_ = std::thread([this] { run(); });
}

void DirectoryAgent::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool DirectoryAgent::wait_for(std::chrono::milliseconds delay) {
  std::unique_lock lock(mutex_);
  return wake_.wait_for(lock, delay, [this] { return stopping_; });
}

void DirectoryAgent::report(const std::string& problem) {
  if (problem == last_problem_) return;
  last_problem_ = problem;
  if (!problem.empty()) spdlog::warn("directory {}: {}", options_.url, problem);
}

void DirectoryAgent::set_state(State state) { state_.store(state); }

void DirectoryAgent::resolve() {
  // Challenges are believed only from the directory's own addresses (DIRECTORY.md, "Challenges").
  addrinfo hints{};
  hints.ai_socktype = SOCK_DGRAM;
  addrinfo* found = nullptr;
  std::vector<IpAddress> addresses;
  if (getaddrinfo(host_.c_str(), nullptr, &hints, &found) == 0) {
    for (const addrinfo* a = found; a != nullptr; a = a->ai_next) {
      IpAddress address{};
      if (a->ai_family == AF_INET) {
        address = ipv4_address(reinterpret_cast<const sockaddr_in*>(a->ai_addr)->sin_addr.s_addr);
      } else if (a->ai_family == AF_INET6) {
        std::memcpy(address.data(), &reinterpret_cast<const sockaddr_in6*>(a->ai_addr)->sin6_addr, 16);
      } else {
        continue;
      }
      if (std::find(addresses.begin(), addresses.end(), address) == addresses.end()) addresses.push_back(address);
    }
    freeaddrinfo(found);
  }
  link_.set_directory_addresses(std::move(addresses));
}

DirectoryAgent::Answer DirectoryAgent::post(const std::string& body) {
  httplib::Client client(origin_);
  const auto seconds = static_cast<time_t>(options_.timeout.count());
  client.set_connection_timeout(seconds, 0);
  client.set_read_timeout(seconds, 0);
  client.set_write_timeout(seconds, 0);
  Answer answer;
  const httplib::Result result = client.Post(path_ + "/api/register", body, "application/json");
  if (!result) {
    answer.error = "no answer (" + httplib::to_string(result.error()) + ")";
    return answer;
  }
  answer.status = result->status;
  answer.body = result->body;
  return answer;
}

void DirectoryAgent::run() {
  std::optional<std::string> secret;
  std::chrono::milliseconds backoff = options_.retry_first;
  bool resolved = false;
  const auto retry = [&](const std::string& problem) {
    report(problem);
    set_state(State::kRetrying);
    const auto delay = backoff;
    backoff = std::min(backoff * 2, options_.retry_max);
    return wait_for(delay);
  };
  for (;;) {
    if (!resolved) {
      resolve();
      resolved = true;
    }
    std::string info = link_.info();
    if (info.empty()) {  // the loop publishes within a second of starting
      if (wait_for(std::chrono::milliseconds(100))) return;
      continue;
    }
    // A fresh registration proves the address again: a token left from an earlier challenge is no use.
    if (!secret) (void)link_.take_token(steady_us());
    std::string body = "{\"port\":" + std::to_string(options_.game_port);
    if (secret) body += ",\"secret\":\"" + *secret + "\"";
    body += ",\"info\":" + info + "}";
    Answer answer = post(body);

    // A challenge: the token comes to the game port; register again with it as soon as it is there (the answer's
    // retry_ms is for clients that cannot tell when it came).
    if (answer.status == 202) {
      set_state(State::kChallenged);
      std::optional<std::string> token;
      const Clock::time_point give_up = Clock::now() + options_.challenge_wait;
      while (!(token = link_.take_token(steady_us())) && Clock::now() < give_up) {
        if (wait_for(std::chrono::milliseconds(20))) return;
      }
      if (!token) {
        resolved = false;  // perhaps the directory moved
        if (retry("challenged, but no challenge datagram came to UDP port " + std::to_string(options_.game_port) +
                  " within " + std::to_string(options_.challenge_wait.count() / 1000) +
                  " s (is the game port reachable from the directory?)")) {
          return;
        }
        continue;
      }
      info = link_.info();
      body = "{\"port\":" + std::to_string(options_.game_port) + ",\"token\":\"" + *token + "\",\"info\":" + info + "}";
      answer = post(body);
    }

    const Reply reply = read_reply(answer.body);
    if (answer.status == 200 && is_hex32(reply.secret)) {
      if (!secret || state() != State::kListed) {
        spdlog::info("directory {}: listed (renewing every {} s)", options_.url, reply.every_s);
      }
      secret = reply.secret;
      set_state(State::kListed);
      listed_.fetch_add(1);
      last_problem_.clear();
      backoff = options_.retry_first;
      if (wait_for(std::chrono::seconds(reply.every_s))) return;
      continue;
    }
    if (answer.status == 202) {
      if (retry("challenged again after answering the challenge")) return;
      continue;
    }
    if (answer.status == 403) {
      // A wrong (or lapsed) secret or token: start over with a new challenge, at once the first time.
      secret.reset();
      resolved = false;
      report("refused (403): " + (reply.error.empty() ? answer.body : reply.error) + "; registering anew");
      set_state(State::kStarting);
      if (wait_for(std::min(backoff, options_.retry_first))) return;
      backoff = std::min(backoff * 2, options_.retry_max);
      continue;
    }
    std::string problem;
    if (answer.status == 0) {
      problem = answer.error;
    } else {
      problem = "HTTP " + std::to_string(answer.status) + ": " + (reply.error.empty() ? answer.body : reply.error);
    }
    if (answer.status == 200) problem = "listed, but without a secret: " + answer.body;
    if (retry(problem)) return;
  }
}

}  // namespace sr::server
