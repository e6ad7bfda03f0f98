// The records hub's submit path (run by ./stackrace.sh bench): submissions of 40-line sprint races of 2 and 8 racers
// taken, checked, re-simulated and stored per second, in process (RecordsHub::submit, no HTTP) and through the hub's
// HTTP server on loopback (one kept-alive client), each with its data directory on the disk (every submission's
// fsyncs in the figure) and in memory (/dev/shm: the hub's own work alone). Beside them, replay::verify of the same
// race alone: the part of a submission that is re-simulation.
//
// Every submission is a new replay: the same scripted race (played once) with other players, whose keys sign their
// runs, so no submission is a duplicate and every run is stored, as in a hub receiving many servers' races. Making
// and signing the next submission is outside the timing. Every kBookRuns runs the hub starts again on a new data
// directory (outside the timing too): every new run ties with the earlier ones of its racer, and counting the places
// before it costs what the board holds, so the figure is for a board of 0 to kBookRuns runs, whatever the number of
// iterations.
#include <benchmark/benchmark.h>
#include <httplib.h>
#include <sodium.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <filesystem>
#include <memory>

#include "common/replay/verify.h"
#include "hub/hub_http.h"
#include "hub/records/records_hub.h"
#include "tests/hub/records_support.h"

namespace {

using namespace sr::hub;
using namespace sr::hub::records;
namespace fs = std::filesystem;

// A data directory of its own, removed at the end: in the system's temporary folder (a disk: every fsync costs what
// it costs there), or in /dev/shm (memory: the fsyncs cost nothing, which leaves the hub's own work).
struct TempDir {
  explicit TempDir(bool in_memory) {
    static int n = 0;
    const fs::path base = in_memory && fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
    path = base / ("stackrace-hub-bench-" + std::to_string(::getpid()) + "-" + std::to_string(++n));
    fs::remove_all(path);
  }
  ~TempDir() { fs::remove_all(path); }
  fs::path path;
};

// The next submission of a race of `racers`: the base race with new players "b<racers>-<k>-<i>".
class Submissions {
 public:
  explicit Submissions(int racers) : racers_(racers), base_(test::base_race(racers, 2024, 31)) {
    for (const sr::replay::Racer& r : base_.racers) {
      if (r.result.status != sr::replay::ResultStatus::kFinished) std::abort();  // every run must count
    }
  }
  test::SignedSubmission next() {
    std::vector<std::string> names;
    std::vector<std::uint32_t> all;
    for (int i = 0; i < racers_; ++i) {
      names.push_back("b" + std::to_string(racers_) + "-" + std::to_string(k_) + "-" + std::to_string(i));
      all.push_back(static_cast<std::uint32_t>(i));
    }
    ++k_;
    return test::sign(test::submission_of(test::with_players(base_, names), all, k_));
  }
  const sr::replay::Replay& base() const { return base_; }

 private:
  int racers_;
  sr::replay::Replay base_;
  int k_ = 0;
};

RecordsOptions bench_options(const fs::path& dir) {
  RecordsOptions o;
  o.data_dir = dir;
  o.submissions_per_second = 100'000;  // the flood limits would refuse a benchmark
  o.submission_burst = 100'000;
  o.verify_slots = 1;
  return o;
}

std::int64_t fixed_ms() { return 1'000'000; }

void BM_VerifyOnly(benchmark::State& state) {
  Submissions s(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    const sr::replay::VerifyReport r = sr::replay::verify(s.base());
    if (r.verdict != sr::replay::Verdict::kVerified) state.SkipWithError("the race does not verify");
    benchmark::DoNotOptimize(r);
  }
  state.counters["races/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

constexpr int kBookRuns = 1600;  // runs a hub holds before the benchmark starts it again (outside the timing)

// A records hub on a data directory of its own and, for `http`, the hub's HTTP server on loopback with a kept-alive
// client.
struct BenchHub {
  BenchHub(bool in_memory, bool http) : dir(in_memory) {
    auto opened = RecordsHub::open(bench_options(dir.path), fixed_ms, fixed_ms);
    if (!opened) {
      error = opened.error();
      return;
    }
    hub = std::move(opened).value();
    if (!http) return;
    server = std::make_unique<HubHttpServer>(HubLimits{}, random_token, fixed_ms, hub.get());
    HubHttpOptions options;
    options.bind = "127.0.0.1";
    options.port = 0;
    options.threads = 2;
    if (!server->start(options)) {
      error = "the hub did not start";
      return;
    }
    client = std::make_unique<httplib::Client>("127.0.0.1", server->port());
    client->set_keep_alive(true);
    client->set_tcp_nodelay(true);  // as a server's submitter should: else each request waits 40 ms for an ACK
    client->set_read_timeout(30, 0);
  }
  // The answer's status and body.
  std::pair<int, std::string> submit(const test::SignedSubmission& s) {
    if (!client) {
      const SubmitAnswer a = hub->submit("127.0.0.1", s.body, s.signature);
      return {a.status, a.body};
    }
    const httplib::Result r = client->Post("/api/records/submit", {{sr::net::kSubmissionSignatureHeader, s.signature}},
                                           s.body, "application/json");
    return r ? std::pair<int, std::string>{r->status, r->body} : std::pair<int, std::string>{0, "no answer"};
  }

  TempDir dir;
  std::unique_ptr<RecordsHub> hub;
  std::unique_ptr<HubHttpServer> server;
  std::unique_ptr<httplib::Client> client;
  std::string error;
};

// Arguments: racers, and 1 for a data directory in memory.
void submit_benchmark(benchmark::State& state, bool http) {
  if (sodium_init() < 0) std::abort();
  const int racers = static_cast<int>(state.range(0));
  const bool in_memory = state.range(1) != 0;
  auto hub = std::make_unique<BenchHub>(in_memory, http);
  Submissions s(racers);
  int runs = 0;
  for (auto _ : state) {
    state.PauseTiming();
    if (!hub->error.empty()) {
      state.SkipWithError(hub->error.c_str());
      break;
    }
    if (runs >= kBookRuns) {
      hub.reset();
      hub = std::make_unique<BenchHub>(in_memory, http);
      runs = 0;
    }
    const test::SignedSubmission next = s.next();
    state.ResumeTiming();
    const auto [status, body] = hub->submit(next);
    if (status != 200) {
      state.SkipWithError(body.c_str());
      break;
    }
    runs += racers;
  }
  state.counters["submissions/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_SubmitInProcess(benchmark::State& state) { submit_benchmark(state, false); }
void BM_SubmitOverHttp(benchmark::State& state) { submit_benchmark(state, true); }

}  // namespace

BENCHMARK(BM_VerifyOnly)->Arg(2)->Arg(8)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SubmitInProcess)
    ->ArgsProduct({{2, 8}, {0, 1}})
    ->ArgNames({"racers", "in_memory"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_SubmitOverHttp)
    ->ArgsProduct({{2, 8}, {0, 1}})
    ->ArgNames({"racers", "in_memory"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

int main(int argc, char** argv) {
  spdlog::set_level(spdlog::level::warn);  // not a line per submission stored
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
