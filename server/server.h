// stackrace-server as a library: the ENet host, the lobby, the replay writer and the main loop, so the dedicated
// server (main.cpp), the game's "Host" button and the tests all run the same code.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/engine/random.h"
#include "common/result.h"
#include "server/directory_link.h"
#include "server/ladder.h"
#include "server/lan_socket.h"
#include "server/live_tap.h"
#include "server/lobby.h"
#include "server/net_host.h"
#include "server/outbox.h"
#include "server/race_seeds.h"
#include "server/records_queue.h"
#include "server/records_submitter.h"
#include "server/replay_service.h"
#include "server/replay_writer.h"

namespace sr::server {

struct ServerOptions {
  std::string bind = "0.0.0.0";
  std::uint16_t port = 7878;  // 0 = any free port (tests)
  std::filesystem::path data_dir = "stackrace-data";
  // The replay store's database (a postgresql:// URI), or empty: the store is the folder data_dir. The contest
  // ladder is kept there too (shared by the fleet, ladder_pg_store.h); the names stay in data_dir either way.
  std::string database;
  // The replay store's locator for ReplayStore::open(): the database, or data_dir.
  [[nodiscard]] std::filesystem::path replay_store() const {
    return database.empty() ? data_dir : std::filesystem::path(database);
  }
  ReplayWriter::Options writer;
  LobbyOptions lobby;
  NetLimits net;
  PaceLimits pace;
  TimeUs countdown_us = 3'000'000;
  // How often a racing room sends its relays and input acks (RoomServices::relay_every_us); 0: each at once.
  TimeUs relay_every_us = kRelayEveryUs;
  // Race seeds FIRST, FIRST + 1, ... in the order races start (server/race_seeds.h); 0: random ones.
  std::uint64_t race_seeds_from = 0;
  // The contest ladder (off unless enabled), kept in data_dir/ladder.sqlite.
  LadderOptions ladder;
  // Web pages (server/web): where the game loop hands the rooms' broadcasts and lobby snapshots. Not owned; null
  // without web pages.
  LiveTap* live = nullptr;
  // LAN discovery (common/protocol/DIRECTORY.md, "2. LAN discovery (UDP broadcast and IPv6 multicast)"): the discovery
  // port (protocol::kDiscoveryPort normally), 0 = off. Off here so that tests and tools opt in; stackrace-server
  // (--lan-port, --no-lan) and the game's Host turn it on. A port that cannot be bound is logged as a warning, not a
  // failure to start.
  std::uint16_t lan_port = 0;
  // Server queries beyond these rates are dropped (DIRECTORY.md, "Rate").
  QueryLimits queries;
  // A public server (--public --directory URL): one link per directory, through which its registration agent gets
  // hub challenges and the info JSON (directory_link.h). Not owned. Empty: challenges are ignored.
  std::vector<DirectoryLink*> directories;
  // Records (--records URL: common/protocol/RECORDS.md, "3. Submitting (server to hub)"): the hub's base URL, empty:
  // off. With one, start() reads (or makes, mode 0600) the server's key data_dir/server.key and opens the records
  // queue in data_dir (records_queue.h); each stored race in which a racer's run signature was kept is then queued
  // there by the replay writer's thread. Sending is the records agent's (records_agent.h, run by main.cpp).
  struct Records {
    std::string hub;
    RecordsQueue::Limits queue;
  } records;
  // Told of every race's replay job as the game loop hands it to the writer (RoomServices::on_replay_job), on the
  // game loop's thread. For tests and tools; may be empty.
  std::function<void(const ReplayWriter::Job& job)> on_replay_job;
};

// Counters for logs and metrics.
struct ServerStats {
  std::size_t players = 0;
  std::size_t rooms = 0;
  std::array<std::size_t, 4> rooms_by_phase{};  // rooms in each protocol::RoomPhase (index = its value)
  RoomCounters rooms_total;
  std::uint64_t protocol_errors = 0;
  std::uint64_t bytes_sent = 0;
  std::uint64_t bytes_received = 0;
  std::uint64_t datagrams_sent = 0;
  std::uint64_t datagrams_received = 0;
  std::uint64_t messages_sent = 0;
  std::uint64_t socket_drops = 0;      // datagrams the kernel dropped: the loop fell behind (NetHost::socket_drops)
  std::uint64_t queries_answered = 0;  // server queries answered, game port and LAN port together
  std::uint64_t queries_dropped = 0;   // server queries over the rate limits
  std::uint64_t replays_written = 0;
  std::uint64_t replays_failed = 0;
  std::uint64_t replays_spooled = 0;       // ReplayWriter::spooled(): races the database did not take at once
  std::uint64_t replay_spool_pending = 0;  // ReplayWriter::spool_pending()
  // Limits per address (address_book.h): refusals by Limit (index = its value), connections without a Hello yet,
  // and the addresses tracked.
  std::array<std::uint64_t, kLimitCount> refused{};
  std::size_t pending_connections = 0;
  std::size_t addresses = 0;
  std::uint64_t replay_disk_free_bytes = 0;  // ReplayWriter::free_bytes()
  bool replay_disk_low = false;              // ReplayWriter::low_space()
  std::int64_t replay_wait_us_total = 0;     // race end to replay durable, summed over writes
  std::int64_t replay_wait_us_max = 0;
  std::optional<LadderStats> ladder;    // when the server runs a contest ladder
  std::optional<RecordsStats> records;  // when it submits records (ServerOptions::records)
};

class Server final : public Outbox {
 public:
  explicit Server(ServerOptions options);
  ~Server() override;

  // Binds the port and opens the replay store. Ok, or an error sentence if either fails.
  [[nodiscard]] sr::Status<std::string> start();
  [[nodiscard]] std::uint16_t port() const { return net_.port(); }
  // The UDP receive buffer the kernel granted, in bytes (0 if unknown).
  [[nodiscard]] int receive_buffer_bytes() const { return net_.receive_buffer_bytes(); }
  // The LAN discovery port listened on, 0 when off (or it could not be bound).
  [[nodiscard]] std::uint16_t lan_port() const { return lan_.is_open() ? lan_.port() : 0; }

  // One pass of the loop: waits up to timeout_ms for packets, handles them, runs the rooms' timers, sends.
  void step(std::uint32_t timeout_ms);
  // The wait to give step(): 1 ms while any room counts down, races or waits for its results (racers' timers),
  // kIdlePollMs while every room waits (an idle server, or one hosted in the game, then wakes about 100 times a
  // second, not 1,000; a packet still ends the wait at once). Looked up again every 50 ms.
  [[nodiscard]] std::uint32_t poll_timeout_ms();
  static constexpr std::uint32_t kIdlePollMs = 10;
  // How long an address told "the server is full" has its new connections dropped unanswered (NetHost::hold_address).
  static constexpr std::uint32_t kFullHoldMs = 2'000;
  // Steps (with poll_timeout_ms()) until `stop` becomes true, then shuts down.
  void run(const std::atomic<bool>& stop);
  // Aborts running races, writes their replays and announces their results, then tells every player and stops.
  void shut_down();

  [[nodiscard]] ServerStats stats() const;
  // Players connected (past their Hello) after the last step: the one figure safe to read from another thread while
  // run() steps (the game asks it before closing a server it hosts).
  [[nodiscard]] std::size_t players_online() const { return players_online_.load(std::memory_order_relaxed); }
  // With ServerOptions::records, once started: the queue the records agent sends, and the server key's short id
  // (net::short_key_id). Null and empty otherwise.
  [[nodiscard]] RecordsQueue* records_queue() { return records_queue_.get(); }
  [[nodiscard]] std::string server_key_id() const;

  // Outbox
  void send(PlayerId player, const protocol::Message& message, std::uint8_t channel) override;
  void send_many(std::span<const PlayerId> players, const protocol::Message& message, std::uint8_t channel) override;
  void drop(PlayerId player, protocol::DisconnectReason reason, const std::string& text) override;
  void close_quietly(PlayerId player) override;
  void rebind(PlayerId keep, PlayerId from) override;
  [[nodiscard]] std::size_t queued_bytes(PlayerId player) const override;

 private:
  [[nodiscard]] TimeUs now_us() const;
  void on_receive(const NetEvent& event, TimeUs now_us);
  // Web pages: a LobbySnapshot for options_.live.
  void publish_lobby();
  // The info JSON of server queries and registrations (server_info.h), as of now.
  [[nodiscard]] std::string info_json() const;
  // Answers what waits on the LAN discovery port (a bounded number a pass; never waits).
  void serve_lan();
  // ServerOptions::records: the server key and the queue. Ok, or an error sentence.
  [[nodiscard]] sr::Status<std::string> open_records();

  ServerOptions options_;
  NetHost net_;
  QueryResponder queries_;
  LanSocket lan_;
  TimeUs next_info_publish_us_ = 0;    // to options_.directories
  TimeUs next_ladder_refresh_us_ = 0;  // a ladder in the database is read again (other servers' games)
  // Before writer_: its thread (which queues submissions) ends before they go.
  std::unique_ptr<RecordsQueue> records_queue_;
  std::unique_ptr<RecordsSubmitter> records_submitter_;
  ReplayWriter writer_;
  ReplayService replays_;
  RaceSeeds race_seeds_;  // ServerOptions::race_seeds_from, or random
  engine::Random seeds_;  // the lobby's own randomness (room codes), from the system's entropy at start
  std::unique_ptr<Ladder> ladder_;
  std::unique_ptr<Lobby> lobby_;
  std::chrono::steady_clock::time_point epoch_;
  std::set<PlayerId> dropping_;      // told to go; their further packets are ignored
  std::vector<PlayerId> to_forget_;  // dropped during this step: leave the lobby after the event is handled
  std::vector<NetEvent> events_;
  std::vector<PlayerId> send_scratch_;  // send_many()'s list of live recipients
  TimeUs last_poll_us_ = -1'000'000;    // when step() last polled the network
  // Connection attempts the connect gate dropped are counted (and logged) this often.
  static constexpr TimeUs kGateCountEveryUs = 1'000'000;
  TimeUs next_gate_count_us_ = 0;
  TimeUs next_idle_check_us_ = 0;
  bool rooms_busy_ = false;
  TimeUs next_lobby_snapshot_us_ = 0;  // web pages (options_.live)
  std::uint64_t protocol_errors_ = 0;
  bool shut_down_ = false;
  std::atomic<std::size_t> players_online_{0};  // lobby_->player_count() after the last step
};

}  // namespace sr::server
