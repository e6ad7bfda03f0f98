// The web site the hub serves beside its own pages (web/README.md, "The site"): the very site the game server
// serves, as the build assembles it (build/<dir>/web/site; installed in /usr/share/stackrace/web), so that a record
// links to the same replay page the game servers show, with the engine compiled to WebAssembly re-simulating it in
// the browser. The hub serves only what that page needs: /games/<id> (game.html), /verify (verify.html), the icon,
// and css/, js/ and wasm/ (read from the folder by cpp-httplib's file server); the replay (/games/<id>.srr), its
// JSON form and /api/v1/games/<id> come from the hub's replay store (records_routes.h).
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "common/result.h"

namespace httplib {
class Server;
}

namespace sr::hub {

// Every response of the site's pages carries it: scripts, styles and connections from the hub only, WebAssembly
// compilation allowed, no inline script (as the game server's pages, web/README.md "Pages and players' text").
inline constexpr const char* kSitePolicy =
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
// The records pages: no script at all, the site's style sheet only.
inline constexpr const char* kPagePolicy =
    "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'";

class HubSite {
 public:
  // Reads the pages (game.html, verify.html, favicon.svg) from `dir` into memory and checks that css/ and js/ are
  // there. # Errors: "no web site in DIR (...)".
  [[nodiscard]] sr::Status<std::string> load(const std::filesystem::path& dir);

  [[nodiscard]] bool loaded() const { return !dir_.empty(); }
  [[nodiscard]] const std::filesystem::path& dir() const { return dir_; }
  // Whether wasm/stackrace_engine.js and .wasm are there (without them the replay page cannot re-simulate).
  [[nodiscard]] bool has_engine() const { return engine_; }
  // A page read at load(): "game.html", "verify.html", "favicon.svg"; null when not loaded.
  [[nodiscard]] const std::string* file(const std::string& name) const;

  // Serves css/, js/ and wasm/ from the folder on `http` (GET and HEAD), each answer with kSitePolicy.
  void mount(httplib::Server& http) const;

 private:
  std::filesystem::path dir_;
  std::map<std::string, std::string> files_;
  bool engine_ = false;
};

// The site folder beside the program when it runs from a build directory (build/<dir>/web/site), else
// /usr/share/stackrace/web: where stackrace-server looks too.
[[nodiscard]] std::filesystem::path default_site_dir();

}  // namespace sr::hub
