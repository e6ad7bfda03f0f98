// A real stackrace-server on 127.0.0.1 (ephemeral port, temporary replay store) running on its own thread, and bot
// clients that race through net/ exactly as stackrace-bot does.
#pragma once

#include <atomic>
#include <chrono>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bot/online_bot.h"
#include "common/bot/bot.h"
#include "common/engine/random.h"
#include "net/session.h"
#include "net/session_pump.h"
#include "server/server.h"

namespace sr::test {

// The replay jobs a server hands to its writer (ServerOptions::on_replay_job, called on the server's thread), for a
// test to look at what each race's replay holds and the run signatures kept with it.
class ReplayJobs {
 public:
  // What to set ServerOptions::on_replay_job to (this must outlive the server).
  [[nodiscard]] std::function<void(const server::ReplayWriter::Job&)> hook() {
    return [this](const server::ReplayWriter::Job& job) {
      const std::lock_guard lock(mutex_);
      jobs_.push_back(job);
    };
  }
  [[nodiscard]] std::vector<server::ReplayWriter::Job> jobs() const {
    const std::lock_guard lock(mutex_);
    return jobs_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<server::ReplayWriter::Job> jobs_;
};

class ServerFixture {
 public:
  explicit ServerFixture(server::ServerOptions options = {});
  ~ServerFixture();
  [[nodiscard]] std::uint16_t port() const { return port_; }
  [[nodiscard]] const std::filesystem::path& data_dir() const { return data_dir_; }
  // Every replay file in the store, decoded and verified: (file, verified, verify message).
  struct StoredReplay {
    std::filesystem::path file;
    replay::Replay replay;
    bool verified = false;
    std::string message;
  };
  [[nodiscard]] std::vector<StoredReplay> stored_replays() const;
  // Stops the server (running races end and their replays are written) and returns its final counters. The store
  // stays until the fixture is destroyed; stopping twice returns the same counters.
  server::ServerStats stop();
  // Stops the server and starts a new one with the same options on the same data directory (a new port), as a
  // restart of the process would. False (and a test failure) if the new one does not start.
  bool restart();

 private:
  bool start();

  server::ServerOptions options_;
  std::filesystem::path data_dir_;
  std::unique_ptr<server::Server> server_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::uint16_t port_ = 0;
};

// Bends the client's clock or delays its messages, to play a dishonest or unlucky client.
struct ClientQuirks {
  double clock_rate = 1.0;     // race time runs at this rate of real time (0.9 = slow clock)
  std::int64_t jitter_us = 0;  // each outgoing race message waits 0..jitter_us before it is sent (order kept)
  int loss_percent = 0;        // this share of race messages waits a further 250 ms (a retransmission)
};

class BotClient {
 public:
  BotClient(std::string name, std::uint16_t port, ClientQuirks quirks = {}, int pps_milli = 0);

  // Polls until the server welcomed us (or the timeout). False on failure.
  bool connect(std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // One round without waiting: network traffic, then the bot's due inputs and the delayed messages now due. Returns
  // the microseconds until the client next has work of its own (an input, a delayed message), nullopt if none.
  std::optional<std::int64_t> pump();
  // Pumps every client in `clients` on one session pump (net/session_pump.h) until `done` holds or the timeout
  // passes. False on timeout.
  static bool pump_until(const std::vector<BotClient*>& clients, const std::function<bool()>& done,
                         std::chrono::milliseconds timeout);

  net::Session& session() { return bot_.session(); }
  [[nodiscard]] const std::vector<protocol::Message>& received() const { return received_; }
  // The first Notice with this code received so far.
  [[nodiscard]] const protocol::Notice* notice(protocol::NoticeCode code) const;
  // The log of button changes this client streamed in the current race.
  [[nodiscard]] std::vector<engine::InputChange> sent_log() const;
  void kill();  // stops talking at once, like a killed process (no goodbye)
  [[nodiscard]] bool killed() const { return killed_; }

 private:
  static botcli::OnlineBot make_bot(const std::string& name, std::uint16_t port, int pps_milli);

  ClientQuirks quirks_;
  botcli::OnlineBot bot_;
  std::vector<protocol::Message> received_;
  engine::Random rng_;
  bool killed_ = false;
  std::deque<std::pair<std::chrono::steady_clock::time_point, protocol::Message>> delayed_;
};

}  // namespace sr::test
