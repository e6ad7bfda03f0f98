// stackrace-netmatrix: races of bots through every network profile of the test bed, one row per profile, judged by
// the acceptance figures (tests/netsim/README.md, "The network matrix").
//
//   stackrace-netmatrix                       # every profile, 20 races of 8 racers each, 40-line sprints
//   stackrace-netmatrix --short               # the test suite's run (NetMatrix.Short)
//   stackrace-netmatrix --profiles wifi,mobile --races 4 --racers 4 --lines 20
//
// Per profile it prints a progress line on stderr; at the end the table, the problems seen, and "netmatrix: PASS" or
// "netmatrix: FAIL (...)" on stdout. Exit status: 0 pass, 1 fail, 2 bad arguments.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "tests/netsim/impairment.h"
#include "tests/netsim/matrix_report.h"
#include "tests/netsim/matrix_run.h"

namespace {

using namespace sr::netsim;

// The test suite's run: short sprints of a few racers through the profiles that finish in seconds. The 45 s blackout
// stays out (it alone takes a minute); the benchmark runs it.
const std::vector<std::string> kShortProfiles = {"lan", "wifi", "blackout3", "blackout8", "address-change"};
constexpr int kShortRaces = 2;
constexpr int kShortRacers = 3;
constexpr int kShortLines = 10;

// Problems listed under the table per profile; the rest are counted.
constexpr std::size_t kProblemsShown = 12;

int usage_error(const std::string& message) {
  std::fprintf(stderr, "stackrace-netmatrix: %s\n(run stackrace-netmatrix --help for the options)\n", message.c_str());
  return 2;
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) out.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

// Every reconnect attempt through the proxy is a new socket the proxy keeps open; a 45 s blackout of 160 racers
// needs thousands of descriptors.
void raise_descriptor_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max) return;
  limit.rlim_cur = limit.rlim_max;
  (void)setrlimit(RLIMIT_NOFILE, &limit);
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> all = all_profile_names();
  std::string names;
  for (const std::string& n : all) names += (names.empty() ? "" : ",") + n;

  CLI::App app{
      "stackrace-netmatrix: races of bots through each network profile of the test bed (an in-process "
      "stackrace-server behind a seeded UDP impairment proxy), one table row per profile, judged by the acceptance "
      "figures"};
  std::string profiles_text = names;
  int races = 20;
  int racers = 8;
  int lines = 40;
  double pps = 2.5;
  std::uint64_t seed = 1;
  bool short_run = false;
  std::string csv_path;
  int timeout_s = 0;
  std::string log_level = "warn";
  app.add_option("--profiles", profiles_text, "comma-separated profiles to run, in order (" + names + ")")
      ->capture_default_str();
  auto* races_option =
      app.add_option("--races", races, "races per profile, all at once, each in its own room")->capture_default_str();
  auto* racers_option = app.add_option("--racers", racers, "racers per race (1..16)")->capture_default_str();
  auto* lines_option = app.add_option("--lines", lines, "the sprint's length in lines")->capture_default_str();
  app.add_option("--pps", pps, "the bots' pace in pieces per second (0 = as fast as the keys allow)")
      ->capture_default_str();
  app.add_option("--seed", seed, "the proxy's seed: the profile at position i of the full list gets SEED + i")
      ->capture_default_str();
  auto* profiles_option = app.get_option("--profiles");
  app.add_flag("--short", short_run,
               "the test suite's run: profiles " + std::string("lan,wifi,blackout3,blackout8,address-change") +
                   ", 2 races of 3 racers, 10-line sprints (options given as well win)");
  app.add_option("--csv", csv_path, "also write the figures to this CSV file");
  app.add_option("--timeout-s", timeout_s,
                 "how long each profile's races may take (0 = 120 s plus four times the expected game plus the "
                 "longest blackout)")
      ->capture_default_str();
  app.add_option("--log-level", log_level, "the in-process server's log level (trace .. off)")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  if (short_run) {
    if (profiles_option->count() == 0) {
      profiles_text.clear();
      for (const std::string& p : kShortProfiles) profiles_text += (profiles_text.empty() ? "" : ",") + p;
    }
    if (races_option->count() == 0) races = kShortRaces;
    if (racers_option->count() == 0) racers = kShortRacers;
    if (lines_option->count() == 0) lines = kShortLines;
  }
  const std::vector<std::string> profiles = split(profiles_text);
  if (profiles.empty()) return usage_error("--profiles: name at least one profile (" + names + ")");
  for (const std::string& p : profiles) {
    if (std::find(all.begin(), all.end(), p) == all.end()) {
      return usage_error("--profiles: unknown profile '" + p + "'; the profiles are " + names);
    }
  }
  if (races < 1 || races > 200) return usage_error("--races must be from 1 to 200");
  if (racers < 1 || racers > 16) return usage_error("--racers must be from 1 to 16");
  if (lines < 1 || lines > 1000) return usage_error("--lines must be from 1 to 1000");
  if (!(pps >= 0 && pps <= 30)) return usage_error("--pps must be from 0 to 30");
  if (timeout_s < 0) return usage_error("--timeout-s must be 0 or more");
  const auto level = spdlog::level::from_str(log_level);
  if (level == spdlog::level::off && log_level != "off") return usage_error("--log-level: unknown level " + log_level);

  // The server's log goes to stderr, beside the progress lines; the table goes to stdout.
  spdlog::set_default_logger(spdlog::stderr_color_mt("server"));
  spdlog::set_level(level);
  raise_descriptor_limit();

  std::vector<ProfileOutcome> outcomes;
  for (const std::string& p : profiles) {
    MatrixRun run;
    run.profile = p;
    run.seed = seed + static_cast<std::uint64_t>(std::find(all.begin(), all.end(), p) - all.begin());
    run.races = races;
    run.racers = racers;
    run.lines = lines;
    run.pps_milli = static_cast<int>(pps * 1000 + 0.5);
    run.race_timeout = std::chrono::seconds(timeout_s);
    std::fprintf(stderr, "netmatrix: %s: %d races of %d racers, %d-line sprints at %.2f pps, seed %llu\n", p.c_str(),
                 races, racers, lines, pps, static_cast<unsigned long long>(run.seed));
    outcomes.push_back(run_profile(run));
    const ProfileOutcome& o = outcomes.back();
    // The machine's load shows whether other work competed for the cores: the bots, the server and the proxy share
    // this process, and a starved bot's clock looks slow to the referee.
    double load[1] = {0};
    (void)getloadavg(load, 1);
    std::fprintf(stderr,
                 "netmatrix: %s: %d of %d racers finished in %.0f s (load average %.2f); %d connections dropped before "
                 "their race; %s\n",
                 p.c_str(), o.finished, o.racers_planned, o.wall_s, load[0], o.setup_drops, o.network.c_str());
  }

  std::printf("\n%s", format_table(outcomes).c_str());
  for (const ProfileOutcome& o : outcomes) {
    for (std::size_t i = 0; i < o.problems.size() && i < kProblemsShown; ++i) {
      std::printf("  %s: %s\n", o.profile.c_str(), o.problems[i].c_str());
    }
    if (o.problems.size() > kProblemsShown) {
      std::printf("  %s: ... and %zu more\n", o.profile.c_str(), o.problems.size() - kProblemsShown);
    }
  }
  if (!csv_path.empty()) {
    std::ofstream csv(csv_path);
    csv << format_csv(outcomes);
    if (!csv) std::fprintf(stderr, "stackrace-netmatrix: could not write %s\n", csv_path.c_str());
  }
  const std::string verdict = format_verdict(outcomes);
  std::printf("%s\n", verdict.c_str());
  return verdict == "netmatrix: PASS" ? 0 : 1;
}
