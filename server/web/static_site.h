// The site's files (web/README.md, "The site"): the pages, styles, scripts and the WebAssembly engine, read into
// memory once at start from the site directory the build assembles (build/<dir>/web/site; installed in
// /usr/share/stackrace/web). Each file keeps its gzip form (FILE.gz beside it, made by the build) for browsers that
// take it, and an ETag, so a reload costs a 304.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "common/result.h"

namespace sr::server::web {

struct StaticFile {
  std::string content_type;
  std::shared_ptr<const std::string> body;
  std::shared_ptr<const std::string> gzip;  // null when the site has no FILE.gz
  std::string etag;                         // "\"<16 hex digits>\"", a hash of body
};

class StaticSite {
 public:
  static constexpr std::uint64_t kMaxSiteBytes = 64u << 20;  // everything read, together

  // Reads every file under `dir` (not following links out of it). Ok, or why not (no such directory, too big).
  [[nodiscard]] sr::Status<std::string> load(const std::filesystem::path& dir);

  // The file at `path` ("/js/live.js": relative to the site directory), or null.
  [[nodiscard]] const StaticFile* find(const std::string& path) const;
  [[nodiscard]] std::size_t file_count() const { return files_.size(); }
  // Whether the engine (wasm/stackrace_engine.js and .wasm) is there: the replay, live and verify pages need it.
  [[nodiscard]] bool has_engine() const;

 private:
  std::map<std::string, StaticFile> files_;
};

// The Content-Type for a file name's extension ("application/octet-stream" for unknown ones).
[[nodiscard]] std::string content_type_for(const std::string& name);

}  // namespace sr::server::web
