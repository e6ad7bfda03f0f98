#include "server/web/static_site.h"

#include <fstream>
#include <iterator>
#include <system_error>

#include "web/wasm/json_writer.h"

namespace sr::server::web {
namespace {

std::uint64_t fnv1a(const std::string& bytes) {
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001B3ull;
  }
  return h;
}

std::shared_ptr<const std::string> read_all(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return nullptr;
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return nullptr;
  return std::make_shared<const std::string>(std::move(bytes));
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string content_type_for(const std::string& name) {
  static const std::pair<const char*, const char*> kTypes[] = {
      {".html", "text/html; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".wasm", "application/wasm"},
      {".json", "application/json"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".txt", "text/plain; charset=utf-8"},
      {".md", "text/plain; charset=utf-8"},
  };
  for (const auto& [ext, type] : kTypes) {
    if (ends_with(name, ext)) return type;
  }
  return "application/octet-stream";
}

sr::Status<std::string> StaticSite::load(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return "no web site directory " + dir.string();
  files_.clear();
  std::uint64_t total = 0;
  std::filesystem::recursive_directory_iterator it(dir, ec), end;
  if (ec) return "cannot read " + dir.string() + ": " + ec.message();
  for (; it != end; it.increment(ec)) {
    if (ec) return "cannot read " + dir.string() + ": " + ec.message();
    if (!it->is_regular_file(ec) || it->is_symlink(ec)) continue;
    const std::filesystem::path& file = it->path();
    const std::string name = file.filename().string();
    if (name.empty() || name.front() == '.' || ends_with(name, ".gz")) continue;
    auto body = read_all(file);
    if (!body) return "cannot read " + file.string();
    total += body->size();
    if (total > kMaxSiteBytes) return "the web site in " + dir.string() + " is over 64 MiB";
    StaticFile f;
    f.content_type = content_type_for(name);
    f.etag = "\"" + sr::web::hex64(fnv1a(*body)) + "\"";
    f.body = std::move(body);
    std::filesystem::path gz = file;
    gz += ".gz";
    if (std::filesystem::is_regular_file(gz, ec)) {
      f.gzip = read_all(gz);
      if (f.gzip) total += f.gzip->size();
    }
    files_["/" + std::filesystem::relative(file, dir).generic_string()] = std::move(f);
  }
  return {};
}

const StaticFile* StaticSite::find(const std::string& path) const {
  const auto it = files_.find(path);
  return it == files_.end() ? nullptr : &it->second;
}

bool StaticSite::has_engine() const {
  return find("/wasm/stackrace_engine.js") != nullptr && find("/wasm/stackrace_engine.wasm") != nullptr;
}

}  // namespace sr::server::web
