// The honest players beside an attack: rooms of racing bots (bot/online_bot.h) from 127.0.0.1, serviced by the
// session pump (net/session_pump.h) so relay delays are measured to the moment a packet arrives, a probe player who
// connects from an address of its own (a newcomer's, 127.0.1.1), creates a room and then watches the first honest race
// (its catch-up), and a bystander who asks for the room list once a second, while the attack runs.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "bot/online_bot.h"
#include "net/session_pump.h"
#include "tests/abuse/abuse_report.h"
#include "tests/abuse/attacker.h"

namespace sr::abuse {

struct HonestPlan {
  std::uint16_t port = 0;  // the server's, on 127.0.0.1
  int rooms = 2;           // each with its own race
  int racers = 4;          // per room
  int sprints = 1;         // races each room runs, one after the other
  int lines = 10;          // the sprint's length
  int pps_milli = 2'500;   // the bots' pace
  std::uint64_t seed = 1;  // the bots' timing
  // The first racer's RaceSeat of each race is published here, as an attacker might have seen it (the theft attack).
  std::shared_ptr<SeenSeat> seen_seat;
};

class HonestSide {
 public:
  using Clock = std::chrono::steady_clock;

  // Results, removals and relay delays go into `out` (races_*, racers_*, removed, other_endings, relay_delays_us,
  // probe, problems).
  HonestSide(HonestPlan plan, AttackOutcome& out);
  ~HonestSide();
  HonestSide(const HonestSide&) = delete;
  HonestSide& operator=(const HonestSide&) = delete;

  // Connects every bot and puts each room's racers in their room (before the attack). False (and a problem) when
  // that does not happen within `timeout`.
  [[nodiscard]] bool set_up(std::chrono::seconds timeout);
  [[nodiscard]] std::vector<std::uint32_t> room_ids() const;
  // Services the bots for `how_long` (while the attack builds up).
  void idle_for(Clock::duration how_long);
  // Runs every sprint in every room, all rooms at once, with the probe trying to connect and create a room from the
  // first countdown on. Each sprint may take `race_timeout`.
  void race(std::chrono::seconds race_timeout);
  void close();
  // When each bot sent each change (stackrace-webload measures the web pages' watchers against it).
  [[nodiscard]] const botcli::RelayProbe& relay() const { return relay_; }

 private:
  struct Probe;
  struct Bystander;
  void once();
  void probe_once();
  void bystander_once();
  void on_message(std::size_t bot, const protocol::Message& m);
  void collect(std::size_t room, const protocol::RaceResults& results);
  [[nodiscard]] std::size_t leader(std::size_t room) const { return room * static_cast<std::size_t>(plan_.racers); }

  HonestPlan plan_;
  AttackOutcome& out_;
  botcli::RelayProbe relay_;
  std::vector<std::unique_ptr<botcli::OnlineBot>> bots_;
  std::unique_ptr<net::SessionPump> pump_;
  std::vector<std::uint32_t> room_ids_;
  std::vector<std::uint32_t> last_race_;                  // by room: the race whose results were counted
  std::map<std::uint32_t, std::string> removal_reasons_;  // player id -> RacerEnded reason
  std::unique_ptr<Probe> probe_;
  std::unique_ptr<Bystander> bystander_;
};

}  // namespace sr::abuse
