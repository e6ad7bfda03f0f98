// The Prometheus text the metrics endpoint serves: every family has HELP and TYPE, counters end in _total, and each
// ServerStats field lands in its sample.
#include "server/metrics.h"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>

namespace sr::test {
namespace {

server::MetricsSnapshot sample_snapshot() {
  server::MetricsSnapshot s;
  s.stats.players = 7;
  s.stats.rooms = 3;
  s.stats.rooms_by_phase = {1, 0, 2, 0};
  s.stats.rooms_total.races_started = 12;
  s.stats.rooms_total.races_finished = 11;
  s.stats.rooms_total.racers_removed = 3;
  s.stats.rooms_total.racers_removed_by[static_cast<std::size_t>(server::Violation::kSlowClock)] = 2;
  s.stats.rooms_total.racers_removed_by[static_cast<std::size_t>(server::Violation::kInputFlood)] = 1;
  s.stats.rooms_total.desyncs = 4;
  s.stats.rooms_total.inputs = 123456;
  s.stats.rooms_total.run_signatures = 9;
  s.stats.rooms_total.run_signatures_refused = 2;
  s.stats.protocol_errors = 5;
  s.stats.bytes_sent = 1'000'000;
  s.stats.bytes_received = 250'000;
  s.stats.datagrams_sent = 4'000;
  s.stats.datagrams_received = 3'000;
  s.stats.messages_sent = 10'000;
  s.stats.socket_drops = 12;
  s.stats.queries_answered = 321;
  s.stats.queries_dropped = 45;
  s.stats.replays_written = 10;
  s.stats.replays_failed = 1;
  s.stats.replays_spooled = 3;
  s.stats.replay_spool_pending = 2;
  s.stats.refused[static_cast<std::size_t>(server::Limit::kHelloTimeout)] = 1100;
  s.stats.refused[static_cast<std::size_t>(server::Limit::kJoinRate)] = 9;
  s.stats.pending_connections = 16;
  s.stats.addresses = 5;
  s.stats.replay_disk_free_bytes = 123'456'789;
  s.stats.replay_disk_low = true;
  s.stats.replay_wait_us_total = 2'500'000;
  s.stats.replay_wait_us_max = 750'000;
  s.main_loop_cpu_seconds = 1.5;
  return s;
}

TEST(PrometheusText, EverySampleHasHelpAndTypeAndAValidName) {
  const std::string text = server::prometheus_text(sample_snapshot());
  const std::regex sample(R"(^([a-z_]+)(\{[a-z_]+="[a-z_]+"\})? (-?[0-9.e+]+)$)");
  const std::regex help(R"(^# HELP ([a-z_]+) .+$)");
  const std::regex type(R"(^# TYPE ([a-z_]+) (counter|gauge)$)");
  std::istringstream lines(text);
  std::string line, helped, typed, type_name;
  int samples = 0;
  while (std::getline(lines, line)) {
    std::smatch m;
    if (std::regex_match(line, m, help)) {
      helped = m[1];
    } else if (std::regex_match(line, m, type)) {
      typed = m[1];
      type_name = m[2];
      EXPECT_EQ(typed, helped) << "TYPE without its HELP: " << line;
      EXPECT_EQ(type_name == "counter", typed.size() > 6 && typed.ends_with("_total")) << line;
    } else {
      ASSERT_TRUE(std::regex_match(line, m, sample)) << "not a sample line: '" << line << "'";
      EXPECT_EQ(m[1], typed) << "sample outside its family: " << line;
      EXPECT_TRUE(m[1].str().starts_with("stackrace_")) << line;
      ++samples;
    }
  }
  // + 4: datagrams, messages, drops; + 2: queries answered and dropped; + 2: run signatures kept and ignored;
  // + 2: replays spooled and waiting in the spool
  EXPECT_EQ(samples, 1 + 4 + 2 + 6 + 8 + 4 + static_cast<int>(server::kLimitCount) + 2 + 4 + 2 + 2 + 2);
  EXPECT_TRUE(text.ends_with("\n"));
}

TEST(PrometheusText, SamplesCarryTheStats) {
  const std::string text = server::prometheus_text(sample_snapshot());
  for (const char* expected : {
           "stackrace_players 7\n",
           "stackrace_rooms{state=\"waiting\"} 1\n",
           "stackrace_rooms{state=\"countdown\"} 0\n",
           "stackrace_rooms{state=\"racing\"} 2\n",
           "stackrace_rooms{state=\"results\"} 0\n",
           "stackrace_races_started_total 12\n",
           "stackrace_refused_total{limit=\"hello_timeout\"} 1100\n",
           "stackrace_refused_total{limit=\"join_rate\"} 9\n",
           "stackrace_refused_total{limit=\"rooms_per_address\"} 0\n",
           "stackrace_connections_pending 16\n",
           "stackrace_addresses 5\n",
           "stackrace_races_finished_total 11\n",
           "stackrace_racers_removed_total{reason=\"slow_clock\"} 2\n",
           "stackrace_racers_removed_total{reason=\"input_flood\"} 1\n",
           "stackrace_racers_removed_total{reason=\"fast_clock\"} 0\n",
           "stackrace_racers_removed_total{reason=\"time_went_back\"} 0\n",
           "stackrace_racers_removed_total{reason=\"stall_budget\"} 0\n",
           "stackrace_racers_removed_total{reason=\"invalid_buttons\"} 0\n",
           "stackrace_desyncs_total 4\n",
           "stackrace_inputs_total 123456\n",
           "stackrace_run_signatures_total 9\n",
           "stackrace_run_signatures_refused_total 2\n",
           "stackrace_sent_bytes_total 1000000\n",
           "stackrace_received_bytes_total 250000\n",
           "stackrace_sent_datagrams_total 4000\n",
           "stackrace_received_datagrams_total 3000\n",
           "stackrace_sent_messages_total 10000\n",
           "stackrace_socket_drops_total 12\n",
           "stackrace_queries_answered_total 321\n",
           "stackrace_queries_dropped_total 45\n",
           "stackrace_protocol_errors_total 5\n",
           "stackrace_replay_writes_total 10\n",
           "stackrace_replay_write_failures_total 1\n",
           "stackrace_replay_spooled_total 3\n",
           "stackrace_replay_spool_pending 2\n",
           "stackrace_replay_disk_free_bytes 123456789\n",
           "stackrace_replay_disk_low 1\n",
           "stackrace_replay_wait_seconds_total 2.5\n",
           "stackrace_replay_wait_seconds_max 0.75\n",
           "stackrace_referee_cpu_seconds_total 1.5\n",
       }) {
    EXPECT_NE(text.find(expected), std::string::npos) << expected << "\nin\n" << text;
  }
}

TEST(PrometheusText, AContestShowsItsLadder) {
  server::MetricsSnapshot s = sample_snapshot();
  EXPECT_EQ(server::prometheus_text(s).find("stackrace_ladder"), std::string::npos) << "no contest, no ladder";
  // An entrant's name is any printable text: quotes and backslashes are escaped in the label.
  s.stats.ladder = server::LadderStats{2, 7, 30, {{"rocket", 20'800}, {"a\"b\\c", 4'000}}, 3, 4, 1};
  const std::string text = server::prometheus_text(s);
  for (const char* expected : {
           "# TYPE stackrace_ladder_entrants gauge\nstackrace_ladder_entrants 2\n",
           "# TYPE stackrace_ladder_store_errors_total counter\nstackrace_ladder_store_errors_total 4\n",
           "# TYPE stackrace_ladder_writes_pending gauge\nstackrace_ladder_writes_pending 1\n",
           "# TYPE stackrace_ladder_games_total counter\n"
           "stackrace_ladder_games_total{kind=\"ranked\"} 7\n"
           "stackrace_ladder_games_total{kind=\"practice\"} 30\n",
           "# TYPE stackrace_ladder_best_average gauge\n"
           "stackrace_ladder_best_average{rank=\"1\",entrant=\"rocket\"} 6933.33\n"
           "stackrace_ladder_best_average{rank=\"2\",entrant=\"a\\\"b\\\\c\"} 1333.33\n",
       }) {
    EXPECT_NE(text.find(expected), std::string::npos) << expected << "\nin\n" << text;
  }
}

TEST(MetricsBoard, FreshWhilePublishedRecentlyAndNeverWhenStopping) {
  server::MetricsSnapshot s;
  const auto now = std::chrono::steady_clock::now();
  s.taken = now - std::chrono::seconds(1);
  EXPECT_TRUE(server::is_fresh(s, now));
  s.taken = now - server::kSnapshotStaleAfter - std::chrono::milliseconds(1);
  EXPECT_FALSE(server::is_fresh(s, now));
  s.taken = now;
  s.stopping = true;
  EXPECT_FALSE(server::is_fresh(s, now));

  server::MetricsBoard board;
  EXPECT_FALSE(board.latest().has_value());
  board.publish(sample_snapshot());
  ASSERT_TRUE(board.latest().has_value());
  EXPECT_EQ(board.latest()->stats.players, 7u);
}

}  // namespace
}  // namespace sr::test
