// Opting in to records (server/server_config.h: --records URL, --records-queue-mb, their config file keys) and the
// records' metrics (server/metrics.h): off unless a hub is given, http:// only, and the Prometheus lines exact.
#include <gtest/gtest.h>

#include <fstream>

#include "server/metrics.h"
#include "server/server_config.h"
#include "tests/deploy/process.h"

namespace sr::server {
namespace {

// Parses `args` (no program name) into `config`; empty on success, else CLI11's message.
std::string parse(const std::vector<std::string>& args, ServerConfig& config) {
  CLI::App app;
  add_server_options(app, config);
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return e.get_name() + ": " + e.what();
  }
  return "";
}

TEST(RecordsOptions, OffUnlessAHubIsGiven) {
  ServerConfig none;
  ASSERT_EQ(parse({}, none), "");
  EXPECT_EQ(server_options(none).records.hub, "");
  EXPECT_EQ(server_options(none).records.queue.max_bytes, std::uint64_t{1024} << 20);
  EXPECT_EQ(server_options(none).records.queue.max_files, 100'000u);

  ServerConfig on;
  ASSERT_EQ(parse({"--records", "http://hub.example.org:8470/", "--records-queue-mb", "64"}, on), "");
  EXPECT_EQ(server_options(on).records.hub, "http://hub.example.org:8470/");
  EXPECT_EQ(server_options(on).records.queue.max_bytes, std::uint64_t{64} << 20);
}

TEST(RecordsOptions, TheConfigFileTakesTheSameKeys) {
  test::TempDir dir("stackrace-records-config");
  const auto file = dir.path() / "server.toml";
  std::ofstream(file) << "records = \"http://hub.example.org:8470\"\nrecords-queue-mb = 10\n";
  ServerConfig config;
  ASSERT_EQ(parse({"--config", file.string()}, config), "");
  EXPECT_EQ(server_options(config).records.hub, "http://hub.example.org:8470");
  EXPECT_EQ(server_options(config).records.queue.max_bytes, std::uint64_t{10} << 20);
  std::ofstream(file) << "records = \"\"\n";  // as deploy/server.example.toml has it: off
  ServerConfig off;
  ASSERT_EQ(parse({"--config", file.string()}, off), "");
  EXPECT_EQ(server_options(off).records.hub, "");
}

TEST(RecordsOptions, AHubThatIsNoHttpUrlIsRefusedWithASentence) {
  ServerConfig bad;
  EXPECT_EQ(parse({"--records", "https://hub.example.org"}, bad),
            "ValidationError: --records: the records hub 'https://hub.example.org' is an https:// URL: the server "
            "speaks plain http:// to a records hub (give the hub's http:// address, or a proxy's on this machine)");
  EXPECT_EQ(parse({"--records", "hub.example.org:8470"}, bad),
            "ValidationError: --records: the records hub 'hub.example.org:8470' is not an http:// URL: it does not "
            "start with http:// or https://");
  EXPECT_NE(parse({"--records-queue-mb", "0"}, bad), "");
  EXPECT_NE(parse({"--records-queue-mb", "-1"}, bad), "");
}

TEST(RecordsMetrics, AreThereOnlyWhenTheServerSubmitsRecords) {
  MetricsSnapshot off;
  EXPECT_EQ(prometheus_text(off).find("stackrace_records"), std::string::npos);

  MetricsSnapshot on;
  RecordsStats records;
  records.queued = 4;
  records.queued_bytes = 81'920;
  records.sent = 17;
  records.refused = 2;
  records.send_failures = 9;
  records.dropped_full = 3;
  records.dropped_unwritable = 1;
  records.dropped_too_large = 5;
  on.stats.records = records;
  const std::string text = prometheus_text(on);
  for (const char* line : {
           "# TYPE stackrace_records_queued gauge\nstackrace_records_queued 4\n",
           "# TYPE stackrace_records_queued_bytes gauge\nstackrace_records_queued_bytes 81920\n",
           "# TYPE stackrace_records_sent_total counter\nstackrace_records_sent_total 17\n",
           "# TYPE stackrace_records_refused_total counter\nstackrace_records_refused_total 2\n",
           "# TYPE stackrace_records_send_failures_total counter\nstackrace_records_send_failures_total 9\n",
           "# TYPE stackrace_records_dropped_total counter\n"
           "stackrace_records_dropped_total{reason=\"queue_full\"} 3\n"
           "stackrace_records_dropped_total{reason=\"unwritable\"} 1\n"
           "stackrace_records_dropped_total{reason=\"too_large\"} 5\n",
       }) {
    EXPECT_NE(text.find(line), std::string::npos) << line;
  }
}

}  // namespace
}  // namespace sr::server
