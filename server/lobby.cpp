#include "server/lobby.h"

#include <fmt/format.h>
#include <sodium.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <string_view>
#include <unordered_map>

#include "common/protocol/text.h"
#include "net/identity/player_key.h"

namespace sr::server {

using protocol::MessageId;
using protocol::NoticeCode;

namespace {

std::string lower_name(std::string name) {
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

}  // namespace

std::string free_name_like(const std::string& name, const std::function<bool(const std::string&)>& taken) {
  std::size_t digits_from = name.size();
  while (digits_from > 0 && std::isdigit(static_cast<unsigned char>(name[digits_from - 1])) != 0) --digits_from;
  const std::string base = name.substr(0, digits_from);
  // The trailing number (at most 9 digits are read: a longer one only starts the count again).
  std::uint64_t n = 1;
  if (digits_from < name.size() && name.size() - digits_from <= 9) n = std::stoull(name.substr(digits_from));
  for (int tries = 0; tries < kFreeNameTries; ++tries) {
    const std::string number = std::to_string(++n);
    if (number.size() >= protocol::kMaxPlayerNameBytes) break;
    std::string candidate = base.substr(0, protocol::kMaxPlayerNameBytes - number.size()) + number;
    if (protocol::is_valid_player_name(candidate) && !taken(candidate)) return candidate;
  }
  return {};
}

namespace {

AddressLimits address_limits(const LobbyOptions& options) {
  AddressLimits limits = options.address;
  limits.max_connections = options.max_per_address;
  return limits;
}

}  // namespace

Lobby::Lobby(LobbyOptions options, RoomServices room_services, ReplayService* replays, std::uint64_t seed)
    : options_(std::move(options)),
      room_services_(room_services),
      replays_(replays),
      random_(seed),
      addresses_(address_limits(options_)),
      requests_(2 * options_.requests_per_second, options_.requests_per_second),
      catch_ups_(options_.catch_up) {
  room_services_.catch_ups = &catch_ups_;
  room_services_.on_race_end = [this](RoomId room, const protocol::RaceResults& results) {
    if (ladder_ != nullptr) ladder_->race_ended(room, results);
  };
}

std::size_t Lobby::rooms_in(protocol::RoomPhase phase) const {
  return static_cast<std::size_t>(
      std::count_if(rooms_.begin(), rooms_.end(), [phase](const auto& r) { return r.second->phase() == phase; }));
}

void Lobby::notice(PlayerId to, NoticeCode code, MessageId about, const std::string& text) {
  // A server fault or news is not the player's doing.
  const bool refusal = code != NoticeCode::kInfo && code != NoticeCode::kInternalError && code != NoticeCode::kDesync;
  if (refusal && !take_refusal(to)) return;
  room_services_.outbox->send(to, protocol::Notice{code, about, text}, protocol::kChannelControl);
}

bool Lobby::take_refusal(PlayerId id) {
  const auto it = players_.find(id);
  if (it == players_.end() || it->second.refusals.allow(handling_us_)) return true;
  const std::string text = "too many refused requests: wait for the answer before asking again";
  count_refusal(it->second.host, Limit::kRefusals, text, handling_us_);
  drop(id, protocol::DisconnectReason::kRateLimited, text);
  return false;
}

void Lobby::drop(PlayerId id, protocol::DisconnectReason reason, const std::string& text) {
  spdlog::info("dropping player {}: {}", id, text);
  room_services_.outbox->drop(id, reason, text);
}

void Lobby::count_refusal(const std::string& host, Limit limit, const std::string& text, TimeUs now_us,
                          std::uint64_t times) {
  std::uint64_t suppressed = 0;
  if (!addresses_.count_refusal(host, limit, now_us, suppressed, times)) return;
  if (suppressed == 0) {
    spdlog::warn("{}: refused ({}): {}", host, limit_label(limit), text);
  } else {
    spdlog::warn("{}: refused ({}): {}; and {} more refusals of this address since the last line", host,
                 limit_label(limit), text, suppressed);
  }
}

void Lobby::count_refused_connects(const std::string& host, std::uint64_t attempts, TimeUs now_us) {
  count_refusal(host, Limit::kConnectRate,
                fmt::format("{} connection attempts dropped unanswered (too many a second from one address)", attempts),
                now_us, attempts);
}

bool Lobby::connect(PlayerId id, std::uint32_t version, const std::string& address, TimeUs now_us) {
  if (version != protocol::kProtocolVersion) {
    const std::string text =
        fmt::format("server speaks version {}, your client speaks version {}", protocol::kProtocolVersion, version);
    room_services_.outbox->send(
        id, protocol::Reject{protocol::RejectReason::kVersionMismatch, protocol::kProtocolVersion, text},
        protocol::kChannelControl);
    room_services_.outbox->drop(id, protocol::DisconnectReason::kRejected, text);
    spdlog::info("{}: refused, protocol version {} (server speaks {})", address, version, protocol::kProtocolVersion);
    return false;
  }
  const std::string host = host_of(address);
  if (const auto refused = addresses_.admit(host, now_us)) {
    const AddressLimits& limits = addresses_.limits();
    const std::string text =
        *refused == Limit::kConnections
            ? fmt::format("the server allows at most {} players from one address", limits.max_connections)
            : fmt::format("the server allows at most {} connections from one address that have not said Hello",
                          limits.max_pending);
    room_services_.outbox->send(
        id, protocol::Reject{protocol::RejectReason::kTooManyFromAddress, protocol::kProtocolVersion, text},
        protocol::kChannelControl);
    room_services_.outbox->drop(id, protocol::DisconnectReason::kRejected, text);
    count_refusal(host, *refused, text, now_us);
    return false;
  }
  Player p;
  p.id = id;
  p.address = address;
  p.host = host;
  p.trusted = addresses_.trusted(host);
  p.connected_us = now_us;
  p.active_us = now_us;
  randombytes_buf(p.challenge.data(), p.challenge.size());
  room_services_.outbox->send(id, protocol::KeyChallenge{p.challenge}, protocol::kChannelControl);
  players_.emplace(id, std::move(p));
  return true;
}

bool Lobby::receive_bytes(PlayerId id, std::size_t bytes, TimeUs now_us) {
  const auto it = players_.find(id);
  if (it == players_.end()) return true;
  if (addresses_.allow_bytes(it->second.host, bytes, now_us)) return true;
  const std::string text =
      fmt::format("your address sent more than {} KiB a second", addresses_.limits().bytes_per_second / 1024);
  count_refusal(it->second.host, Limit::kBytesRate, text, now_us);
  drop(id, protocol::DisconnectReason::kRateLimited, text);
  return false;
}

void Lobby::disconnect(PlayerId id, TimeUs now_us, bool may_resume) {
  const auto it = players_.find(id);
  if (it == players_.end() || it->second.away_since_us) return;
  if (Room* room = room_of(it->second); may_resume && room != nullptr && room->suspend_racer(id)) {
    Player& p = it->second;
    if (p.away_race != room->latest_race_id()) {
      p.away_race = room->latest_race_id();
      p.away_before_us = 0;
    }
    p.away_since_us = now_us;
    away_.insert(id);
    spdlog::info("{} ({}) lost the connection mid-race; their seat is kept for {:.1f} s", p.name, p.address,
                 static_cast<double>(options_.resume_window_us - p.away_before_us) / 1e6);
    return;
  }
  forget(id, now_us);
}

void Lobby::forget(PlayerId id, TimeUs now_us) {
  const auto it = players_.find(id);
  if (it == players_.end()) return;
  if (Room* room = room_of(it->second)) {
    const RoomId room_id = room->id();
    room->leave(it->second, protocol::RoomLeftReason::kLeft, "disconnected", now_us);
    close_if_empty(room_id, now_us);
  }
  if (it->second.welcomed) spdlog::info("{} ({}) left", it->second.name, it->second.address);
  addresses_.release(it->second.host, !it->second.welcomed, now_us);
  uncount_welcomed(it->second);
  away_.erase(id);
  players_.erase(it);
}

Room* Lobby::room_of(const Player& player) {
  const auto it = rooms_.find(player.room);
  return it == rooms_.end() ? nullptr : it->second.get();
}

void Lobby::close_if_empty(RoomId id, TimeUs now_us) {
  const auto it = rooms_.find(id);
  if (it == rooms_.end() || !it->second->empty()) return;
  // A race with nobody left still has to be written: abort_race is a no-op when there is none.
  it->second->abort_race(now_us);
  spdlog::info("room {} closed", id);
  rooms_.erase(it);
  room_creators_.erase(id);
}

void Lobby::handle(PlayerId id, const protocol::Message& message, TimeUs now_us) {
  const auto it = players_.find(id);
  if (it == players_.end()) return;
  Player& player = it->second;
  handling_us_ = now_us;
  const MessageId kind = protocol::message_id(message);
  if (kind != MessageId::kPing && kind != MessageId::kPong) player.active_us = now_us;
  if (!player.messages.allow(now_us)) {
    return drop(id, protocol::DisconnectReason::kRateLimited, "too many messages");
  }
  if (!player.welcomed) {
    if (const auto* hello = std::get_if<protocol::Hello>(&message)) return on_hello(player, *hello);
    if (const auto* resume = std::get_if<protocol::Resume>(&message)) return on_resume(player, *resume, now_us);
    room_services_.outbox->send(id,
                                protocol::Reject{protocol::RejectReason::kBadHello, protocol::kProtocolVersion,
                                                 "the first message must be Hello"},
                                protocol::kChannelControl);
    return drop(id, protocol::DisconnectReason::kRejected, "first message was not Hello");
  }

  switch (kind) {
    case MessageId::kHello: return drop(id, protocol::DisconnectReason::kProtocolError, "Hello sent twice");
    case MessageId::kResume: return drop(id, protocol::DisconnectReason::kProtocolError, "Resume after Hello");
    case MessageId::kPing: {
      const auto& ping = std::get<protocol::Ping>(message);
      room_services_.outbox->send(id, protocol::Pong{ping.sent_us, static_cast<std::uint64_t>(now_us)},
                                  protocol::kChannelControl);
      return;
    }
    case MessageId::kPong: return;
    case MessageId::kListRooms: {
      std::string why;
      if (!allow_request(player, now_us, why)) return notice(id, NoticeCode::kRateLimited, kind, why);
      return on_list_rooms(player, std::get<protocol::ListRooms>(message));
    }
    case MessageId::kCreateRoom: return on_create_room(player, std::get<protocol::CreateRoom>(message), now_us);
    case MessageId::kJoinRoom: return on_join_room(player, std::get<protocol::JoinRoom>(message), now_us);
    case MessageId::kLeaveRoom: {
      Room* room = room_of(player);
      if (room == nullptr) return notice(id, NoticeCode::kNotInRoom, kind, "you are not in a room");
      const RoomId room_id = room->id();
      room->leave(player, protocol::RoomLeftReason::kLeft, "", now_us);
      return close_if_empty(room_id, now_us);
    }
    case MessageId::kSendChat: return on_chat(player, std::get<protocol::SendChat>(message), now_us);
    case MessageId::kKickPlayer: return on_kick(player, std::get<protocol::KickPlayer>(message), now_us);
    case MessageId::kListGames: {
      std::string why;
      if (!allow_request(player, now_us, why)) return notice(id, NoticeCode::kRateLimited, kind, why);
      if (replays_ != nullptr)
        replays_->list(id, player.name, std::get<protocol::ListGames>(message), *room_services_.outbox);
      return;
    }
    case MessageId::kDownloadReplay: return on_download(player, std::get<protocol::DownloadReplay>(message), now_us);
    case MessageId::kLadderEnter: return on_ladder_enter(player, std::get<protocol::LadderEnter>(message), now_us);
    case MessageId::kListLadder: return on_list_ladder(player, now_us);
    case MessageId::kSetHandling:
      player.handling = std::get<protocol::SetHandling>(message).handling;
      return;  // the player is its only home: a room reads it when its next race starts
    default: break;
  }
  // Everything else is a room request.
  Room* room = room_of(player);
  if (room == nullptr) {
    if (kind == MessageId::kRaceInputCopy) return;  // unreliable: may trail the player's leaving
    if (kind == MessageId::kRunSigned) {  // too late for any race (PROTOCOL.md "Run signatures"): ignored, counted
      ++counters_.run_signatures_refused;
      spdlog::debug("{}: run signature ignored: they are in no room", player.name);
      return;
    }
    if (kind == MessageId::kRaceInput || kind == MessageId::kStateHashReport) {
      const std::uint32_t race_id = kind == MessageId::kRaceInput
                                        ? std::get<protocol::RaceInput>(message).race_id
                                        : std::get<protocol::StateHashReport>(message).race_id;
      if (race_id != 0 && race_id == player.left_race) return;  // sent before they left; harmless
      return drop(id, protocol::DisconnectReason::kProtocolError, "race messages from a player in no room");
    }
    return notice(id, NoticeCode::kNotInRoom, kind, "join a room first");
  }
  const RequestResult result = room->handle(player, message, now_us);
  if (result.ok()) return;
  const RequestRefusal& refusal = result.error();
  if (refusal.kind == RequestRefusal::Kind::kDropped) {
    return drop(id, protocol::DisconnectReason::kProtocolError, refusal.reason);
  }
  notice(id, refusal.code, kind, "");
}

void Lobby::on_hello(Player& player, const protocol::Hello& hello) {
  auto reject = [&](protocol::RejectReason reason, const std::string& text) {
    room_services_.outbox->send(player.id, protocol::Reject{reason, protocol::kProtocolVersion, text},
                                protocol::kChannelControl);
    drop(player.id, protocol::DisconnectReason::kRejected, text);
  };
  if (!net::verify_signature(hello.key, protocol::key_proof_message(player.challenge), hello.signature)) {
    // A forged or replayed Hello (another connection's challenge), or a public key without its secret half.
    spdlog::info("{}: refused Hello as {}: the key's signature does not verify", player.address, hello.name);
    return reject(protocol::RejectReason::kBadHello,
                  "the key's signature of this connection's challenge does not verify");
  }
  // (The players per address were counted when the connection came: Lobby::connect.)
  const bool name_taken = welcomed_names_.contains(lower_name(hello.name));
  const NameBook::Check held = names_.check(hello.name, hello.key);
  if (name_taken || held == NameBook::Check::kOther) {
    // A name another key holds is not offered either.
    const std::string free = free_name_like(hello.name, [&](const std::string& candidate) {
      return welcomed_names_.contains(lower_name(candidate)) ||
             names_.check(candidate, hello.key) == NameBook::Check::kOther;
    });
    std::string text = name_taken ? "the name '" + hello.name + "' is taken on this server"
                                  : "the name '" + hello.name + "' belongs to another player's key on this server";
    if (!free.empty()) text += "; '" + free + "' is free";
    return reject(protocol::RejectReason::kNameTaken, text);
  }
  if (held == NameBook::Check::kFull) {
    return reject(protocol::RejectReason::kNameInvalid,
                  "this server holds as many names as it can: use a name you have used here before");
  }
  if (welcomed_count_ >= options_.max_players && !make_room_for(player.host)) {
    addresses_.count(Limit::kPlayersFull);
    return reject(protocol::RejectReason::kServerFull, "the server is full");
  }
  player.name = hello.name;
  player.key = hello.key;
  player.welcomed = true;
  count_welcomed(player);
  addresses_.welcome(player.host);
  if (held == NameBook::Check::kFree) {
    const auto unix_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    if (auto bound = names_.bind(hello.name, hello.key, unix_ms); !bound) {
      spdlog::error("the name {} could not be kept on the disk: {}", hello.name, bound.error());
    }
  }
  spdlog::info("{} joined from {} ({})", player.name, player.address, hello.client_version);
  room_services_.outbox->send(
      player.id, protocol::Welcome{player.id, options_.server_name, options_.motd, options_.web_port, options_.web_url},
      protocol::kChannelControl);
}

void Lobby::count_welcomed(const Player& player) {
  ++welcomed_count_;
  ++welcomed_names_[lower_name(player.name)];
}

void Lobby::uncount_welcomed(const Player& player) {
  if (!player.welcomed) return;
  --welcomed_count_;
  if (const auto it = welcomed_names_.find(lower_name(player.name)); it != welcomed_names_.end() && --it->second == 0) {
    welcomed_names_.erase(it);
  }
}

bool Lobby::make_room_for(const std::string& host) {
  std::unordered_map<std::string_view, std::size_t> places;  // welcomed players per address
  std::size_t most_anywhere = 0;
  for (const auto& [id, p] : players_) {
    if (p.welcomed && !p.away_since_us) most_anywhere = std::max(most_anywhere, ++places[p.host]);
  }
  const auto found = places.find(host);
  const std::size_t mine = found != places.end() ? found->second : 0;
  const Player* leaving = nullptr;
  std::size_t most = mine + 1;              // an address must hold at least two more places than the newcomer's
  if (most_anywhere <= most) return false;  // none does (as from every address of a flood of newcomers)
  for (const auto& [id, p] : players_) {
    if (!p.welcomed || p.away_since_us || p.room != 0 || addresses_.trusted(p.host)) continue;
    const std::size_t held = places.at(p.host);
    if (held > most || (held == most && leaving != nullptr && p.active_us < leaving->active_us)) {
      if (held > most) most = held;
      leaving = &p;
    }
  }
  if (leaving == nullptr) return false;
  const std::string text = fmt::format(
      "the server is full: your place in the lobby went to a player from an address with fewer players ({} are "
      "connected from yours)",
      most);
  count_refusal(leaving->host, Limit::kFairShare, text, handling_us_);
  drop(leaving->id, protocol::DisconnectReason::kIdle, text);
  forget(leaving->id, handling_us_);
  return true;
}

void Lobby::on_resume(Player& player, const protocol::Resume& resume, TimeUs now_us) {
  const PlayerId from = player.id;
  if (!net::verify_signature(resume.key, protocol::key_proof_message(player.challenge), resume.signature)) {
    const std::string text = "the key's signature of this connection's challenge does not verify";
    room_services_.outbox->send(
        from, protocol::Reject{protocol::RejectReason::kCannotResume, protocol::kProtocolVersion, text},
        protocol::kChannelControl);
    spdlog::info("{}: refused a resume of race {}: {}", player.address, resume.race_id, text);
    return drop(from, protocol::DisconnectReason::kRejected, text);
  }
  PlayerId keep = 0;
  Room* room = nullptr;
  for (auto& [room_id, r] : rooms_) {
    if (const auto holder = r->seat_holder(resume.race_id, resume.token_hi, resume.token_lo)) {
      keep = *holder;
      room = r.get();
      break;
    }
  }
  const auto kept = players_.find(keep);
  if (room == nullptr || kept == players_.end() || kept->second.key != resume.key) {
    // A seat's token with another key than the racer's is as good as an unknown seat: nothing says which is wrong.
    const std::string text = "no race to resume: it is over, or the seat is unknown";
    room_services_.outbox->send(
        from, protocol::Reject{protocol::RejectReason::kCannotResume, protocol::kProtocolVersion, text},
        protocol::kChannelControl);
    spdlog::info("{}: refused a resume of race {}", player.address, resume.race_id);
    return drop(from, protocol::DisconnectReason::kRejected, text);
  }
  // The seat's player takes the new connection; the provisional player of that connection is no more. An old
  // connection still open (it has not timed out yet, or the address changed) is closed.
  Player& racer = kept->second;
  if (!racer.away_since_us && player.host != racer.host) {
    // The seat's connection is alive as far as we know, and this one comes from elsewhere: a seen token is no way to
    // take a race from under its player. This connection is closed without a word: a client that moved (Wi-Fi to
    // mobile data) takes it for a failed attempt and tries again in 2 s, and once the old connection has been silent
    // for the peer timeout (5 s) the seat is away and may be resumed from anywhere.
    spdlog::warn("{}: refused a resume of race {}: {}'s connection from {} is still open", player.address,
                 resume.race_id, racer.name, racer.address);
    return room_services_.outbox->close_quietly(from);
  }
  if (!racer.away_since_us) {
    // The client (same address) noticed the drop before we did: the old connection is as good as gone, and should it
    // still be there, whoever holds it is told why it closes.
    room_services_.outbox->send(
        keep,
        protocol::Disconnecting{protocol::DisconnectReason::kOther,
                                ("your race was resumed over another connection from " + player.address)
                                    .substr(0, protocol::kMaxReasonBytes)},
        protocol::kChannelControl);
    (void)room->suspend_racer(keep);
  }
  const std::string address = player.address;
  const std::string host = player.host;
  addresses_.release(host, /*was_pending=*/true, now_us);
  uncount_welcomed(player);  // (a connection that resumes has said no Hello)
  players_.erase(from);      // `player` is gone from here on
  addresses_.move(racer.host, host, now_us);
  room_services_.outbox->rebind(keep, from);
  if (racer.away_since_us) racer.away_before_us += now_us - *racer.away_since_us;
  racer.away_since_us.reset();
  away_.erase(keep);
  spdlog::info("{} resumed race {} from {} (was {}; {})", racer.name, resume.race_id, address, racer.address,
               resume.client_version);
  racer.address = address;
  racer.host = host;
  racer.trusted = addresses_.trusted(host);
  room_services_.outbox->send(
      keep, protocol::Welcome{keep, options_.server_name, options_.motd, options_.web_port, options_.web_url},
      protocol::kChannelControl);
  room->resume_racer(racer, resume, now_us);
}

std::vector<protocol::RoomInfo> Lobby::public_rooms() const {
  std::vector<protocol::RoomInfo> out;
  for (const auto& [room_id, room] : rooms_) {
    if (!room->is_private()) out.push_back(room->info());
  }
  return out;
}

void Lobby::on_list_rooms(Player& player, const protocol::ListRooms& m) {
  protocol::RoomList list;
  std::uint32_t index = 0;
  for (const auto& [room_id, room] : rooms_) {
    if (room->is_private()) continue;
    if (index >= m.start && list.rooms.size() < protocol::kMaxRoomsListed) list.rooms.push_back(room->summary());
    ++index;
  }
  list.total = index;
  list.start = std::min(m.start, index);
  room_services_.outbox->send(player.id, list, protocol::kChannelControl);
}

std::string Lobby::new_room_code() {
  for (;;) {
    std::string code;
    for (std::size_t i = 0; i < protocol::kRoomCodeLength; ++i) {
      code.push_back(
          protocol::kRoomCodeAlphabet[random_.below(static_cast<std::uint32_t>(protocol::kRoomCodeAlphabet.size()))]);
    }
    const bool used =
        std::any_of(rooms_.begin(), rooms_.end(), [&](const auto& r) { return r.second->code() == code; });
    if (!used) return code;
  }
}

bool Lobby::may_create_room(Player& player, MessageId about, TimeUs now_us) {
  if (player.room != 0) {
    notice(player.id, NoticeCode::kAlreadyInRoom, about, "leave your room first");
    return false;
  }
  if (rooms_.size() >= options_.max_rooms) {
    addresses_.count(Limit::kServerRooms);
    notice(player.id, NoticeCode::kTooManyRooms, about, "the server has no room for more rooms");
    return false;
  }
  const std::size_t mine = static_cast<std::size_t>(std::count_if(
      room_creators_.begin(), room_creators_.end(), [&](const auto& r) { return r.second == player.host; }));
  if (mine >= addresses_.limits().max_rooms && !player.trusted) {
    const std::string text =
        fmt::format("the server allows at most {} open rooms made from one address", addresses_.limits().max_rooms);
    count_refusal(player.host, Limit::kRooms, text, now_us);
    notice(player.id, NoticeCode::kTooManyRooms, about, text);
    return false;
  }
  if (const auto text = player.trusted ? std::nullopt : scarce_room_refusal(player.host)) {
    count_refusal(player.host, Limit::kRoomShare, *text, now_us);
    notice(player.id, NoticeCode::kTooManyRooms, about, *text);
    return false;
  }
  if (!addresses_.allow_join(player.host, now_us)) {
    const std::string text = "too many rooms joined or made from your address: wait a moment";
    count_refusal(player.host, Limit::kJoinRate, text, now_us);
    notice(player.id, NoticeCode::kRateLimited, about, text);
    return false;
  }
  return true;
}

std::optional<std::string> Lobby::scarce_room_refusal(const std::string& host) const {
  // The last quarter of the rooms is kept for addresses holding a few: with 200 rooms, 25 addresses opening 8 each
  // (within their own limit) took every room, and nobody else could race. Measured (tests/abuse, rooms-many), a share
  // relative to the others (the average held) did not hold: addresses that came first held 8 each, and the average
  // let the later ones take the rest. A share alone did not hold either: 50 addresses x 4 rooms stay under 5 each and
  // take all 200. What holds is that, while rooms are scarce, an address whose room is waiting opens no other: past
  // the first 150 rooms an attacking address can add one room at most (when it held none), so 50 addresses leave at
  // least 18 rooms to others; and a room that races is in use, not held.
  const std::size_t free_rooms = options_.max_rooms - std::min(options_.max_rooms, rooms_.size());
  if (free_rooms >= options_.max_rooms / 4) return std::nullopt;
  std::size_t holds = 0;
  bool waiting = false;
  for (const auto& [id, creator] : room_creators_) {
    if (creator != host) continue;
    ++holds;
    const auto room = rooms_.find(id);
    if (room != rooms_.end() && room->second->phase() == protocol::RoomPhase::kWaiting) waiting = true;
  }
  if (holds >= kScarceRoomShare) {
    return fmt::format(
        "the server's rooms are nearly all taken and your address holds its share ({} open rooms): players from "
        "addresses with fewer rooms come first until some close",
        holds);
  }
  if (waiting) {
    return std::string(
        "the server's rooms are nearly all taken and a room made from your address is waiting for a race: join it "
        "(or race in it) before opening another");
  }
  return std::nullopt;
}

void Lobby::on_create_room(Player& player, const protocol::CreateRoom& m, TimeUs now_us) {
  if (!may_create_room(player, MessageId::kCreateRoom, now_us)) return;
  const RoomId id = next_room_id_++;
  std::string code = m.settings.is_private ? new_room_code() : std::string();
  auto room = std::make_unique<Room>(id, m.settings, std::move(code), room_services_, counters_);
  Room& ref = *room;
  rooms_.emplace(id, std::move(room));
  room_creators_.emplace(id, player.host);
  spdlog::info("{} created room {} '{}' ({})", player.name, id, m.settings.name,
               engine::mode_name(m.settings.config.mode));
  if (const auto refused = ref.join(player, m.role, now_us)) {
    notice(player.id, *refused, MessageId::kCreateRoom, "");
    close_if_empty(id, now_us);
  }
}

void Lobby::on_join_room(Player& player, const protocol::JoinRoom& m, TimeUs now_us) {
  if (player.room != 0)
    return notice(player.id, NoticeCode::kAlreadyInRoom, MessageId::kJoinRoom, "leave your room first");
  Room* room = nullptr;
  if (!m.code.empty()) {
    for (auto& [id, r] : rooms_) {
      if (r->is_private() && r->code() == m.code) room = r.get();
    }
    if (room == nullptr)
      return notice(player.id, NoticeCode::kWrongCode, MessageId::kJoinRoom, "no private room has that code");
  } else {
    const auto it = rooms_.find(m.room_id);
    // A private room is joined only by its code, never by its id.
    if (it == rooms_.end() || it->second->is_private()) {
      return notice(player.id, NoticeCode::kRoomNotFound, MessageId::kJoinRoom, "no such room");
    }
    room = it->second.get();
  }
  // Each join sends the room's member list to every member, and a race's catch-up to the joiner.
  if (!addresses_.allow_join(player.host, now_us)) {
    const std::string text = "too many rooms joined or made from your address: wait a moment";
    count_refusal(player.host, Limit::kJoinRate, text, now_us);
    return notice(player.id, NoticeCode::kRateLimited, MessageId::kJoinRoom, text);
  }
  if (const auto refused = room->join(player, m.role, now_us)) {
    return notice(player.id, *refused, MessageId::kJoinRoom, "");
  }
  if (!catch_ups_.waiting(player.id)) return;
  serve_catch_ups(now_us);
  if (!catch_ups_.waiting(player.id)) return;
  // Not refused: the catch-up follows as soon as the server's budget allows (tick). Counted, not logged.
  addresses_.count(Limit::kCatchUpQueued);
  room_services_.outbox->send(player.id,
                              protocol::Notice{NoticeCode::kInfo, MessageId::kJoinRoom,
                                               "many spectators are joining races: this race follows in a moment"},
                              protocol::kChannelControl);
}

void Lobby::serve_catch_ups(TimeUs now_us) {
  catch_ups_.serve(now_us, [&](const CatchUpQueue::Request& r) -> std::optional<std::size_t> {
    const auto it = rooms_.find(r.room);
    if (it == rooms_.end()) return std::nullopt;
    return it->second->send_catch_up(r.player, r.race_id, now_us);
  });
}

void Lobby::on_chat(Player& player, const protocol::SendChat& m, TimeUs now_us) {
  if (!player.chat.allow(now_us)) {
    return notice(player.id, NoticeCode::kRateLimited, MessageId::kSendChat, "you are chatting too fast");
  }
  if (Room* room = room_of(player)) {
    return room->broadcast(protocol::Chat{protocol::ChatScope::kRoom, player.id, player.name, m.text},
                           protocol::kChannelControl);
  }
  const protocol::Chat chat{protocol::ChatScope::kLobby, player.id, player.name, m.text};
  for (const auto& [id, other] : players_) {
    if (other.welcomed && other.room == 0) room_services_.outbox->send(id, chat, protocol::kChannelControl);
  }
}

void Lobby::on_kick(Player& player, const protocol::KickPlayer& m, TimeUs now_us) {
  Room* room = room_of(player);
  if (room == nullptr)
    return notice(player.id, NoticeCode::kNotInRoom, MessageId::kKickPlayer, "you are not in a room");
  if (room->host() != player.id)
    return notice(player.id, NoticeCode::kNotHost, MessageId::kKickPlayer, "only the host can kick");
  const auto target = players_.find(m.player_id);
  if (target == players_.end() || m.player_id == player.id || !room->has_member(m.player_id)) {
    return notice(player.id, NoticeCode::kInvalidRequest, MessageId::kKickPlayer, "that player is not in your room");
  }
  room->leave(target->second, protocol::RoomLeftReason::kKicked, "kicked by " + player.name, now_us);
}

bool Lobby::allow_request(const Player& player, TimeUs now_us, std::string& why) {
  if (!addresses_.allow_request(player.host, now_us)) {
    why = fmt::format("too many requests from your address (at most {} a second): try again in a moment",
                      addresses_.limits().requests_per_second);
    count_refusal(player.host, Limit::kRequestRate, why, now_us);
    return false;
  }
  if (addresses_.within_share(player.host, now_us)) {
    (void)requests_.allow(now_us);  // counted in the server's budget when there is any left, never refused by it
    return true;
  }
  if (!requests_.allow(now_us)) {
    why = "the server is busy: try again in a moment";
    count_refusal(player.host, Limit::kServerBusy, why, now_us);
    return false;
  }
  return true;
}

std::size_t Lobby::queued_from(const std::string& host) const {
  std::size_t bytes = 0;
  for (const auto& [id, p] : players_) {
    if (p.host == host) bytes += room_services_.outbox->queued_bytes(id);
  }
  return bytes;
}

void Lobby::on_download(Player& player, const protocol::DownloadReplay& m, TimeUs now_us) {
  auto busy = [&](const std::string& why) {
    if (!take_refusal(player.id)) return;
    room_services_.outbox->send(player.id, protocol::ReplayUnavailable{m.game_id, NoticeCode::kRateLimited, why},
                                protocol::kChannelBulk);
  };
  std::string why;
  if (!allow_request(player, now_us, why)) return busy(why);
  // Replay bytes wait in the connection's queue until the player reads them: a player who asks faster than they
  // read would grow the server without end. One download at a time per player, and a budget per address.
  if (room_services_.outbox->queued_bytes(player.id) >= kMaxQueuedBeforeDownload) {
    why = "your last download is still being sent: ask again when it has arrived";
    count_refusal(player.host, Limit::kDownloadQueue, why, now_us);
    return busy(why);
  }
  if (!addresses_.may_download(player.host, now_us)) {
    why = fmt::format("your address has downloaded more than {} KiB a second: ask again in a moment",
                      addresses_.limits().download_bytes_per_second / 1024);
    count_refusal(player.host, Limit::kDownloadRate, why, now_us);
    return busy(why);
  }
  const std::size_t queued = queued_from(player.host);
  const std::size_t budget = addresses_.limits().max_queued_download_bytes;
  if (queued >= budget) {
    why = "downloads to your address are still being sent: ask again when they have arrived";
    count_refusal(player.host, Limit::kDownloadQueue, why, now_us);
    return busy(why);
  }
  if (replays_ == nullptr) return;
  if (replays_->asynchronous()) {
    // From a database, on the service's worker: the budget is applied when the bytes are back (on_replay_answers).
    replays_->request_download(player.id, m, *room_services_.outbox);
    return;
  }
  // With nothing queued for the address, any replay may go (a long race's replay can be larger than the budget).
  const std::size_t max_bytes = queued == 0 ? protocol::kMaxReplayBytes : budget - queued;
  const auto sent = replays_->download(player.id, m, *room_services_.outbox, max_bytes);
  if (!sent) {
    count_refusal(player.host, Limit::kDownloadQueue, "download larger than the address's budget left", now_us);
    return;
  }
  addresses_.charge_download(player.host, *sent, now_us);
}

void Lobby::on_replay_answers(std::vector<ReplayService::Finished> answers, TimeUs now_us) {
  for (const ReplayService::Finished& done : answers) {
    const auto it = players_.find(done.to);
    if (it == players_.end()) continue;  // gone while the database answered
    Player& player = it->second;
    if (done.list) {
      room_services_.outbox->send(player.id, *done.list, protocol::kChannelControl);
      continue;
    }
    const std::size_t queued = queued_from(player.host);
    const std::size_t budget = addresses_.limits().max_queued_download_bytes;
    const std::size_t max_bytes = queued == 0 ? protocol::kMaxReplayBytes : (queued >= budget ? 0 : budget - queued);
    const auto sent = ReplayService::send_download(done, *room_services_.outbox, max_bytes);
    if (!sent) {
      count_refusal(player.host, Limit::kDownloadQueue, "download larger than the address's budget left", now_us);
      continue;
    }
    addresses_.charge_download(player.host, *sent, now_us);
  }
}

void Lobby::close_room(RoomId id, const std::string& why, TimeUs now_us) {
  const auto it = rooms_.find(id);
  if (it == rooms_.end()) return;
  for (PlayerId member : it->second->member_ids()) {
    const auto p = players_.find(member);
    if (p != players_.end()) it->second->leave(p->second, protocol::RoomLeftReason::kRoomClosed, why, now_us);
  }
  close_if_empty(id, now_us);
}

void Lobby::housekeeping(TimeUs now_us) {
  // Connections that never said Hello: each holds a connection slot and a place in its address's pending count.
  const TimeUs hello_timeout = addresses_.limits().hello_timeout_us;
  for (const auto& [id, p] : players_) {
    if (p.welcomed || p.away_since_us || now_us - p.connected_us <= hello_timeout) continue;
    const std::string text = fmt::format("no Hello within {} s of connecting", hello_timeout / 1'000'000);
    count_refusal(p.host, Limit::kHelloTimeout, text, now_us);
    room_services_.outbox->send(id,
                                protocol::Reject{protocol::RejectReason::kBadHello, protocol::kProtocolVersion, text},
                                protocol::kChannelControl);
    room_services_.outbox->drop(id, protocol::DisconnectReason::kIdle, text);
  }
  // Players idle in the lobby: each holds one of max_players.
  if (options_.lobby_idle_us > 0) {
    for (const auto& [id, p] : players_) {
      if (!p.welcomed || p.away_since_us || p.room != 0 || now_us - p.active_us <= options_.lobby_idle_us) continue;
      const std::string text = fmt::format("dropped after {} minutes idle in the lobby: connect again to play",
                                           options_.lobby_idle_us / 60'000'000);
      count_refusal(p.host, Limit::kIdleLobby, text, now_us);
      room_services_.outbox->drop(id, protocol::DisconnectReason::kIdle, text);
    }
  }
  // Rooms nobody races in: a room is a name and a place in max_rooms that others may want.
  std::vector<RoomId> idle;
  for (const auto& [id, room] : rooms_) {
    if (room->phase() == protocol::RoomPhase::kWaiting && now_us - room->idle_since_us() > options_.room_idle_us) {
      idle.push_back(id);
    }
  }
  for (RoomId id : idle) {
    addresses_.count(Limit::kIdleRoom);
    spdlog::info("room {} closed: no race for {} minutes", id, options_.room_idle_us / 60'000'000);
    close_room(id, fmt::format("the room was closed: no race for {} minutes", options_.room_idle_us / 60'000'000),
               now_us);
  }
  if (now_us >= next_queue_check_us_) {
    next_queue_check_us_ = now_us + 1'000'000;
    for (const auto& [id, p] : players_) {
      if (p.away_since_us || room_services_.outbox->queued_bytes(id) <= kMaxQueuedBytes) continue;
      const std::string text =
          fmt::format("you are not reading what the server sends (over {} MiB waiting for you)", kMaxQueuedBytes >> 20);
      count_refusal(p.host, Limit::kSendQueue, text, now_us);
      room_services_.outbox->drop(id, protocol::DisconnectReason::kRateLimited, text);
    }
  }
  if (now_us >= next_purge_us_) {
    next_purge_us_ = now_us + 10'000'000;
    addresses_.purge(now_us);
    catch_ups_.purge(now_us);
  }
}

void Lobby::tick(TimeUs now_us) {
  for (auto& [id, room] : rooms_) room->tick(now_us);
  if (catch_ups_.size() > 0) serve_catch_ups(now_us);
  if (now_us >= next_housekeeping_us_) {
    next_housekeeping_us_ = now_us + kHousekeepingEveryUs;
    housekeeping(now_us);
  }
  // Seats kept for a Resume: given up after the window, or once the racer's race no longer waits for them. (Only
  // the players away are looked at: this runs on every pass of the server's loop.)
  if (away_.empty()) return;
  std::vector<PlayerId> give_up;
  for (const PlayerId id : away_) {
    const auto it = players_.find(id);
    if (it == players_.end()) continue;
    const Player& p = it->second;
    const Room* room = room_of(p);
    if (now_us - *p.away_since_us + p.away_before_us > options_.resume_window_us || room == nullptr ||
        !room->seat_kept(id)) {
      give_up.push_back(id);
    }
  }
  for (PlayerId id : give_up) {
    spdlog::info("player {} did not resume in time; their race goes on without them", id);
    forget(id, now_us);
  }
}

void Lobby::on_replay_written(const ReplayWriter::Done& done) {
  if (ladder_ != nullptr) {
    ladder_->replay_written(done.room_id, done.race_id,
                            done.game_id ? std::optional<std::uint64_t>(game_id_number(*done.game_id)) : std::nullopt);
  }
  const auto it = rooms_.find(done.room_id);
  if (it != rooms_.end()) it->second->on_replay_written(done);
}

void Lobby::abort_races(TimeUs now_us) {
  for (auto& [id, room] : rooms_) room->abort_race(now_us);
}

void Lobby::shut_down(TimeUs now_us) {
  abort_races(now_us);
  for (const auto& [id, player] : players_) {
    room_services_.outbox->drop(id, protocol::DisconnectReason::kServerShutdown, options_.shutdown_text);
  }
}

}  // namespace sr::server
