// stackrace-hub, the program (hub/main.cpp), and its deployment files: --help lists the options deploy/README.md
// documents, the systemd unit's ExecStart and the image's CMD and HEALTHCHECK are accepted (--check-config), the
// image copies sources that exist, and the program serves, answers --health-check and stops on SIGTERM.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>
#include <vector>

extern char** environ;

namespace sr::hub {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = STACKRACE_SOURCE_DIR;
const std::string kHub = STACKRACE_HUB_BIN;

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string quote(const std::string& arg) { return "'" + arg + "'"; }

// Runs the hub with `args`; returns its exit status and puts its standard output in `out`.
int run_hub(const std::vector<std::string>& args, std::string* out = nullptr) {
  std::string command = quote(kHub);
  for (const std::string& a : args) command += " " + quote(a);
  command += " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return -1;
  std::string text;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe)) text.append(buf, n);
  const int status = ::pclose(pipe);
  if (out) *out = text;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The strings of a JSON array of strings (the exec form of CMD and HEALTHCHECK).
std::vector<std::string> exec_form(const std::string& text) {
  std::vector<std::string> out;
  const std::regex item(R"re("([^"\\]*)")re");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), item); it != std::sregex_iterator(); ++it) {
    out.push_back((*it)[1]);
  }
  return out;
}

TEST(HubProgram, HelpListsTheOptionsTheReadmeDocuments) {
  std::string help;
  ASSERT_EQ(run_hub({"--help"}, &help), 0) << help;
  const std::string readme = read_file(kSource / "deploy/README.md");
  const std::size_t section = readme.find("## Server directory (stackrace-hub)");
  ASSERT_NE(section, std::string::npos);
  // The option table: the section's lines starting with "| `--".
  std::string table;
  std::istringstream lines(readme.substr(section, readme.find("\n## ", section + 1) - section));
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("| `--")) table += line + "\n";
  }
  const std::regex option("`(--[a-z-]+)");
  int options = 0;
  for (auto it = std::sregex_iterator(table.begin(), table.end(), option); it != std::sregex_iterator(); ++it) {
    EXPECT_NE(help.find((*it)[1].str()), std::string::npos) << (*it)[1] << " is documented but not an option";
    ++options;
  }
  EXPECT_GE(options, 18);
}

TEST(HubProgram, BadOptionsAreRefused) {
  std::string out;
  EXPECT_NE(run_hub({"--expire-seconds", "0", "--check-config"}, &out), 0) << out;
  EXPECT_NE(run_hub({"--log-level", "loud", "--check-config"}, &out), 0) << out;
  EXPECT_EQ(run_hub({"--check-config"}, &out), 0) << out;
  EXPECT_EQ(out, "stackrace-hub: the options are valid\n");
}

TEST(HubDeploy, TheServiceUnitsExecStartIsAccepted) {
  const std::string unit = read_file(kSource / "deploy/stackrace-hub.service");
  const std::regex exec("\nExecStart=([^\n]*)");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(unit, m, exec));
  std::vector<std::string> args = words(m[1]);
  ASSERT_FALSE(args.empty());
  EXPECT_EQ(args[0], "/usr/local/bin/stackrace-hub");
  args.erase(args.begin());
  args.push_back("--check-config");
  std::string out;
  EXPECT_EQ(run_hub(args, &out), 0) << out;
  EXPECT_NE(unit.find("\nDynamicUser=yes\n"), std::string::npos);
  EXPECT_NE(unit.find("\nProtectSystem=strict\n"), std::string::npos);
}

TEST(HubDeploy, TheImagesCommandsAreAcceptedAndItsSourcesExist) {
  const std::string docker = read_file(kSource / "deploy/Dockerfile.hub");
  ASSERT_FALSE(docker.empty());
  EXPECT_TRUE(fs::exists(kSource / "deploy/Dockerfile.hub.dockerignore"));
  std::smatch m;
  ASSERT_TRUE(std::regex_search(docker, m, std::regex("\nENTRYPOINT (\\[[^\n]*\\])")));
  EXPECT_EQ(exec_form(m[1]), std::vector<std::string>{"stackrace-hub"});
  ASSERT_TRUE(std::regex_search(docker, m, std::regex("\nCMD (\\[[^\n]*\\])")));
  std::vector<std::string> args = exec_form(m[1]);
  args.push_back("--check-config");
  std::string out;
  EXPECT_EQ(run_hub(args, &out), 0) << out;
  ASSERT_TRUE(std::regex_search(docker, m, std::regex("\n +CMD (\\[[^\n]*\\])")));  // HEALTHCHECK's
  args = exec_form(m[1]);
  ASSERT_FALSE(args.empty());
  EXPECT_EQ(args[0], "stackrace-hub");
  args.erase(args.begin());
  args.push_back("--check-config");
  EXPECT_EQ(run_hub(args, &out), 0) << out;
  // Every COPY source (not --from) exists; the binary copied from the build stage is where CMake puts the target.
  const std::regex copy("\nCOPY ([^\n]*)");
  int copies = 0;
  for (auto it = std::sregex_iterator(docker.begin(), docker.end(), copy); it != std::sregex_iterator(); ++it) {
    const std::vector<std::string> w = words((*it)[1]);
    if (w.at(0).starts_with("--from=")) {
      if (w.at(1) == "/src/build/docker/web/site") {
        EXPECT_EQ(w.at(2), "/usr/share/stackrace/web") << "where the hub looks for the site (hub_site.h)";
        continue;
      }
      EXPECT_EQ(w.at(1), "/src/build/docker/hub/stackrace-hub");
      EXPECT_TRUE(fs::path(kHub).parent_path().filename() == "hub") << kHub;
      continue;
    }
    for (std::size_t i = 0; i + 1 < w.size(); ++i) {
      EXPECT_TRUE(fs::exists(kSource / w[i])) << w[i];
      ++copies;
    }
  }
  EXPECT_EQ(copies, 9);
}

// A free TCP port on loopback (free when asked; the hub binds it right after).
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  socklen_t len = sizeof a;
  EXPECT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len), 0);
  ::close(fd);
  return ntohs(a.sin_port);
}

TEST(HubProgram, ServesAnswersTheHealthCheckAndStopsOnSigterm) {
  const fs::path data = fs::temp_directory_path() / ("stackrace-hub-test-" + std::to_string(::getpid())) / "data";
  fs::remove_all(data.parent_path());
  const std::string port = std::to_string(free_port());
  std::vector<std::string> args = {kHub,         "--bind",      "127.0.0.1",   "--port", port,
                                   "--data-dir", data.string(), "--log-level", "warn"};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  ASSERT_EQ(::posix_spawn(&pid, kHub.c_str(), nullptr, nullptr, argv.data(), environ), 0);

  // Healthy within a deadline (the check itself waits for the answer; between tries, a short pause).
  bool healthy = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!healthy && std::chrono::steady_clock::now() < deadline) {
    healthy = run_hub({"--health-check", "--bind", "127.0.0.1", "--port", port}) == 0;
    if (!healthy) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(healthy);
  EXPECT_TRUE(fs::is_directory(data)) << "--data-dir is created";

  ASSERT_EQ(::kill(pid, SIGTERM), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  std::string out;
  EXPECT_NE(run_hub({"--health-check", "--bind", "127.0.0.1", "--port", port}, &out), 0);
  EXPECT_NE(out.find("stackrace-hub: no answer from http://127.0.0.1:" + port + "/healthz"), std::string::npos) << out;
  fs::remove_all(data.parent_path());
}

}  // namespace
}  // namespace sr::hub
