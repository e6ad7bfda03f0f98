#include "tests/abuse/proc_status.h"

#include <charconv>
#include <fstream>
#include <sstream>
#include <string>

namespace sr::abuse {
namespace {

// The number of kB after "Key:" on its own line, or nullopt.
std::optional<std::int64_t> field_kb(std::string_view text, std::string_view key) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    if (line.size() <= key.size() || line.substr(0, key.size()) != key || line[key.size()] != ':') continue;
    line.remove_prefix(key.size() + 1);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    std::int64_t value = 0;
    const auto [ptr, error] = std::from_chars(line.data(), line.data() + line.size(), value);
    if (error != std::errc{} || value < 0) return std::nullopt;
    std::string_view unit(ptr, static_cast<std::size_t>(line.data() + line.size() - ptr));
    while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
    if (unit != "kB") return std::nullopt;
    return value;
  }
  return std::nullopt;
}

}  // namespace

std::optional<MemoryFigures> parse_proc_status(std::string_view text) {
  const auto rss = field_kb(text, "VmRSS");
  const auto hwm = field_kb(text, "VmHWM");
  if (!rss || !hwm) return std::nullopt;
  return MemoryFigures{*rss, *hwm};
}

std::optional<MemoryFigures> read_memory(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return parse_proc_status(text.str());
}

}  // namespace sr::abuse
