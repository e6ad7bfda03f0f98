#include "server/metrics.h"

#include <fmt/format.h>

#include <ctime>
#include <iterator>

namespace sr::server {
namespace {

// Label values for the metrics: stable names, not the sentences of violation_text().
struct RemovalReason {
  Violation violation;
  const char* label;
};
constexpr RemovalReason kRemovalReasons[] = {
    {Violation::kTimeWentBack, "time_went_back"}, {Violation::kInvalidButtons, "invalid_buttons"},
    {Violation::kSlowClock, "slow_clock"},        {Violation::kFastClock, "fast_clock"},
    {Violation::kInputFlood, "input_flood"},      {Violation::kStallBudget, "stall_budget"},
};

constexpr const char* kPhaseLabels[] = {"waiting", "countdown", "racing", "results"};
static_assert(std::size(kPhaseLabels) == std::tuple_size_v<decltype(ServerStats::rooms_by_phase)>);

void header(std::string& out, const char* name, const char* type, const char* help) {
  fmt::format_to(std::back_inserter(out), "# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
}

template <typename T>
void metric(std::string& out, const char* name, const char* type, const char* help, T value) {
  header(out, name, type, help);
  fmt::format_to(std::back_inserter(out), "{} {}\n", name, value);
}

// A label value in the exposition format: backslash, double quote and newline escaped.
std::string label_value(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\' || c == '"') out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  return out;
}

void ladder_metrics(std::string& out, const LadderStats& ladder) {
  metric(out, "stackrace_ladder_entrants", "gauge", "Entrants on the contest ladder.", ladder.entrants);
  metric(out, "stackrace_ladder_store_errors_total", "counter",
         "Contest ladder entries its store could not read and games, scores or replays it could not write.",
         ladder.store_errors);
  metric(out, "stackrace_ladder_writes_pending", "gauge",
         "Contest ladder scores and replays not yet in its database (tried again every second).",
         ladder.writes_pending);
  header(out, "stackrace_ladder_games_total", "counter", "Contest ladder games started, ranked or practice.");
  fmt::format_to(std::back_inserter(out), "stackrace_ladder_games_total{{kind=\"ranked\"}} {}\n", ladder.ranked_games);
  fmt::format_to(std::back_inserter(out), "stackrace_ladder_games_total{{kind=\"practice\"}} {}\n",
                 ladder.practice_games);
  header(out, "stackrace_ladder_best_average", "gauge",
         "The top entrants' rank score: the average of their best ranked scores, a game not played counting 0.");
  for (std::size_t i = 0; i < ladder.top.size(); ++i) {
    const auto& [name, sum] = ladder.top[i];
    fmt::format_to(std::back_inserter(out), "stackrace_ladder_best_average{{rank=\"{}\",entrant=\"{}\"}} {}\n", i + 1,
                   label_value(name), protocol::ladder_average_text(sum, ladder.counted_best));
  }
}

void records_metrics(std::string& out, const RecordsStats& records) {
  metric(out, "stackrace_records_queued", "gauge",
         "Submissions waiting in the records queue for the hub (DATA_DIR/records-queue).", records.queued);
  metric(out, "stackrace_records_queued_bytes", "gauge", "Bytes of the submissions waiting in the records queue.",
         records.queued_bytes);
  metric(out, "stackrace_records_sent_total", "counter",
         "Submissions the records hub holds (it answered 200, or 409: it had the replay already).", records.sent);
  metric(out, "stackrace_records_refused_total", "counter",
         "Submissions the records hub refused for good (400, 403, 413, 422), moved to DATA_DIR/records-refused.",
         records.refused);
  metric(out, "stackrace_records_send_failures_total", "counter",
         "Attempts to send a submission that will be retried (429, 5xx, timeouts, no connection).",
         records.send_failures);
  header(out, "stackrace_records_dropped_total", "counter",
         "Stored races signed by a racer that were not queued for the hub, by reason.");
  fmt::format_to(std::back_inserter(out), "stackrace_records_dropped_total{{reason=\"queue_full\"}} {}\n",
                 records.dropped_full);
  fmt::format_to(std::back_inserter(out), "stackrace_records_dropped_total{{reason=\"unwritable\"}} {}\n",
                 records.dropped_unwritable);
  fmt::format_to(std::back_inserter(out), "stackrace_records_dropped_total{{reason=\"too_large\"}} {}\n",
                 records.dropped_too_large);
}

}  // namespace

void MetricsBoard::publish(const MetricsSnapshot& snapshot) {
  std::lock_guard lock(mutex_);
  latest_ = snapshot;
}

std::optional<MetricsSnapshot> MetricsBoard::latest() const {
  std::lock_guard lock(mutex_);
  return latest_;
}

bool is_fresh(const MetricsSnapshot& snapshot, std::chrono::steady_clock::time_point now) {
  return !snapshot.stopping && now - snapshot.taken < kSnapshotStaleAfter;
}

std::string prometheus_text(const MetricsSnapshot& snapshot) {
  const ServerStats& s = snapshot.stats;
  const RoomCounters& r = s.rooms_total;
  std::string out;
  out.reserve(4096);
  metric(out, "stackrace_players", "gauge", "Players connected now.", s.players);

  header(out, "stackrace_rooms", "gauge", "Rooms now, by state.");
  for (std::size_t p = 0; p < s.rooms_by_phase.size(); ++p) {
    fmt::format_to(std::back_inserter(out), "stackrace_rooms{{state=\"{}\"}} {}\n", kPhaseLabels[p],
                   s.rooms_by_phase[p]);
  }
  metric(out, "stackrace_races_started_total", "counter", "Races started (countdown begun).", r.races_started);
  metric(out, "stackrace_races_finished_total", "counter", "Races ended with results.", r.races_finished);

  header(out, "stackrace_racers_removed_total", "counter", "Racers removed for breaking a rule, by rule.");
  for (const RemovalReason& reason : kRemovalReasons) {
    const auto i = static_cast<std::size_t>(reason.violation);
    fmt::format_to(std::back_inserter(out), "stackrace_racers_removed_total{{reason=\"{}\"}} {}\n", reason.label,
                   i < r.racers_removed_by.size() ? r.racers_removed_by[i] : 0);
  }
  metric(out, "stackrace_desyncs_total", "counter", "State hash reports that disagreed with the server's simulation.",
         r.desyncs);
  metric(out, "stackrace_inputs_total", "counter", "Button changes received from racers.", r.inputs);
  metric(out, "stackrace_run_signatures_total", "counter",
         "Racers' run signatures (RunSigned) checked and kept for their race's replay.", r.run_signatures);
  metric(out, "stackrace_run_signatures_refused_total", "counter",
         "Run signatures ignored: not verifying, from no racer or a racer without a key, a second one, too early or "
         "too late.",
         r.run_signatures_refused);
  metric(out, "stackrace_sent_bytes_total", "counter", "Bytes sent over UDP (ENet, with its headers).", s.bytes_sent);
  metric(out, "stackrace_received_bytes_total", "counter", "Bytes received over UDP (ENet, with its headers).",
         s.bytes_received);
  metric(out, "stackrace_sent_datagrams_total", "counter",
         "UDP datagrams sent (ENet packs what waits for one peer into one at each flush).", s.datagrams_sent);
  metric(out, "stackrace_received_datagrams_total", "counter", "UDP datagrams received.", s.datagrams_received);
  metric(out, "stackrace_socket_drops_total", "counter",
         "Datagrams the kernel dropped because the game socket's queue was full: the server fell behind (overload).",
         s.socket_drops);
  metric(out, "stackrace_queries_answered_total", "counter",
         "Server queries answered (game port and LAN discovery port; common/protocol/DIRECTORY.md).",
         s.queries_answered);
  metric(out, "stackrace_queries_dropped_total", "counter",
         "Server queries dropped for going over the rate limits (20 a second per address, 2,000 in all).",
         s.queries_dropped);
  metric(out, "stackrace_sent_messages_total", "counter",
         "Messages queued to players (one to n players counts n); ENet packs them into the datagrams.",
         s.messages_sent);
  metric(
      out, "stackrace_protocol_errors_total", "counter",
      "Messages that did not decode, came on the wrong channel or may not come from a client (the sender was dropped).",
      s.protocol_errors);
  metric(out, "stackrace_replay_writes_total", "counter", "Replays written to the replay store.", s.replays_written);
  metric(out, "stackrace_replay_write_failures_total", "counter", "Replays the replay store failed to write.",
         s.replays_failed);
  metric(out, "stackrace_replay_spooled_total", "counter",
         "Replays the database did not take at once (down, refusing writes, too slow), kept in DATA_DIR/spool.",
         s.replays_spooled);
  metric(out, "stackrace_replay_spool_pending", "gauge",
         "Replays in DATA_DIR/spool waiting for the database (stored oldest first when it takes writes again).",
         s.replay_spool_pending);
  header(out, "stackrace_refused_total", "counter",
         "Connections and requests refused by a limit (per address unless named otherwise), by limit; "
         "idle_room_closed counts rooms closed for having no race, catch_up_queued race catch-ups that waited for the "
         "server's catch-up budget.");
  for (std::size_t i = 0; i < kLimitCount; ++i) {
    fmt::format_to(std::back_inserter(out), "stackrace_refused_total{{limit=\"{}\"}} {}\n",
                   limit_label(static_cast<Limit>(i)), s.refused[i]);
  }
  metric(out, "stackrace_connections_pending", "gauge", "Connections that have not said Hello yet.",
         s.pending_connections);
  metric(out, "stackrace_addresses", "gauge", "IP addresses the per-address limits are tracking.", s.addresses);
  metric(out, "stackrace_replay_disk_free_bytes", "gauge", "Free bytes on the replay store's file system.",
         s.replay_disk_free_bytes);
  metric(out, "stackrace_replay_disk_low", "gauge",
         "1 when the replay store's free space is below the warning level (--replay-low-space-mb).",
         s.replay_disk_low ? 1 : 0);
  metric(out, "stackrace_replay_wait_seconds_total", "counter",
         "Time from races' ends to their replays being durable (their results wait for it), summed.",
         static_cast<double>(s.replay_wait_us_total) / 1e6);
  metric(out, "stackrace_replay_wait_seconds_max", "gauge", "The longest wait of a race's results for its replay.",
         static_cast<double>(s.replay_wait_us_max) / 1e6);
  metric(out, "stackrace_referee_cpu_seconds_total", "counter",
         "CPU time of the server's main loop (network, lobby, the referees' simulations).",
         snapshot.main_loop_cpu_seconds);
  if (s.ladder) ladder_metrics(out, *s.ladder);
  if (s.records) records_metrics(out, *s.records);
  return out;
}

double thread_cpu_seconds() {
  timespec t{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return 0;
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

void run_and_publish(Server& server, const std::atomic<bool>& stop, MetricsBoard& board,
                     std::chrono::milliseconds every) {
  const auto snapshot = [&server](bool stopping) {
    MetricsSnapshot s;
    s.stats = server.stats();
    s.main_loop_cpu_seconds = thread_cpu_seconds();
    s.taken = std::chrono::steady_clock::now();
    s.stopping = stopping;
    return s;
  };
  auto next = std::chrono::steady_clock::now();
  while (!stop.load()) {
    server.step(server.poll_timeout_ms());
    if (std::chrono::steady_clock::now() >= next) {
      board.publish(snapshot(false));
      next = std::chrono::steady_clock::now() + every;
    }
  }
  server.shut_down();
  board.publish(snapshot(true));
}

}  // namespace sr::server
