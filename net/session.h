// A client's session with one server, usable without a window: the handshake, lobby and room requests, races
// (our own game streamed, everyone's boards replayed), spectating and replay downloads. The GUI and stackrace-bot
// both drive one of these.
//
// Threading: single-threaded; call poll() often (every frame, or in the bot's loop).
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/protocol/messages.h"
#include "common/protocol/streams.h"
#include "common/result.h"
#include "net/connection.h"
#include "net/identity/player_key.h"
#include "net/race_view.h"
#include "net/server_clock.h"

namespace sr::net {

struct SessionOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 7878;
  std::string name;
  std::string client_version = "stackrace 0.1.0";
  std::uint32_t protocol_version = protocol::kProtocolVersion;  // other values only to test refusals
  // The IPv4 address to connect from (Connection::connect's local_host); empty: any.
  std::string local_host;
  // How long a racer whose connection dropped tries to take their seat back (the server keeps it for 60 s).
  std::chrono::milliseconds resume_window{60'000};
  // The player's key (net/identity/player_key.h): it signs the server's challenge in Hello and Resume, holds the name
  // on each server, and signs each run we race when our game ends (RunSigned: PROTOCOL.md, "Run signatures"). None:
  // a key made for this session alone (the name is then held by a key nobody keeps: for tests and throwaway clients
  // only).
  std::optional<PlayerKey> key;
};

class Session {
 public:
  enum class State : std::uint8_t {
    kIdle,        // not started
    kConnecting,  // waiting for ENet, then for Welcome
    kLobby,       // welcomed, in no room
    kRoom,        // in a room (its race, if any, is in race())
    // The connection dropped while we raced: our game goes on (race() as before) while the session reconnects by
    // itself and takes our seat back (PROTOCOL.md "Resuming a race"), then it is kRoom again. After
    // SessionOptions::resume_window, or if the server refuses, kClosed.
    kReconnecting,
    kClosed,  // disconnected; closed_reason() says why
  };
  // How often a new connection attempt starts while reconnecting.
  static constexpr std::chrono::seconds kRetryEvery{2};
  // How often we ping the server while in the lobby or a room, for its clock (server_clock()).
  static constexpr std::chrono::milliseconds kPingEvery{500};

  // Everything the server said, in order, for the owner to react to (errors, chat, results, ...).
  using Received = protocol::Message;

  Session() = default;

  // Starts connecting. Ok, or an error sentence if that cannot start (bad host name, no socket).
  [[nodiscard]] sr::Status<std::string> open(const SessionOptions& options);
  // Handles traffic (waits up to timeout_ms) and returns what arrived. Time-driven work of our own race
  // (heartbeats, hash reports) happens in race_advance().
  std::vector<Received> poll(std::uint32_t timeout_ms);
  void close();

  [[nodiscard]] State state() const { return state_; }
  // In a room, also while reconnecting to it (the race goes on meanwhile).
  [[nodiscard]] bool in_room() const { return state_ == State::kRoom || state_ == State::kReconnecting; }
  [[nodiscard]] const std::string& closed_reason() const { return closed_reason_; }
  [[nodiscard]] std::uint32_t player_id() const { return welcome_.player_id; }
  [[nodiscard]] const protocol::Welcome& welcome() const { return welcome_; }
  [[nodiscard]] const std::optional<protocol::RoomInfo>& room() const { return room_; }
  [[nodiscard]] const protocol::RoomList& room_list() const { return room_list_; }
  // How many RoomList answers have arrived (room_list() is empty before the first).
  [[nodiscard]] std::uint64_t room_lists_received() const { return room_lists_received_; }
  [[nodiscard]] const std::deque<protocol::Chat>& chat_log() const { return chat_; }
  [[nodiscard]] std::uint32_t rtt_ms() const { return connection_.rtt_ms(); }
  // Resumes so far, and for each the time from losing the connection to having our seat back.
  [[nodiscard]] int reconnects() const { return static_cast<int>(resume_times_us_.size()); }
  [[nodiscard]] const std::vector<TimeUs>& resume_times_us() const { return resume_times_us_; }
  // While kReconnecting: how long since the connection dropped.
  [[nodiscard]] std::optional<TimeUs> reconnecting_for_us() const;

  // Lobby and room requests. Each returns false if not connected (the server answers refusals with a Notice).
  bool list_rooms(std::uint32_t start = 0);
  bool create_room(const protocol::RoomSettings& settings, protocol::Role role = protocol::Role::kRacer);
  bool join_room(std::uint32_t room_id, protocol::Role role = protocol::Role::kRacer);
  bool join_private(const std::string& code, protocol::Role role = protocol::Role::kRacer);
  bool leave_room();
  bool chat(const std::string& text);
  bool set_ready(bool ready);
  bool set_role(protocol::Role role);
  bool set_handling(const engine::Handling& handling);
  bool change_settings(const protocol::RoomSettings& settings);
  bool kick(std::uint32_t player_id);
  bool start_race();
  bool list_games(protocol::GameListKind kind, const std::string& player = {},
                  std::optional<engine::ModeKind> mode = std::nullopt);
  bool download_replay(std::uint64_t game_id);
  bool send(const protocol::Message& message);

  // The current race (from its countdown until the next one starts), or null.
  [[nodiscard]] const RaceView* race() const { return race_.get(); }
  // The connection's socket descriptor (-1 when closed): poll() has work when it is readable.
  [[nodiscard]] int socket_handle() const { return connection_.socket_handle(); }
  // The server's clock, from our pings: the race starts by it (CountdownStart::start_server_us), not when the
  // countdown message happened to arrive.
  [[nodiscard]] const ServerClock& server_clock() const { return server_clock_; }
  // Race game time now (negative during the countdown), by this machine's steady clock. nullopt without a race.
  [[nodiscard]] std::optional<TimeUs> race_time_us() const;
  // Our own racer: a button change at race time t; and advancing our game to t. Both send what is due.
  void race_press(TimeUs t, engine::Buttons buttons);
  void race_advance(TimeUs t);
  // The last race's results, and the replay id the server stored it under (when it says).
  [[nodiscard]] const std::optional<protocol::RaceResults>& results() const { return results_; }
  [[nodiscard]] std::optional<std::uint64_t> stored_replay() const { return stored_replay_; }
  // Why the server did not store the last race's replay, when it says so (ReplayNotStored).
  [[nodiscard]] const std::optional<std::string>& replay_not_stored() const { return replay_not_stored_; }
  // Tests and tools: race messages go to this function instead of the network (which can then send them later with
  // send(), e.g. to play a client on a jittery link).
  void divert_race_messages(std::function<void(protocol::Message)> to) { divert_ = std::move(to); }
  // A finished download: the .srr bytes (taken out).
  [[nodiscard]] std::optional<std::vector<std::uint8_t>> take_download(std::uint64_t game_id);

 private:
  void on_message(const protocol::Message& m);
  void flush_race_messages();
  // The local moment of game time 0 of the race `m` counts down to (see server_clock()).
  [[nodiscard]] std::chrono::steady_clock::time_point race_start(const protocol::CountdownStart& m) const;
  // The connection dropped: whether our seat in the running race may be taken back, and the attempts to.
  [[nodiscard]] bool can_resume() const;
  void try_reconnect();

  Connection connection_;
  SessionOptions options_;
  State state_ = State::kIdle;
  std::string closed_reason_;
  protocol::Welcome welcome_;
  std::optional<protocol::RoomInfo> room_;
  protocol::RoomList room_list_;
  std::uint64_t room_lists_received_ = 0;
  std::deque<protocol::Chat> chat_;
  std::unique_ptr<RaceView> race_;
  std::chrono::steady_clock::time_point race_start_;  // local moment of race game time 0
  ServerClock server_clock_;
  std::chrono::steady_clock::time_point next_ping_;
  std::optional<protocol::RaceResults> results_;
  std::optional<std::uint64_t> stored_replay_;
  std::optional<std::string> replay_not_stored_;
  std::map<std::uint64_t, protocol::ReplayAssembler> downloads_;
  std::map<std::uint64_t, std::vector<std::uint8_t>> finished_downloads_;
  std::vector<protocol::Message> outgoing_;
  std::optional<protocol::RaceSeat> seat_;  // our seat in the current race
  std::chrono::steady_clock::time_point dropped_at_, next_attempt_;
  std::vector<TimeUs> resume_times_us_;
  std::function<void(protocol::Message)> divert_;
};

// A sentence for a server's refusal or notice code ("that room is full", ...).
[[nodiscard]] std::string describe(protocol::NoticeCode code);
[[nodiscard]] std::string describe(protocol::RejectReason reason);
// The results screen's line for a race the server did not store (ReplayNotStored): "replay not stored: <reason>".
[[nodiscard]] std::string describe_not_stored(const std::string& reason);

}  // namespace sr::net
