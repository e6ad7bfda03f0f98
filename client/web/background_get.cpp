#include "client/web/background_get.h"

#include <cassert>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string_view>
#include <system_error>
#include <thread>

#include "common/protocol/web_url.h"

namespace sr::client {
namespace {

bool query_char(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("-._~!$&'()*+,;=:@/?%").find(c) != std::string_view::npos;
}

// The web address of `url` with its query kept in the path (http_get sends the path as written).
sr::Result<protocol::WebUrl, std::string> split_url(const std::string& url) {
  const std::size_t q = url.find('?');
  auto parsed = protocol::parse_web_url(std::string_view(url).substr(0, q));
  if (!parsed) return sr::fail("\"" + url + "\" is not a web address: " + parsed.error());
  protocol::WebUrl out = std::move(parsed.value());
  if (q != std::string::npos) {
    for (std::size_t i = q + 1; i < url.size(); ++i) {
      if (!query_char(url[i]))
        return sr::fail("\"" + url + "\" is not a web address: its query has a '" + std::string(1, url[i]) + "'");
    }
    out.path = (out.path.empty() ? "/" : out.path) + url.substr(q);
  }
  return out;
}

HttpError unreachable(std::string message) { return HttpError{HttpErrorKind::kUnreachable, 0, std::move(message)}; }

}  // namespace

struct BackgroundGet::Shared {
  mutable std::mutex mutex;
  mutable std::condition_variable done;
  std::optional<Answer> answer;  // guarded by mutex

  void set(Answer a) {
    {
      std::lock_guard lock(mutex);
      answer = std::move(a);
    }
    done.notify_all();
  }
};

BackgroundGet::BackgroundGet(const std::string& url, const HttpGetLimits& limits)
    : shared_(std::make_shared<Shared>()) {
  auto parsed = split_url(url);
  if (!parsed) {
    shared_->set(unreachable(parsed.error()));
    return;
  }
  try {
    std::thread([shared = shared_, web = std::move(parsed.value()), limits] {
      shared->set(http_get(web, limits));
    }).detach();
  } catch (const std::system_error& e) {
    shared_->set(unreachable(std::string("cannot start a thread for the download: ") + e.what()));
  }
}

BackgroundGet::~BackgroundGet() = default;
BackgroundGet::BackgroundGet(BackgroundGet&&) noexcept = default;
BackgroundGet& BackgroundGet::operator=(BackgroundGet&&) noexcept = default;

bool BackgroundGet::ready() const {
  if (!shared_) return false;
  std::lock_guard lock(shared_->mutex);
  return shared_->answer.has_value();
}

bool BackgroundGet::wait_until(std::chrono::steady_clock::time_point deadline) const {
  if (!shared_) return false;
  std::unique_lock lock(shared_->mutex);
  return shared_->done.wait_until(lock, deadline, [&] { return shared_->answer.has_value(); });
}

BackgroundGet::Answer BackgroundGet::take() {
  assert(ready());
  std::lock_guard lock(shared_->mutex);
  Answer a = std::move(*shared_->answer);
  shared_->answer.reset();
  return a;
}

}  // namespace sr::client
