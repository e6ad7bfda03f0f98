// The lobby: connected players, their names, the rooms, chat, and the dispatch of every decoded message to the
// lobby itself, a room, or the replay service. Reads no clock and knows no sockets (Outbox, now_us).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "common/engine/random.h"
#include "common/protocol/messages.h"
#include "server/address_book.h"
#include "server/ladder.h"
#include "server/name_book.h"
#include "server/outbox.h"
#include "server/player.h"
#include "server/replay_service.h"
#include "server/room.h"

namespace sr::server {

struct LobbyOptions {
  std::string server_name = "stackrace";
  std::string motd;
  // The web pages, as Welcome tells every player (PROTOCOL.md, "Web pages"): the port they are served on (0: none)
  // and the operator's public address of them (empty: http://HOST:web_port/ with the host the player connected to).
  std::uint16_t web_port = 0;
  std::string web_url;
  std::size_t max_players = 1000;
  std::size_t max_rooms = 200;
  // Most players connected from one IP address (a household behind one router; one script cannot fill the server).
  // It is `address.max_connections`; the other limits per address are there.
  std::size_t max_per_address = 64;
  AddressLimits address;
  // A room with no race started or ended and nobody joining for this long is closed (its members are told why).
  TimeUs room_idle_us = 15 * 60'000'000LL;
  // A player in the lobby (no room, no race) who sends nothing but pings for this long is dropped with a message:
  // idle connections would hold places others want (0: never).
  TimeUs lobby_idle_us = 10 * 60'000'000LL;
  // Replay lists, downloads and room lists from everybody together, per second (burst: twice that).
  std::int64_t requests_per_second = 200;
  // Race catch-ups from all rooms together (server/catch_up_queue.h).
  CatchUpLimits catch_up;
  // How long a racer whose connection dropped mid-race keeps their seat for a Resume: for all drops of one race
  // together. A race with such a racer ends only when they are back and done, or this has run out.
  TimeUs resume_window_us = 60'000'000;
  // What every player is told when the server stops (Disconnecting, kServerShutdown): a server hosted in the game
  // says that its host closed the game.
  std::string shutdown_text = "the server is shutting down";
};

// A name like `name` that `taken` says is free, for a newcomer refused `name` because another player has it: its
// trailing number counted on (ada -> ada2, ada3, ...; player7 -> player8, ...), the rest cut to keep within
// protocol::kMaxPlayerNameBytes. Empty when none of the next kFreeNameTries is free: a refused Hello costs at most that
// many lookups, whatever names a flood of them chose (idle0, idle1, ... walked a thousand each). `taken` compares as
// the server does (ignoring case).
inline constexpr int kFreeNameTries = 100;
[[nodiscard]] std::string free_name_like(const std::string& name, const std::function<bool(const std::string&)>& taken);

class Lobby {
 public:
  Lobby(LobbyOptions options, RoomServices room_services, ReplayService* replays, std::uint64_t seed);

  // A new connection that sent `version` in its connect data. False if it was refused (and told why): another
  // protocol version, or too many connections from its address.
  bool connect(PlayerId id, std::uint32_t version, const std::string& address, TimeUs now_us);
  // Connection attempts from `host` dropped unanswered before they became connections (NetHost's connect gate):
  // counted under Limit::kConnectRate and logged like every refusal.
  void count_refused_connects(const std::string& host, std::uint64_t attempts, TimeUs now_us);
  // `bytes` of a message arrived from the player (before it is decoded). False if their address has sent more than
  // it may: the player is dropped.
  bool receive_bytes(PlayerId id, std::size_t bytes, TimeUs now_us);
  // A player whose connection has more than this queued (not yet sent or not yet acknowledged) is not reading what
  // the server sends, and is dropped before the queue costs the server its memory.
  static constexpr std::size_t kMaxQueuedBytes = 16u << 20;
  // Download of a replay starts only when the player has less than this queued (their last download is sent).
  static constexpr std::size_t kMaxQueuedBeforeDownload = 64u << 10;
  // The connection is gone: leaves its room, frees its name. With `may_resume` (the connection dropped rather than
  // being closed by the player or the server) a racer in a running race keeps their seat and name for
  // LobbyOptions::resume_window_us instead, still racing, until a Resume takes it back.
  void disconnect(PlayerId id, TimeUs now_us, bool may_resume = false);
  // One decoded message from a player, on its own channel and one a client may send (the Server checked its route,
  // protocol::check_route). Messages that make no sense in the player's state get the player dropped with a reason;
  // refused requests get a Notice.
  void handle(PlayerId id, const protocol::Message& message, TimeUs now_us);
  // Time-driven work of every room.
  void tick(TimeUs now_us);
  void on_replay_written(const ReplayWriter::Done& done);
  // The replay service's answers from a database (ReplayService::collect()): each sent to its player if they are
  // still here, a download within their address's budget (as on_download does for a folder store) and charged.
  void on_replay_answers(std::vector<ReplayService::Finished> answers, TimeUs now_us);
  // The ladder's answers from a database (Ladder::collect()): each admitted game starts in a room of its own if its
  // player is still here (else it is given back), each refusal is told.
  void on_ladder_answers(std::vector<LadderEntered> answers, TimeUs now_us);
  // Server shutdown, first step: ends every race as aborted (their results go out once their replays are written).
  void abort_races(TimeUs now_us);
  // Server shutdown: ends every race as aborted (writing replays) and tells every player.
  void shut_down(TimeUs now_us);

  // The contest ladder to run (not owned; must outlive the lobby), or null: LadderEnter is then refused.
  void set_ladder(Ladder* ladder) { ladder_ = ladder; }
  // Who holds each name (PROTOCOL.md "Player keys"); in memory until the server opens its file.
  [[nodiscard]] NameBook& names() { return names_; }

  [[nodiscard]] std::size_t player_count() const { return players_.size(); }
  [[nodiscard]] std::size_t room_count() const { return rooms_.size(); }
  [[nodiscard]] std::size_t rooms_in(protocol::RoomPhase phase) const;
  [[nodiscard]] const RoomCounters& counters() const { return counters_; }
  [[nodiscard]] const AddressBook& addresses() const { return addresses_; }
  [[nodiscard]] const CatchUpQueue& catch_ups() const { return catch_ups_; }
  // Web pages (server/web): the public rooms as their members see them, by id (codes left out).
  [[nodiscard]] std::vector<protocol::RoomInfo> public_rooms() const;

 private:
  // Answers a request with why it was refused (or, for kInfo, with news). Each refusal counts against the player's
  // Player::refusals; past it the player is dropped instead (Limit::kRefusals), as of the message being handled.
  void notice(PlayerId to, protocol::NoticeCode code, protocol::MessageId about, const std::string& text);
  // Counts one refusal of `id`'s request; false (and the player is being dropped) when they had none left.
  [[nodiscard]] bool take_refusal(PlayerId id);
  void drop(PlayerId id, protocol::DisconnectReason reason, const std::string& text);
  void on_hello(Player& player, const protocol::Hello& hello);
  // The server is full and `host` wants a place: a player from the address holding the most places (at least two more
  // than `host` holds) who is in the lobby, neither in a room nor in a race, gives theirs up (the longest idle goes,
  // told why). False when nobody may be asked to go: the newcomer is refused.
  [[nodiscard]] bool make_room_for(const std::string& host);
  void on_resume(Player& player, const protocol::Resume& resume, TimeUs now_us);
  // The racer's seat is given up: as disconnect() without may_resume.
  void forget(PlayerId id, TimeUs now_us);
  void on_create_room(Player& player, const protocol::CreateRoom& m, TimeUs now_us);
  void on_join_room(Player& player, const protocol::JoinRoom& m, TimeUs now_us);
  // Whether the player may make a room now (the server's and their address's room limits, the address's share when
  // rooms are scarce, the join rate); if not, they are told why in a Notice about `about`.
  [[nodiscard]] bool may_create_room(Player& player, protocol::MessageId about, TimeUs now_us);
  // While rooms are scarce (fewer than a quarter of max_rooms free), why `host` may not open another: it already holds
  // its share, kScarceRoomShare open rooms (a household's or a club's few; the limit otherwise is
  // AddressLimits::max_rooms, 8), or a room it made is waiting (no countdown, race or results: idle rooms are what
  // fills a server). nullopt: it may.
  [[nodiscard]] std::optional<std::string> scarce_room_refusal(const std::string& host) const;
  static constexpr std::size_t kScarceRoomShare = 5;
  // Sends the catch-ups the server's budget allows now (CatchUpQueue).
  void serve_catch_ups(TimeUs now_us);
  // lobby_ladder.cpp
  void on_ladder_enter(Player& player, const protocol::LadderEnter& m, TimeUs now_us);
  // The ladder game's room, made and joined by its entrant (locked, not started), or null (the player was told).
  [[nodiscard]] Room* open_ladder_room(Player& player, const std::string& entrant, bool ranked, TimeUs now_us);
  void on_list_ladder(Player& player, TimeUs now_us);
  void on_chat(Player& player, const protocol::SendChat& m, TimeUs now_us);
  void on_kick(Player& player, const protocol::KickPlayer& m, TimeUs now_us);
  void on_list_rooms(Player& player, const protocol::ListRooms& m);
  [[nodiscard]] std::string new_room_code();
  Room* room_of(const Player& player);
  void close_if_empty(RoomId id, TimeUs now_us);
  // Counts the refusal for the metrics and logs it (at most a line per address every 10 s).
  void count_refusal(const std::string& host, Limit limit, const std::string& text, TimeUs now_us,
                     std::uint64_t times = 1);
  // A request that reads the store or walks the rooms: within the address's and the server's budgets? If not, the
  // refusal is counted and `why` says it in words.
  [[nodiscard]] bool allow_request(const Player& player, TimeUs now_us, std::string& why);
  void on_download(Player& player, const protocol::DownloadReplay& m, TimeUs now_us);
  // Bytes queued for every player connected from `host`.
  [[nodiscard]] std::size_t queued_from(const std::string& host) const;
  // Periodic work (every kHousekeepingEveryUs): connections that never said Hello, idle rooms, players not
  // reading, and addresses to forget.
  void housekeeping(TimeUs now_us);
  void close_room(RoomId id, const std::string& why, TimeUs now_us);
  // welcomed_count_ and welcomed_names_ as `player` is welcomed, and as a welcomed player goes.
  void count_welcomed(const Player& player);
  void uncount_welcomed(const Player& player);
  static constexpr TimeUs kHousekeepingEveryUs = 250'000;

  LobbyOptions options_;
  RoomServices room_services_;
  ReplayService* replays_;
  Ladder* ladder_ = nullptr;
  NameBook names_;
  engine::Random random_;  // room codes
  std::map<PlayerId, Player> players_;
  // The welcomed players (away ones included): how many, and their names lower-cased with how many hold each (one,
  // but for a test that made players directly). A Hello looks its name up here instead of walking every player, so a
  // storm of Hellos on a full server costs each one a lookup (it measured 49% of the server's time under an attack of
  // 1,116 idle players, and stalled the honest races' relays by 100-300 ms under the sanitizers).
  std::size_t welcomed_count_ = 0;
  std::unordered_map<std::string, std::size_t> welcomed_names_;
  std::set<PlayerId> away_;  // players whose seat waits for a Resume (Player::away_since_us set): tick() looks at these
  std::map<RoomId, std::unique_ptr<Room>> rooms_;
  RoomId next_room_id_ = 1;
  RoomCounters counters_;
  AddressBook addresses_;
  std::map<RoomId, std::string> room_creators_;  // the address each open room was created from
  RateLimiter requests_;                         // everybody's requests together
  CatchUpQueue catch_ups_;                       // spectators waiting for a race's catch-up
  TimeUs next_housekeeping_us_ = 0;
  TimeUs next_queue_check_us_ = 0;
  TimeUs next_purge_us_ = 0;
  TimeUs handling_us_ = 0;  // the time of the message handle() is handling (refusals are counted as of it)
};

}  // namespace sr::server
