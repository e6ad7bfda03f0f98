#include "hub/hub_site.h"

#include <httplib.h>

#include <fstream>
#include <sstream>

namespace sr::hub {

sr::Status<std::string> HubSite::load(const std::filesystem::path& dir) {
  std::error_code ec;
  for (const char* folder : {"css", "js"}) {
    if (!std::filesystem::is_directory(dir / folder, ec)) {
      return "no web site in " + dir.string() + " (it has no " + folder + "/ folder)";
    }
  }
  std::map<std::string, std::string> files;
  for (const char* name : {"game.html", "verify.html", "favicon.svg"}) {
    std::ifstream in(dir / name, std::ios::binary);
    if (!in) return "no web site in " + dir.string() + " (it has no " + name + ")";
    std::stringstream bytes;
    bytes << in.rdbuf();
    files[name] = bytes.str();
  }
  dir_ = dir;
  files_ = std::move(files);
  engine_ = std::filesystem::is_regular_file(dir / "wasm" / "stackrace_engine.js", ec) &&
            std::filesystem::is_regular_file(dir / "wasm" / "stackrace_engine.wasm", ec);
  return {};
}

const std::string* HubSite::file(const std::string& name) const {
  const auto it = files_.find(name);
  return it == files_.end() ? nullptr : &it->second;
}

void HubSite::mount(httplib::Server& http) const {
  if (!loaded()) return;
  for (const char* folder : {"css", "js", "wasm"}) {
    (void)http.set_mount_point(std::string("/") + folder + "/", (dir_ / folder).string());
  }
  http.set_file_extension_and_mimetype_mapping("wasm", "application/wasm");
  http.set_file_extension_and_mimetype_mapping("js", "text/javascript; charset=utf-8");
  http.set_file_extension_and_mimetype_mapping("css", "text/css; charset=utf-8");
  http.set_file_request_handler([](const httplib::Request&, httplib::Response& res) {
    res.set_header("Content-Security-Policy", kSitePolicy);
    res.set_header("X-Content-Type-Options", "nosniff");
    res.set_header("Cache-Control", "no-cache");
  });
}

std::filesystem::path default_site_dir() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path built = exe.parent_path().parent_path() / "web" / "site";
    if (std::filesystem::is_directory(built, ec)) return built;
  }
  return "/usr/share/stackrace/web";
}

}  // namespace sr::hub
