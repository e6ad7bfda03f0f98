// One http_get (http_get.h) on a thread of its own, for screens that must never wait for the network: the frame loop
// asks ready() each frame and takes the answer once it is there. Dropping a BackgroundGet never waits either: a fetch
// still running finishes alone (within its timeout) and its answer is thrown away. The thread touches nothing but the
// state it shares with its BackgroundGet, so it may outlive every screen.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "client/web/http_get.h"
#include "common/result.h"

namespace sr::client {

class BackgroundGet {
 public:
  using Answer = sr::Result<std::vector<std::uint8_t>, HttpError>;

  // Starts GETting `url`: a web address (common/protocol/web_url.h) with an optional query after '?' of URL
  // characters (letters, digits, `-._~!$&'()*+,;=:@/?%`), sent as written: "http://host:8080/api/records/sprint-40l?
  // list=trusted&offset=0&limit=20". A URL that is not one is answered at once (kUnreachable: "\"...\" is not a web
  // address: ..."), as is a thread that cannot be started.
  BackgroundGet(const std::string& url, const HttpGetLimits& limits);
  ~BackgroundGet();
  BackgroundGet(BackgroundGet&&) noexcept;
  BackgroundGet& operator=(BackgroundGet&&) noexcept;
  BackgroundGet(const BackgroundGet&) = delete;
  BackgroundGet& operator=(const BackgroundGet&) = delete;

  // The answer has come (and was not taken yet).
  [[nodiscard]] bool ready() const;
  // Waits until ready() or `deadline` (tests, and whatever may block): ready().
  [[nodiscard]] bool wait_until(std::chrono::steady_clock::time_point deadline) const;
  // The answer; only once ready() (a programmer mistake otherwise). Afterwards ready() is false.
  [[nodiscard]] Answer take();

 private:
  struct Shared;
  std::shared_ptr<Shared> shared_;
};

}  // namespace sr::client
