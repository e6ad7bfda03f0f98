// deploy/stackrace-server.service: its sections and keys, the hardening the issue asks for, an ExecStart that the
// server accepts and that matches the install steps of deploy/README.md, and (where systemd is installed)
// `systemd-analyze verify` with no complaint.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "tests/deploy/deploy_paths.h"
#include "tests/deploy/process.h"

namespace sr::test {
namespace {

namespace fs = std::filesystem;

// section -> key -> values (a key may repeat).
using Unit = std::map<std::string, std::map<std::string, std::vector<std::string>>>;

Unit parse_unit(const std::string& text) {
  Unit unit;
  std::string section;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line.front() == '[') {
      EXPECT_EQ(line.back(), ']') << line;
      section = line.substr(1, line.size() - 2);
      unit[section];
      continue;
    }
    EXPECT_FALSE(section.empty()) << "key outside a section: " << line;
    EXPECT_NE(line.back(), '\\') << "keep unit lines whole: " << line;
    const std::size_t eq = line.find('=');
    if (eq == std::string::npos) {
      ADD_FAILURE() << "not key=value: " << line;
      continue;
    }
    unit[section][line.substr(0, eq)].push_back(line.substr(eq + 1));
  }
  return unit;
}

class SystemdUnitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    text_ = read_text_file(deploy_dir() / "stackrace-server.service");
    ASSERT_FALSE(text_.empty());
    unit_ = parse_unit(text_);
  }
  [[nodiscard]] std::string only(const std::string& section, const std::string& key) const {
    const auto s = unit_.find(section);
    if (s == unit_.end()) return "<no section " + section + ">";
    const auto k = s->second.find(key);
    if (k == s->second.end()) return "<missing " + key + ">";
    EXPECT_EQ(k->second.size(), 1u) << key;
    return k->second.back();
  }
  std::string text_;
  Unit unit_;
};

TEST_F(SystemdUnitTest, HasTheThreeSections) {
  for (const char* s : {"Unit", "Service", "Install"}) EXPECT_TRUE(unit_.count(s) != 0) << s;
  EXPECT_EQ(unit_.size(), 3u);
  EXPECT_EQ(only("Install", "WantedBy"), "multi-user.target");
  EXPECT_FALSE(only("Unit", "Description").empty());
}

TEST_F(SystemdUnitTest, IsHardened) {
  const std::map<std::string, std::string> expected = {
      {"DynamicUser", "yes"},
      {"StateDirectory", "stackrace"},
      {"ProtectSystem", "strict"},
      {"ProtectHome", "yes"},
      {"NoNewPrivileges", "yes"},
      {"PrivateTmp", "yes"},
      {"PrivateDevices", "yes"},
      {"CapabilityBoundingSet", ""},
      {"AmbientCapabilities", ""},
      {"Restart", "on-failure"},
      {"RestrictAddressFamilies", "AF_INET AF_INET6 AF_UNIX"},
      {"RestrictNamespaces", "yes"},
      {"MemoryDenyWriteExecute", "yes"},
      {"LockPersonality", "yes"},
  };
  for (const auto& [key, value] : expected) EXPECT_EQ(only("Service", key), value) << key;
  EXPECT_EQ(unit_.at("Service").count("User"), 0u) << "DynamicUser, not a fixed user";
}

TEST_F(SystemdUnitTest, ExecStartIsTheInstalledServerWithOptionsItAccepts) {
  const std::vector<std::string> words = split_words(only("Service", "ExecStart"));
  ASSERT_GE(words.size(), 1u);
  EXPECT_EQ(words[0], "/usr/local/bin/stackrace-server");
  std::vector<std::string> args(words.begin() + 1, words.end());
  // The data directory is the state directory systemd makes writable.
  const auto data = std::find(args.begin(), args.end(), "--data-dir");
  ASSERT_NE(data, args.end());
  ASSERT_NE(data + 1, args.end());
  EXPECT_EQ(*(data + 1), "/var/lib/" + only("Service", "StateDirectory"));
  // The config file is the example, installed where the README puts it.
  const auto config = std::find(args.begin(), args.end(), "--config");
  ASSERT_NE(config, args.end());
  ASSERT_NE(config + 1, args.end());
  EXPECT_EQ(*(config + 1), "/etc/" + only("Service", "ConfigurationDirectory") + "/server.toml");
  const std::string readme = read_text_file(deploy_dir() / "README.md");
  EXPECT_NE(readme.find("deploy/server.example.toml /etc/stackrace/server.toml"), std::string::npos)
      << "deploy/README.md installs the example config as " << *(config + 1);
  EXPECT_NE(readme.find("/usr/local/bin/stackrace-server"), std::string::npos);
  EXPECT_NE(readme.find("deploy/stackrace-server.service"), std::string::npos);
  *(config + 1) = example_config_path().string();  // parse the file the README installs there
  EXPECT_EQ(check_server_args(args), "");
}

// A system call group as systemd knows it, nested groups expanded.
std::set<std::string> syscalls_of(const std::string& group) {
  std::set<std::string> out;
  const ProcessResult r = run_process({"/usr/bin/systemd-analyze", "syscall-filter", group});
  std::istringstream lines(r.output);
  std::string line;
  while (std::getline(lines, line)) {
    const std::size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos || start == 0 || line[start] == '#') continue;
    const std::string name = line.substr(start);
    if (name.starts_with("@")) {
      const std::set<std::string> nested = syscalls_of(name);
      out.insert(nested.begin(), nested.end());
    } else {
      out.insert(name);
    }
  }
  return out;
}

// The replay writer lowers its thread's priority with setpriority (nice 10): the filter must let it, and still
// refuse the rest of @resources.
TEST_F(SystemdUnitTest, TheSystemCallFilterAllowsSetpriorityOnly) {
  const std::vector<std::string>& filters = unit_.at("Service").at("SystemCallFilter");
  ASSERT_EQ(filters.size(), 2u);
  EXPECT_EQ(filters[0], "@system-service");
  ASSERT_TRUE(filters[1].starts_with("~"));
  const std::vector<std::string> denied = split_words(filters[1].substr(1));
  EXPECT_EQ(std::count(denied.begin(), denied.end(), "@resources"), 0);
  EXPECT_EQ(std::count(denied.begin(), denied.end(), "setpriority"), 0);
  if (!fs::exists("/usr/bin/systemd-analyze")) GTEST_SKIP() << "systemd-analyze is not installed";
  std::set<std::string> allowed = syscalls_of("@system-service");
  for (const std::string& d : denied) {
    for (const std::string& call : d.starts_with("@") ? syscalls_of(d) : std::set<std::string>{d}) allowed.erase(call);
  }
  EXPECT_EQ(allowed.count("setpriority"), 1u);
  for (const std::string& call : syscalls_of("@resources")) {
    if (call == "setpriority") continue;
    EXPECT_EQ(allowed.count(call), 0u) << call;
  }
  EXPECT_EQ(allowed.count("reboot"), 0u);  // @privileged still denied
}

TEST_F(SystemdUnitTest, SystemdAnalyzeVerifiesIt) {
  if (!fs::exists("/usr/bin/systemd-analyze")) GTEST_SKIP() << "systemd-analyze is not installed";
  // systemd-analyze wants the program to exist: point ExecStart at the built server (same arguments).
  TempDir dir("stackrace-unit");
  std::string text = text_;
  const std::string installed = "/usr/local/bin/stackrace-server";
  text.replace(text.find(installed), installed.size(), STACKRACE_SERVER_BIN);
  const fs::path unit = dir.path() / "stackrace-server.service";
  std::ofstream(unit) << text;
  const ProcessResult r = run_process({"/usr/bin/systemd-analyze", "verify", "--man=no", unit.string()});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  // Unknown keys and bad values are only warnings (exit 0): none may mention our unit.
  EXPECT_EQ(r.output.find("stackrace-server.service"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace sr::test
