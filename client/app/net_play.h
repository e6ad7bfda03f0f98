// The game's link to a server: an optional server hosted in-process (the same sr::server::Server as
// stackrace-server, on its own thread, replays in the player's data directory), the net::Session that joins it
// or any other server, and our own game of each race kept as a local replay (OwnRace). No window and no ImGui here:
// the screens read this and call its requests.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "client/app/own_race.h"
#include "client/replay/replay_link.h"
#include "common/result.h"
#include "net/identity/player_key.h"
#include "net/session.h"
#include "server/directory_agent.h"
#include "server/directory_link.h"

namespace sr::server {
class Server;
}

namespace sr::client {

// How a hosted server is found: on the local network (LAN discovery), and listed by these directories (public: each
// directory proves the server answers at its address, so the port must be reachable from there).
struct HostChoice {
  bool lan = true;
  std::vector<std::string> directories;  // empty: not public
};

class NetPlay {
 public:
  // Our own game of every race we race is saved in `replays` (when it ends, when the race ends, when we leave the
  // room or the server, when the connection is lost, and at the latest when this is destroyed).
  explicit NetPlay(ReplayLink& replays);
  ~NetPlay();
  NetPlay(const NetPlay&) = delete;
  NetPlay& operator=(const NetPlay&) = delete;

  // Starts a server on `port` (0 = any free port) with its replays under `data_dir`. Ok or an error sentence.
  [[nodiscard]] sr::Status<std::string> host(std::uint16_t port, const std::filesystem::path& data_dir,
                                             const HostChoice& choice = {});
  [[nodiscard]] bool hosting() const { return server_ != nullptr; }
  [[nodiscard]] std::uint16_t hosted_port() const { return hosted_port_; }
  // Players on the server we host other than ourselves (0 when hosting none): whom closing the game would cut off.
  [[nodiscard]] std::size_t hosted_others() const;
  void stop_hosting();

  // Starts connecting as `name` (leaving any server we were on). Ok or an error sentence.
  [[nodiscard]] sr::Status<std::string> connect(const std::string& host, std::uint16_t port, const std::string& name);
  // Network traffic of this frame (never waits). Notices and refusals become messages() in words; the end of a
  // race, leaving a room and a lost connection save our own game.
  std::vector<net::Session::Received> poll();
  // "host:port" of the last connect().
  [[nodiscard]] const std::string& address() const { return address_; }
  // Leaves the server (our game of a race still running is saved first).
  void disconnect();
  // How long a dropped racer tries to resume their race (net::SessionOptions::resume_window); for the next connect().
  void set_resume_window(std::chrono::milliseconds window) { resume_window_ = window; }
  // The player's key (net/identity/player_key.h), used from the next connect() on; none: a key per connection.
  void set_key(std::optional<net::PlayerKey> key) { key_ = std::move(key); }
  [[nodiscard]] const std::optional<net::PlayerKey>& key() const { return key_; }

  // Our racer: a button change at race time t (ignored unless it changes the held buttons), and our game advanced
  // to race time t (only while it is on: nothing is sent after it ended or after the race's results). Both send
  // what is due and keep our own game; a game that has just ended is saved.
  void race_press(engine::TimeUs t, engine::Buttons buttons);
  void race_advance(engine::TimeUs t);
  // Saves our game of the current race if it is not saved yet (quitting mid-race).
  void save_own_game();
  // "Your game is saved: PATH" (or why not) for the last race we raced; "" before any.
  [[nodiscard]] const std::string& own_saved() const { return own_.last_sentence(); }
  [[nodiscard]] const std::filesystem::path& own_saved_path() const { return own_.last_path(); }

  // Set when an open connection ended without us asking (the server went away, closed it, or sent what we cannot
  // read): why, in words, and what became of our own game when the loss cut it short or the race it ended in was
  // still on ("" otherwise: a race whose results came is over). Shown until acknowledge_lost().
  struct Lost {
    std::string reason;
    std::string own_game;  // "" when we were not racing
  };
  [[nodiscard]] const std::optional<Lost>& lost() const { return lost_; }
  void acknowledge_lost() { lost_.reset(); }

  [[nodiscard]] net::Session& session() { return *session_; }
  [[nodiscard]] const net::Session& session() const { return *session_; }
  [[nodiscard]] bool connected() const {
    return session_->state() == net::Session::State::kLobby || session_->in_room();
  }
  // What the server refused or told us since the last connect(), newest last (at most 8), for the screens to show.
  [[nodiscard]] const std::deque<std::string>& messages() const { return messages_; }
  void say(std::string text);

 private:
  std::unique_ptr<server::Server> server_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  // A public hosted server's registration (server/directory_agent.h): one link and agent per directory.
  std::vector<std::unique_ptr<server::DirectoryLink>> directory_links_;
  std::vector<std::unique_ptr<server::DirectoryAgent>> directory_agents_;
  std::uint16_t hosted_port_ = 0;
  std::unique_ptr<net::Session> session_;
  std::string name_;
  std::string address_;
  std::chrono::milliseconds resume_window_ = net::SessionOptions{}.resume_window;
  bool was_open_ = false;
  std::deque<std::string> messages_;
  OwnRace own_;
  std::optional<net::PlayerKey> key_;
  std::optional<Lost> lost_;
  std::uint64_t saves_at_connect_ = 0;

  void follow_own_race();
};

// "host:port" or "host" (port 7878). nullopt when the host is empty or holds blanks, or the port is not a number
// in 1..65535.
[[nodiscard]] std::optional<std::pair<std::string, std::uint16_t>> parse_address(const std::string& text);

}  // namespace sr::client
