// deploy/Dockerfile, read as Docker would (no Docker engine needed): known instructions, Debian 12 stages, sources
// that exist, binaries that are CMake targets, a non-root runtime with a volume, the game port and a health check,
// stackrace-server arguments the server accepts, Debian packages that exist and cover the programs' libraries.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "tests/deploy/deploy_paths.h"
#include "tests/deploy/process.h"

namespace sr::test {
namespace {

namespace fs = std::filesystem;

struct Instruction {
  std::string keyword;  // upper case
  std::string args;
  std::size_t stage = 0;  // index of the FROM it belongs to
};

struct Stage {
  std::string image;
  std::string name;
  std::string workdir = "/";
};

struct Dockerfile {
  std::vector<Instruction> instructions;
  std::vector<Stage> stages;
};

const std::set<std::string> kKeywords = {"FROM", "RUN",     "CMD",        "LABEL",       "EXPOSE", "ENV",
                                         "ADD",  "COPY",    "ENTRYPOINT", "VOLUME",      "USER",   "WORKDIR",
                                         "ARG",  "ONBUILD", "STOPSIGNAL", "HEALTHCHECK", "SHELL"};

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

// Joins continuation lines and drops comments, as the Dockerfile frontend does.
Dockerfile parse_dockerfile(const std::string& text) {
  Dockerfile file;
  std::istringstream lines(text);
  std::string line, pending;
  while (std::getline(lines, line)) {
    const std::string t = trim(line);
    if (t.starts_with("#")) continue;  // comments, also inside continuations
    if (t.empty() && pending.empty()) continue;
    if (t.ends_with("\\")) {
      pending += t.substr(0, t.size() - 1) + " ";
      continue;
    }
    const std::string whole = trim(pending + t);
    pending.clear();
    if (whole.empty()) continue;
    const std::size_t space = whole.find(' ');
    Instruction in;
    in.keyword = whole.substr(0, space);
    in.args = space == std::string::npos ? "" : trim(whole.substr(space));
    EXPECT_TRUE(kKeywords.count(in.keyword) != 0) << "unknown instruction (or not upper case): " << whole;
    if (in.keyword == "FROM") {
      const std::vector<std::string> w = split_words(in.args);
      Stage stage;
      stage.image = w.at(0);
      if (w.size() == 3 && (w[1] == "AS" || w[1] == "as")) stage.name = w[2];
      file.stages.push_back(stage);
    }
    EXPECT_FALSE(file.stages.empty()) << "instruction before FROM: " << whole;
    in.stage = file.stages.empty() ? 0 : file.stages.size() - 1;
    if (in.keyword == "WORKDIR" && !file.stages.empty()) file.stages.back().workdir = in.args;
    file.instructions.push_back(in);
  }
  EXPECT_TRUE(pending.empty()) << "the file ends inside a continuation";
  return file;
}

// ["a", "b"] -> {a, b}; nullopt if not the exec (JSON array) form.
std::optional<std::vector<std::string>> exec_form(const std::string& args) {
  const std::string t = trim(args);
  if (!t.starts_with("[") || !t.ends_with("]")) return std::nullopt;
  std::vector<std::string> out;
  const std::regex item(R"re("([^"\\]*)")re");
  for (auto it = std::sregex_iterator(t.begin(), t.end(), item); it != std::sregex_iterator(); ++it) {
    out.push_back((*it)[1]);
  }
  return out;
}

std::vector<const Instruction*> find(const Dockerfile& f, const std::string& keyword, std::size_t stage) {
  std::vector<const Instruction*> out;
  for (const Instruction& in : f.instructions) {
    if (in.keyword == keyword && in.stage == stage) out.push_back(&in);
  }
  return out;
}

// The packages of every `apt-get install` in a RUN.
std::vector<std::string> apt_packages(const std::string& run) {
  std::vector<std::string> packages;
  const std::vector<std::string> words = split_words(run);
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i] != "install" || i == 0 || words[i - 1] != "apt-get") continue;
    for (std::size_t j = i + 1; j < words.size() && words[j] != "&&" && words[j] != ";"; ++j) {
      if (!words[j].starts_with("-")) packages.push_back(words[j]);
    }
  }
  return packages;
}

// The value after `option` in args, if any.
std::optional<std::string> value_of(const std::vector<std::string>& args, const std::string& option) {
  const auto it = std::find(args.begin(), args.end(), option);
  if (it == args.end() || it + 1 == args.end()) return std::nullopt;
  return *(it + 1);
}

class DockerfileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    text_ = read_text_file(deploy_dir() / "Dockerfile");
    ASSERT_FALSE(text_.empty());
    file_ = parse_dockerfile(text_);
    ASSERT_GE(file_.stages.size(), 2u) << "a multi-stage build";
    runtime_ = file_.stages.size() - 1;
  }
  [[nodiscard]] std::vector<std::string> entrypoint_and_cmd() const {
    std::vector<std::string> all;
    for (const char* k : {"ENTRYPOINT", "CMD"}) {
      const auto found = find(file_, k, runtime_);
      EXPECT_EQ(found.size(), 1u) << k;
      if (found.empty()) continue;
      const auto words = exec_form(found.back()->args);
      EXPECT_TRUE(words.has_value()) << k << " in exec form";
      if (words) all.insert(all.end(), words->begin(), words->end());
    }
    return all;
  }
  std::string text_;
  Dockerfile file_;
  std::size_t runtime_ = 0;
};

TEST_F(DockerfileTest, EveryStageIsDebian12AndTheRuntimeIsSlim) {
  for (const Stage& s : file_.stages) {
    EXPECT_TRUE(s.image.starts_with("debian:12") || s.image.starts_with("debian:bookworm")) << s.image;
    EXPECT_FALSE(s.name.empty()) << "name every stage (FROM image AS name): " << s.image;
  }
  EXPECT_TRUE(file_.stages.back().image.ends_with("slim")) << file_.stages.back().image;
}

TEST_F(DockerfileTest, CopiedSourcesExistInTheRepository) {
  int copies = 0;
  for (const Instruction& in : file_.instructions) {
    if (in.keyword == "ADD") ADD_FAILURE() << "use COPY, not ADD: " << in.args;
    if (in.keyword != "COPY" || in.args.find("--from=") != std::string::npos) continue;
    std::vector<std::string> words = split_words(in.args);
    ASSERT_GE(words.size(), 2u) << in.args;
    for (std::size_t i = 0; i + 1 < words.size(); ++i) {
      if (words[i].starts_with("--")) continue;
      EXPECT_TRUE(fs::exists(source_dir() / words[i])) << "COPY source missing: " << words[i];
      ++copies;
    }
  }
  EXPECT_GE(copies, 5);
  // A COPY'd script keeps its executable bit.
  EXPECT_NE(fs::status(deploy_dir() / "collect-replays.sh").permissions() & fs::perms::owner_exec, fs::perms::none);
  EXPECT_TRUE(fs::exists(deploy_dir() / "Dockerfile.dockerignore"));
}

// The build stage sees only what it COPYs: the project must configure from those sources alone, with the stage's own
// CMake options (a top-level add_subdirectory of a folder the image leaves out would fail here, as in `docker build`).
TEST_F(DockerfileTest, TheBuildStageConfiguresFromTheCopiedSourcesAlone) {
  TempDir context("stackrace-docker-context");
  std::vector<std::string> configure;
  for (const Instruction& in : file_.instructions) {
    if (in.keyword == "COPY" && in.args.find("--from=") == std::string::npos && in.stage + 1 < file_.stages.size()) {
      const std::vector<std::string> words = split_words(in.args);
      for (std::size_t i = 0; i + 1 < words.size(); ++i) {
        const fs::path from = source_dir() / words[i];
        const fs::path to = context.path() / fs::path(words[i]).relative_path();
        fs::create_directories(to.parent_path());
        fs::copy(from, to, fs::copy_options::recursive);
      }
    }
    if (in.keyword == "RUN" && in.args.find("cmake -S") != std::string::npos) {
      const std::vector<std::string> words = split_words(in.args);
      for (const std::string& w : words) {
        if (w == "&&") break;
        if (w.starts_with("-D") || w == "-G" || w == "Ninja") configure.push_back(w);
      }
    }
  }
  ASSERT_FALSE(configure.empty()) << "no `cmake -S` in a RUN of the build stage";
  std::vector<std::string> argv = {STACKRACE_CMAKE, "-S", context.path().string(), "-B",
                                   (context.path() / "build").string()};
  argv.insert(argv.end(), configure.begin(), configure.end());
  const ProcessResult r = run_process(argv);
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

TEST_F(DockerfileTest, BinariesComeFromTheCMakeTargetsTheBuildStageBuilds) {
  // Where CMake puts the programs, relative to the build directory (e.g. server/stackrace-server).
  const std::map<std::string, std::string> targets = {
      {"stackrace-server", fs::relative(STACKRACE_SERVER_BIN, STACKRACE_BINARY_DIR).string()},
      {"stackrace-replay", fs::relative(STACKRACE_REPLAY_BIN, STACKRACE_BINARY_DIR).string()},
  };
  std::string build_dir;
  std::set<std::string> built;
  std::size_t build_stage = 0;
  for (const Instruction& in : file_.instructions) {
    if (in.keyword != "RUN" || in.args.find("cmake --build") == std::string::npos) continue;
    build_stage = in.stage;
    const std::vector<std::string> w = split_words(in.args);
    build_dir = value_of(w, "-B").value_or("");
    const auto target = std::find(w.begin(), w.end(), "--target");
    ASSERT_NE(target, w.end()) << "build only the programs the image needs: " << in.args;
    for (auto it = target + 1; it != w.end() && !it->starts_with("-") && *it != "&&"; ++it) {
      EXPECT_TRUE(targets.count(*it) != 0) << "not a program target: " << *it;
      built.insert(*it);
    }
  }
  ASSERT_FALSE(build_dir.empty()) << "no cmake -B DIR ... cmake --build in a RUN";
  EXPECT_EQ(built.size(), targets.size());

  const Stage& stage = file_.stages[build_stage];
  const std::string prefix = stage.workdir + "/" + build_dir + "/";
  std::set<std::string> copied;
  bool site = false;
  for (const Instruction* in : find(file_, "COPY", runtime_)) {
    if (in->args.find("--from=") == std::string::npos) continue;
    const std::vector<std::string> w = split_words(in->args);
    EXPECT_EQ(w.at(0), "--from=" + stage.name);
    ASSERT_EQ(w.size(), 3u) << in->args;
    ASSERT_TRUE(w[1].starts_with(prefix)) << w[1] << " is not under " << prefix;
    const std::string relative = w[1].substr(prefix.size());
    // The web pages' site (web/README.md, "The site"), where the server looks for it when none is given.
    if (relative == fs::relative(STACKRACE_WEB_SITE, STACKRACE_BINARY_DIR).string()) {
      EXPECT_EQ(w[2], "/usr/share/stackrace/web");
      site = true;
      continue;
    }
    const auto target =
        std::find_if(targets.begin(), targets.end(), [&](const auto& t) { return t.second == relative; });
    ASSERT_NE(target, targets.end()) << relative << " is not where CMake puts a program";
    EXPECT_EQ(w[2], "/usr/local/bin/" + target->first);
    copied.insert(target->first);
  }
  EXPECT_EQ(copied.size(), targets.size());
  EXPECT_TRUE(site) << "the image has no web site (COPY --from=" << stage.name << " " << prefix << "web/site ...)";
}

TEST_F(DockerfileTest, RuntimeRunsAsNonRootWithDataVolumeGamePortAndHealthCheck) {
  const auto users = find(file_, "USER", runtime_);
  ASSERT_EQ(users.size(), 1u);
  const std::string uid = users[0]->args.substr(0, users[0]->args.find(':'));
  EXPECT_TRUE(std::all_of(uid.begin(), uid.end(), ::isdigit)) << "numeric, for runAsNonRoot: " << uid;
  EXPECT_NE(uid, "0");

  const auto volumes = find(file_, "VOLUME", runtime_);
  ASSERT_EQ(volumes.size(), 1u);
  const auto volume = exec_form(volumes[0]->args);
  ASSERT_TRUE(volume && volume->size() == 1);

  std::set<std::string> exposed;
  for (const Instruction* in : find(file_, "EXPOSE", runtime_)) {
    for (const std::string& p : split_words(in->args)) exposed.insert(p);
  }
  EXPECT_TRUE(exposed.count("7878/udp") != 0);

  const std::vector<std::string> run = entrypoint_and_cmd();
  ASSERT_FALSE(run.empty());
  EXPECT_EQ(run[0], "stackrace-server");
  EXPECT_EQ(value_of(run, "--data-dir"), volume->front()) << "the replay store is the volume";
  const std::optional<std::string> metrics_port = value_of(run, "--metrics-port");
  ASSERT_TRUE(metrics_port);
  EXPECT_TRUE(exposed.count(*metrics_port + "/tcp") != 0);
  const std::optional<std::string> web_port = value_of(run, "--web-port");
  ASSERT_TRUE(web_port) << "the image serves the web pages";
  EXPECT_TRUE(exposed.count(*web_port + "/tcp") != 0);

  const auto checks = find(file_, "HEALTHCHECK", runtime_);
  ASSERT_EQ(checks.size(), 1u);
  const std::size_t cmd = checks[0]->args.find("CMD ");
  ASSERT_NE(cmd, std::string::npos);
  const auto probe = exec_form(checks[0]->args.substr(cmd + 4));
  ASSERT_TRUE(probe && !probe->empty());
  EXPECT_EQ(probe->front(), "stackrace-server");
  EXPECT_TRUE(std::find(probe->begin(), probe->end(), "--health-check") != probe->end());
  EXPECT_EQ(value_of(*probe, "--metrics-port"), metrics_port) << "the health check asks the metrics port";
}

TEST_F(DockerfileTest, ServerArgumentsAreOptionsTheServerAccepts) {
  std::vector<std::string> run = entrypoint_and_cmd();
  ASSERT_FALSE(run.empty());
  run.erase(run.begin());
  EXPECT_EQ(check_server_args(run), "");
  const auto checks = find(file_, "HEALTHCHECK", runtime_);
  ASSERT_FALSE(checks.empty());
  auto probe = *exec_form(checks[0]->args.substr(checks[0]->args.find("CMD ") + 4));
  probe.erase(probe.begin());
  EXPECT_EQ(check_server_args(probe), "");
}

bool apt_knows_packages() {
  const ProcessResult r = run_process({"/usr/bin/apt-cache", "policy", "libc6"});
  return r.exit_code == 0 && r.output.find("Candidate: (none)") == std::string::npos &&
         r.output.find("Candidate:") != std::string::npos;
}

TEST_F(DockerfileTest, AptPackagesExistInDebian) {
  if (!fs::exists("/usr/bin/apt-cache") || !apt_knows_packages()) GTEST_SKIP() << "no apt package lists here";
  std::vector<std::string> all;
  for (const Instruction& in : file_.instructions) {
    if (in.keyword != "RUN") continue;
    const auto p = apt_packages(in.args);
    all.insert(all.end(), p.begin(), p.end());
  }
  ASSERT_GE(all.size(), 8u);
  for (const std::string& p : all) {
    const ProcessResult r = run_process({"/usr/bin/apt-cache", "policy", p});
    EXPECT_TRUE(r.output.find("Candidate:") != std::string::npos &&
                r.output.find("Candidate: (none)") == std::string::npos)
        << "no Debian package " << p << "\n"
        << r.output;
  }
}

// The Debian package holding each shared library a program needs directly (readelf NEEDED), except the C/C++
// runtime every image has and the sanitizer runtimes of test builds.
std::set<std::string> needed_packages(const std::string& program) {
  std::set<std::string> packages;
  const ProcessResult elf = run_process({"/usr/bin/readelf", "-d", program});
  const ProcessResult ldd = run_process({"/usr/bin/ldd", program});
  const std::regex needed(R"(\(NEEDED\)\s+Shared library: \[([^\]]+)\])");
  for (auto it = std::sregex_iterator(elf.output.begin(), elf.output.end(), needed); it != std::sregex_iterator();
       ++it) {
    const std::string soname = (*it)[1];
    if (soname.starts_with("libasan") || soname.starts_with("libubsan")) continue;
    const std::regex where("\\s" + std::regex_replace(soname, std::regex(R"([.+])"), R"(\$&)") + R"( => (\S+))");
    std::smatch m;
    if (!std::regex_search(ldd.output, m, where)) {
      ADD_FAILURE() << program << ": ldd does not resolve " << soname;
      continue;
    }
    std::error_code ec;
    const std::string path = fs::canonical(m[1].str(), ec).string();
    const ProcessResult owner = run_process({"/usr/bin/dpkg", "-S", path});
    const ProcessResult owner_link = run_process({"/usr/bin/dpkg", "-S", m[1].str()});
    const std::string& out = owner.exit_code == 0 ? owner.output : owner_link.output;
    const std::string package = out.substr(0, out.find_first_of(":,"));
    if (package == "libc6" || package == "libgcc-s1" || package == "libstdc++6") continue;
    EXPECT_FALSE(package.empty()) << soname;
    packages.insert(package);
  }
  return packages;
}

TEST_F(DockerfileTest, RuntimePackagesCoverTheProgramsLibraries) {
  for (const char* tool : {"/usr/bin/readelf", "/usr/bin/ldd", "/usr/bin/dpkg"}) {
    if (!fs::exists(tool)) GTEST_SKIP() << tool << " is missing";
  }
  std::set<std::string> runtime;
  for (const Instruction* in : find(file_, "RUN", runtime_)) {
    for (const std::string& p : apt_packages(in->args)) runtime.insert(p);
  }
  for (const char* program : {STACKRACE_SERVER_BIN, STACKRACE_REPLAY_BIN}) {
    const std::set<std::string> needed = needed_packages(program);
    EXPECT_FALSE(needed.empty()) << program;
    for (const std::string& p : needed) {
      EXPECT_TRUE(runtime.count(p) != 0) << program << " needs " << p << ", which the runtime stage does not install";
    }
  }
}

}  // namespace
}  // namespace sr::test
