// The web pages' server (--web-port; deploy/README.md, "Web pages"): every stored game and every live race of this
// server on a web page, and the JSON API (web/API.md). It runs beside the game loop and never slows it:
//
// - One I/O thread owns every connection (epoll, non-blocking sockets): it parses request heads (http_request.h),
//   answers pages, scripts and the lobby's API from memory, streams the live feeds (live_rooms.h) and sends replay
//   files with sendfile. Nothing it does waits for a browser.
// - Worker threads answer what reads the replay store (game lists, records, JSON exports), each with its own
//   read-only connection to the index; their queue is bounded (503 beyond it).
// - From the game loop it takes only what LiveTap hands over (no lock a browser can hold). Its threads run at a lower
//   priority than the game loop (WebOptions::nice), so on a busy machine the game loop goes first.
//
// Limits per address and in all (web_limits.h) bound its connections, live streams, requests and memory.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "common/result.h"
#include "server/live_tap.h"
#include "server/web/web_limits.h"

namespace sr::server {
class MetricsBoard;
}

namespace sr::server::web {

struct WebOptions {
  std::string bind = "0.0.0.0";
  std::uint16_t port = 0;          // start(): 0 = any free port (tests)
  std::filesystem::path site_dir;  // the pages, scripts and engine (StaticSite)
  std::filesystem::path data_dir;  // the server's replay store, read only: its folder, or a postgresql:// locator
  WebLimits limits;
  std::size_t workers = 2;
  int nice = 10;  // added to the web threads' niceness (Linux: per thread); 0 = the game loop's
  // The metrics endpoint shares this port (--metrics-port equal to --web-port): /metrics and /healthz are answered
  // here from this board. Null: not here.
  const MetricsBoard* metrics = nullptr;
};

// Counters for logs and tests (read from any thread).
struct WebCounters {
  std::atomic<std::uint64_t> requests{0};
  std::atomic<std::uint64_t> refused{0};  // 429 and 503 for limits
  std::atomic<std::uint64_t> bytes_sent{0};
  std::atomic<std::uint64_t> connections{0};  // open now
  std::atomic<std::uint64_t> streams{0};      // live streams open now
  std::atomic<std::uint64_t> feed_bytes{0};   // held by the live feeds now
};

class WebServer {
 public:
  WebServer(WebOptions options, LiveTap& tap);
  ~WebServer();
  WebServer(const WebServer&) = delete;
  WebServer& operator=(const WebServer&) = delete;

  // Loads the site, binds the port and starts the threads. Ok, or an error sentence.
  [[nodiscard]] sr::Status<std::string> start();
  [[nodiscard]] std::uint16_t port() const { return port_; }
  // Closes every connection and joins the threads (also done by the destructor).
  void stop();
  [[nodiscard]] const WebCounters& counters() const { return counters_; }
  // Whether the site has the WebAssembly engine (the replay, live and verify pages need it).
  [[nodiscard]] bool has_engine() const;

 private:
  class Loop;
  WebOptions options_;
  LiveTap& tap_;
  WebCounters counters_;
  std::unique_ptr<Loop> loop_;
  std::uint16_t port_ = 0;
};

// The site directory to use when none is given: `<dir of the executable>/../web/site` when it exists (a build tree),
// else /usr/share/stackrace/web (the container image and packages).
[[nodiscard]] std::filesystem::path default_site_dir();

}  // namespace sr::server::web
