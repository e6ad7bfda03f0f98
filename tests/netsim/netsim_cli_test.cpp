// stackrace-netsim, the program (tests/netsim/main.cpp): its options, its errors, and a run stopped by SIGINT.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <string>

#include "tests/deploy/process.h"
#include "tests/netsim/echo_bench.h"

namespace {

using namespace std::chrono_literals;

const std::string kNetsim = STACKRACE_NETSIM_BINARY;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(NetsimCli, HelpNamesTheOptionsAndProfiles) {
  const auto r = sr::test::run_process({kNetsim, "--help"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  for (const char* part : {"--server", "--listen", "--profile", "--seed", "--offset-ms", "wifi", "address-change"}) {
    EXPECT_TRUE(contains(r.output, part)) << part << " in:\n" << r.output;
  }
}

TEST(NetsimCli, RefusesAnUnknownProfileAndListsTheValidOnes) {
  const auto r = sr::test::run_process({kNetsim, "--server", "127.0.0.1:7878", "--profile", "dialup"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "unknown profile 'dialup'")) << r.output;
  EXPECT_TRUE(contains(r.output, "blackout45")) << r.output;
}

TEST(NetsimCli, RefusesAServerOtherThanLoopback) {
  const auto r = sr::test::run_process({kNetsim, "--server", "192.168.1.2:7878", "--profile", "lan"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "must be 127.0.0.1, not '192.168.1.2'")) << r.output;
}

TEST(NetsimCli, RefusesBadPorts) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--server", "127.0.0.1:70000", "--profile", "lan"},
        std::vector<std::string>{"--server", "127.0.0.1:0", "--profile", "lan"},
        std::vector<std::string>{"--server", "127.0.0.1", "--profile", "lan"},
        std::vector<std::string>{"--server", "127.0.0.1:7878", "--listen", "70000", "--profile", "lan"},
        std::vector<std::string>{"--server", "127.0.0.1:7878", "--listen", "-1", "--profile", "lan"}}) {
    std::vector<std::string> argv{kNetsim};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto r = sr::test::run_process(argv);
    EXPECT_EQ(r.exit_code, 2) << args[1] << " " << args[3] << ":\n" << r.output;
    EXPECT_TRUE(contains(r.output, "port")) << r.output;
  }
  const auto negative =
      sr::test::run_process({kNetsim, "--server", "127.0.0.1:7878", "--profile", "blackout3", "--offset-ms", "-5"});
  EXPECT_EQ(negative.exit_code, 2) << negative.output;
}

TEST(NetsimCli, ForwardsUntilSigintThenPrintsTheCounters) {
  sr::test::EchoBench bench;
  sr::test::ChildProcess netsim;
  ASSERT_TRUE(netsim.start(
      {kNetsim, "--server", "127.0.0.1:" + std::to_string(bench.server_port()), "--profile", "lan", "--seed", "7"}));
  const std::string prefix = "listening on 127.0.0.1:";
  ASSERT_TRUE(netsim.read_until(
      [&](const std::string& out) {
        const auto at = out.find(prefix);
        return at != std::string::npos && out.find(',', at) != std::string::npos;
      },
      30s))
      << netsim.output();
  const std::string& out = netsim.output();
  const int port = std::stoi(out.substr(out.find(prefix) + prefix.size()));
  ASSERT_GT(port, 0);

  ASSERT_TRUE(bench.client().send_to(static_cast<std::uint16_t>(port), sr::test::numbered(1, 100)));
  ASSERT_TRUE(bench.pump_until([&] { return bench.received().size() == 1; }, 20s));
  EXPECT_EQ(bench.received()[0], sr::test::numbered(1, 100));

  netsim.signal(SIGINT);
  const auto exit_code = netsim.wait(30s);
  ASSERT_EQ(exit_code, 0) << netsim.output();
  EXPECT_TRUE(contains(netsim.output(), "profile lan, seed 7")) << netsim.output();
  EXPECT_TRUE(contains(netsim.output(), "clients 1, address changes 0")) << netsim.output();
  EXPECT_TRUE(contains(netsim.output(), "client to server: in 1, out 1, lost 0")) << netsim.output();
  EXPECT_TRUE(contains(netsim.output(), "server to client: in 1, out 1, lost 0")) << netsim.output();
}

}  // namespace
