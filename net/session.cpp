#include "net/session.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

namespace sr::net {
namespace {

constexpr std::size_t kChatKept = 200;

}  // namespace

std::string describe(protocol::NoticeCode code) {
  using protocol::NoticeCode;
  switch (code) {
    case NoticeCode::kInfo: return "note from the server";
    case NoticeCode::kRoomFull: return "that room has no racer slot left (join as a spectator instead)";
    case NoticeCode::kRoomNotFound: return "that room does not exist any more";
    case NoticeCode::kWrongCode: return "no private room has that code";
    case NoticeCode::kNotHost: return "only the room's host can do that";
    case NoticeCode::kRateLimited: return "slow down: too many requests";
    case NoticeCode::kInvalidRequest: return "the server refused that request";
    case NoticeCode::kNotInRoom: return "you are not in a room";
    case NoticeCode::kAlreadyInRoom: return "leave your room first";
    case NoticeCode::kRaceInProgress: return "not while a race is on";
    case NoticeCode::kInvalidSettings: return "the server does not allow those settings";
    case NoticeCode::kTooManyRooms: return "the server has too many rooms";
    case NoticeCode::kSpectatorsFull: return "that room is full";
    case NoticeCode::kNoRacers: return "a race needs at least one racer";
    case NoticeCode::kReplayNotFound: return "the server has no such replay";
    case NoticeCode::kDesync: return "your game disagreed with the server's simulation";
    case NoticeCode::kInternalError: return "the server had an internal error";
  }
  return "unknown notice";
}

std::string describe_not_stored(const std::string& reason) {
  return "replay not stored: " + (reason.empty() ? std::string("the server did not say why") : reason);
}

std::string describe(protocol::RejectReason reason) {
  using protocol::RejectReason;
  switch (reason) {
    case RejectReason::kOther: return "the server refused the connection";
    case RejectReason::kVersionMismatch: return "the server speaks another protocol version";
    case RejectReason::kNameTaken: return "that name is taken on this server";
    case RejectReason::kNameInvalid: return "that name is not allowed";
    case RejectReason::kServerFull: return "the server is full";
    case RejectReason::kBanned: return "you are banned from this server";
    case RejectReason::kTooManyFromAddress: return "too many connections from your address";
    case RejectReason::kBadHello: return "the handshake failed";
    case RejectReason::kCannotResume: return "the race could not be resumed";
  }
  return "refused";
}

sr::Status<std::string> Session::open(const SessionOptions& options) {
  options_ = options;
  if (!options_.key) options_.key = PlayerKey::generate();
  closed_reason_.clear();
  if (auto connected = connection_.connect(options.host, options.port, options.protocol_version, options.local_host);
      !connected) {
    return connected;
  }
  state_ = State::kConnecting;
  return {};
}

void Session::close() {
  connection_.disconnect();
  std::vector<Connection::Event> events;
  for (int i = 0; i < 10 && connection_.state() == Connection::State::kConnected; ++i) connection_.poll(10, events);
  if (state_ != State::kClosed) {
    state_ = State::kClosed;
    if (closed_reason_.empty()) closed_reason_ = "you left the server";
  }
}

bool Session::send(const protocol::Message& message) {
  if (state_ == State::kReconnecting) return false;  // the server takes nothing but Resume until our seat is back
  if (!protocol::validate(message)) return false;    // never put an invalid message on the wire
  return connection_.send(message);
}

bool Session::can_resume() const {
  return closed_reason_.empty() && state_ == State::kRoom && race_ && seat_ && seat_->race_id == race_->race_id() &&
         race_->racing() && race_->mine()->status == protocol::RacerStatus::kRacing &&
         !(results_ && results_->race_id == race_->race_id());
}

std::optional<TimeUs> Session::reconnecting_for_us() const {
  if (state_ != State::kReconnecting) return std::nullopt;
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - dropped_at_).count();
}

void Session::try_reconnect() {
  const auto now = std::chrono::steady_clock::now();
  if (now - dropped_at_ > options_.resume_window) {
    connection_.disconnect();
    state_ = State::kClosed;
    closed_reason_ = fmt::format("the connection to the server was lost, and the race could not be resumed within {} s",
                                 options_.resume_window.count() / 1000);
    return;
  }
  // A new attempt (a new socket: the old address may be gone) unless one is connected or still young.
  if (now < next_attempt_ || connection_.state() == Connection::State::kConnected) return;
  next_attempt_ = now + kRetryEvery;
  (void)connection_.connect(options_.host, options_.port, options_.protocol_version, options_.local_host);
}

namespace {

// Local steady time in microseconds, for pings.
TimeUs steady_us(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count();
}

}  // namespace

std::vector<Session::Received> Session::poll(std::uint32_t timeout_ms) {
  if (state_ == State::kReconnecting) try_reconnect();
  if (const auto now = std::chrono::steady_clock::now();
      (state_ == State::kLobby || state_ == State::kRoom) && now >= next_ping_) {
    connection_.send(protocol::Ping{static_cast<std::uint64_t>(steady_us(now))});
    next_ping_ = now + kPingEvery;
  }
  std::vector<Connection::Event> events;
  connection_.poll(timeout_ms, events);
  std::vector<Received> out;
  for (Connection::Event& e : events) {
    switch (e.kind) {
      case Connection::Event::Kind::kConnected:
        break;  // the server's KeyChallenge comes first; Hello or Resume answers it (on_message)
      case Connection::Event::Kind::kBadMessage:
        closed_reason_ = "the server sent " + e.error;
        connection_.disconnect();
        break;
      case Connection::Event::Kind::kIgnored:
        // Nothing to close (that was not the server); said once per connection on standard error, as the game's
        // and the bot's other diagnostics are.
        fmt::print(stderr, "stackrace: ignored {}\n", e.error);
        break;
      case Connection::Event::Kind::kDisconnected:
        if (state_ == State::kReconnecting && closed_reason_.empty()) break;  // that attempt failed; another comes
        if (can_resume()) {
          state_ = State::kReconnecting;
          dropped_at_ = std::chrono::steady_clock::now();
          next_attempt_ = dropped_at_;
          break;
        }
        if (closed_reason_.empty()) {
          closed_reason_ = state_ == State::kConnecting
                               ? "nothing answered at " + options_.host + ":" + std::to_string(options_.port) +
                                     " within " + std::to_string(Connection::kTimeoutMs / 1000) + " s"
                               : "the connection to the server was lost";
        }
        state_ = State::kClosed;
        break;
      case Connection::Event::Kind::kMessage:
        on_message(*e.message);
        out.push_back(std::move(*e.message));
        break;
    }
  }
  flush_race_messages();
  connection_.flush();
  return out;
}

void Session::on_message(const protocol::Message& m) {
  std::visit(
      [this](const auto& msg) {
        using T = std::decay_t<decltype(msg)>;
        if constexpr (std::is_same_v<T, protocol::KeyChallenge>) {
          const protocol::SignatureBytes signature = options_.key->sign(protocol::key_proof_message(msg.challenge));
          if (state_ == State::kReconnecting) {
            connection_.send(protocol::Resume{seat_->race_id, seat_->token_hi, seat_->token_lo, options_.client_version,
                                              race_->relay_positions(), options_.key->public_key(), signature});
          } else {
            connection_.send(
                protocol::Hello{options_.name, options_.client_version, options_.key->public_key(), signature});
          }
        } else if constexpr (std::is_same_v<T, protocol::Welcome>) {
          welcome_ = msg;
          if (state_ != State::kReconnecting) state_ = State::kLobby;  // a resume goes on with RaceResumed
        } else if constexpr (std::is_same_v<T, protocol::RaceSeat>) {
          if (race_ && race_->race_id() == msg.race_id) seat_ = msg;
        } else if constexpr (std::is_same_v<T, protocol::RaceResumed>) {
          if (state_ != State::kReconnecting || !race_ || race_->race_id() != msg.race_id) return;
          state_ = State::kRoom;
          if (!race_->resume(msg.next_seq, msg.now_us, outgoing_)) {
            closed_reason_ = "the server has more of our race than we sent";
            connection_.disconnect();
            return;
          }
          resume_times_us_.push_back(
              std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - dropped_at_)
                  .count());
        } else if constexpr (std::is_same_v<T, protocol::Reject>) {
          closed_reason_ = msg.reason == protocol::RejectReason::kVersionMismatch
                               ? fmt::format("server speaks version {}, this game speaks version {}",
                                             msg.server_version, protocol::kProtocolVersion)
                               : (msg.text.empty() ? describe(msg.reason) : msg.text);
        } else if constexpr (std::is_same_v<T, protocol::Disconnecting>) {
          closed_reason_ = msg.text.empty() ? "the server closed the connection" : msg.text;
        } else if constexpr (std::is_same_v<T, protocol::Ping>) {
          connection_.send(protocol::Pong{msg.sent_us, 0});
        } else if constexpr (std::is_same_v<T, protocol::Pong>) {
          if (msg.reply_sent_us != 0) {
            server_clock_.on_pong(static_cast<TimeUs>(msg.ping_sent_us), steady_us(std::chrono::steady_clock::now()),
                                  static_cast<TimeUs>(msg.reply_sent_us));
          }
        } else if constexpr (std::is_same_v<T, protocol::RoomList>) {
          room_list_ = msg;
          ++room_lists_received_;
        } else if constexpr (std::is_same_v<T, protocol::RoomJoined>) {
          room_ = msg.room;
          state_ = State::kRoom;
        } else if constexpr (std::is_same_v<T, protocol::RoomUpdate>) {
          room_ = msg.room;
        } else if constexpr (std::is_same_v<T, protocol::RoomLeft>) {
          room_.reset();
          race_.reset();
          state_ = State::kLobby;
        } else if constexpr (std::is_same_v<T, protocol::Chat>) {
          chat_.push_back(msg);
          if (chat_.size() > kChatKept) chat_.pop_front();
        } else if constexpr (std::is_same_v<T, protocol::CountdownStart>) {
          race_ = std::make_unique<RaceView>(msg, welcome_.player_id, options_.key);  // our key signs our run
          seat_.reset();
          race_start_ = race_start(msg);
          results_.reset();
          stored_replay_.reset();
          replay_not_stored_.reset();
        } else if constexpr (std::is_same_v<T, protocol::CatchUpStart>) {
          race_ = std::make_unique<RaceView>(msg, welcome_.player_id);
          race_start_ = std::chrono::steady_clock::now() - std::chrono::microseconds(msg.elapsed_us);
          results_.reset();
          stored_replay_.reset();
          replay_not_stored_.reset();
        } else if constexpr (std::is_same_v<T, protocol::RacerInputs>) {
          std::string error;
          if (race_ && race_->race_id() == msg.race_id && !race_->on_inputs(msg, error)) {
            closed_reason_ = "the server sent inconsistent race data: " + error;
            connection_.disconnect();
          }
        } else if constexpr (std::is_same_v<T, protocol::RaceInputAck>) {
          if (race_) race_->on_ack(msg);
        } else if constexpr (std::is_same_v<T, protocol::LiveStats>) {
          if (race_ && race_->race_id() == msg.race_id) race_->on_live(msg);
        } else if constexpr (std::is_same_v<T, protocol::RacerEnded>) {
          if (race_ && race_->race_id() == msg.race_id) race_->on_ended(msg);
        } else if constexpr (std::is_same_v<T, protocol::RaceResults>) {
          results_ = msg;
          stored_replay_.reset();
          replay_not_stored_.reset();
        } else if constexpr (std::is_same_v<T, protocol::ReplayStored>) {
          if (results_ && results_->race_id == msg.race_id) {
            stored_replay_ = msg.game_id;
            replay_not_stored_.reset();  // it was only slow
          }
        } else if constexpr (std::is_same_v<T, protocol::ReplayNotStored>) {
          if (results_ && results_->race_id == msg.race_id) replay_not_stored_ = msg.reason;
        } else if constexpr (std::is_same_v<T, protocol::ReplayChunk>) {
          auto it = downloads_.find(msg.game_id);
          if (it == downloads_.end()) return;
          if (it->second.add(msg) == protocol::AssembleStatus::kComplete) {
            finished_downloads_[msg.game_id] = it->second.take();
            downloads_.erase(it);
          }
        } else if constexpr (std::is_same_v<T, protocol::ReplayUnavailable>) {
          downloads_.erase(msg.game_id);
        }
      },
      m);
}

std::chrono::steady_clock::time_point Session::race_start(const protocol::CountdownStart& m) const {
  // Without a clock estimate: the countdown from now. With one: the start on the server's clock, which is earlier
  // when the message was slow (never later, and at most kMaxCountdownUs earlier: a wild estimate is not trusted).
  const auto now = std::chrono::steady_clock::now();
  const auto naive = now + std::chrono::microseconds(m.countdown_us);
  const std::optional<TimeUs> synced = server_clock_.local_time_of(static_cast<TimeUs>(m.start_server_us));
  if (!synced) return naive;
  const auto start = std::chrono::steady_clock::time_point(std::chrono::microseconds(*synced));
  return std::clamp(start, naive - std::chrono::microseconds(protocol::kMaxCountdownUs), naive);
}

std::optional<TimeUs> Session::race_time_us() const {
  if (!race_) return std::nullopt;
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - race_start_).count();
}

void Session::race_press(TimeUs t, engine::Buttons buttons) {
  if (race_ && t >= 0) race_->press(t, buttons, outgoing_);
  flush_race_messages();
}

void Session::race_advance(TimeUs t) {
  if (race_ && t >= 0) race_->advance(t, outgoing_);
  flush_race_messages();
}

void Session::flush_race_messages() {
  // While reconnecting nothing goes out: our game's changes are in its log, and the resume sends them.
  if (state_ == State::kReconnecting) outgoing_.clear();
  for (protocol::Message& m : outgoing_) {
    if (divert_) {
      divert_(std::move(m));
    } else {
      connection_.send(m);
    }
  }
  if (!outgoing_.empty()) connection_.flush();
  outgoing_.clear();
}

std::optional<std::vector<std::uint8_t>> Session::take_download(std::uint64_t game_id) {
  const auto it = finished_downloads_.find(game_id);
  if (it == finished_downloads_.end()) return std::nullopt;
  std::vector<std::uint8_t> bytes = std::move(it->second);
  finished_downloads_.erase(it);
  return bytes;
}

bool Session::list_rooms(std::uint32_t start) { return send(protocol::ListRooms{start}); }
bool Session::create_room(const protocol::RoomSettings& settings, protocol::Role role) {
  return send(protocol::CreateRoom{settings, role});
}
bool Session::join_room(std::uint32_t room_id, protocol::Role role) {
  return send(protocol::JoinRoom{room_id, "", role});
}
bool Session::join_private(const std::string& code, protocol::Role role) {
  return send(protocol::JoinRoom{0, code, role});
}
bool Session::leave_room() { return send(protocol::LeaveRoom{}); }
bool Session::chat(const std::string& text) { return send(protocol::SendChat{text}); }
bool Session::set_ready(bool ready) { return send(protocol::SetReady{ready}); }
bool Session::set_role(protocol::Role role) { return send(protocol::SetRole{role}); }
bool Session::set_handling(const engine::Handling& handling) { return send(protocol::SetHandling{handling}); }
bool Session::change_settings(const protocol::RoomSettings& settings) {
  return send(protocol::ChangeSettings{settings});
}
bool Session::kick(std::uint32_t player_id) { return send(protocol::KickPlayer{player_id}); }
bool Session::start_race() { return send(protocol::StartRace{}); }
bool Session::list_games(protocol::GameListKind kind, const std::string& player, std::optional<engine::ModeKind> mode) {
  return send(protocol::ListGames{kind, player, mode, 0, 20});
}
bool Session::download_replay(std::uint64_t game_id) {
  if (!send(protocol::DownloadReplay{game_id})) return false;
  downloads_.insert_or_assign(game_id, protocol::ReplayAssembler(game_id));
  return true;
}

}  // namespace sr::net
