// The game's link to a server: an optional server hosted in-process (the same sr::server::Server as
// stackrace-server, on its own thread, replays in the player's data directory) and the net::Session that joins it
// or any other server. No window and no ImGui here: the screens read this and call its requests.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "client/net/session.h"

namespace sr::server {
class Server;
}

namespace sr::client {

class NetPlay {
 public:
  NetPlay();
  ~NetPlay();
  NetPlay(const NetPlay&) = delete;
  NetPlay& operator=(const NetPlay&) = delete;

  // Starts a server on `port` (0 = any free port) with its replays under `data_dir`. An error sentence or "".
  [[nodiscard]] std::string host(std::uint16_t port, const std::filesystem::path& data_dir);
  [[nodiscard]] bool hosting() const { return server_ != nullptr; }
  [[nodiscard]] std::uint16_t hosted_port() const { return hosted_port_; }
  void stop_hosting();

  // Starts connecting as `name`. An error sentence or "".
  [[nodiscard]] std::string connect(const std::string& host, std::uint16_t port, const std::string& name);
  // Network traffic of this frame (never waits). Notices and refusals become messages() in words.
  std::vector<net::Session::Received> poll();
  void disconnect();

  [[nodiscard]] net::Session& session() { return *session_; }
  [[nodiscard]] const net::Session& session() const { return *session_; }
  [[nodiscard]] bool connected() const {
    return session_->state() == net::Session::State::kLobby || session_->state() == net::Session::State::kRoom;
  }
  // What the server refused or told us, newest last (at most 8), for the screens to show.
  [[nodiscard]] const std::deque<std::string>& messages() const { return messages_; }
  void say(std::string text);

 private:
  std::unique_ptr<server::Server> server_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::uint16_t hosted_port_ = 0;
  std::unique_ptr<net::Session> session_;
  bool was_open_ = false;
  std::deque<std::string> messages_;
};

// "host:port" or "host" (port 7878). nullopt when the port is not a number in 1..65535.
[[nodiscard]] std::optional<std::pair<std::string, std::uint16_t>> parse_address(const std::string& text);

}  // namespace sr::client
