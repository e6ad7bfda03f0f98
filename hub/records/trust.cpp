#include "hub/records/trust.h"

#include <fstream>
#include <sstream>

#include "common/protocol/text.h"

namespace sr::hub::records {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace

sr::Status<std::string> TrustList::add(std::string_view key_hex, std::string_view name) {
  std::string lower(key_hex);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
  }
  if (!net::from_hex<32>(lower)) {
    const std::string shown = key_hex.size() > 80 ? std::string(key_hex.substr(0, 80)) + "..." : std::string(key_hex);
    return "\"" + shown + "\" is not a server key (64 hexadecimal digits)";
  }
  if (!name.empty()) {
    if (auto ok = protocol::check_text(name, protocol::TextRule{protocol::TextKind::kLine, 1, kMaxTrustNameBytes});
        !ok) {
      return "the name of " + lower + ": " + ok.error();
    }
  }
  keys_.emplace(lower, std::string(name));
  return {};
}

sr::Status<std::string> TrustList::add_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return "cannot read the trust file " + file.string() + ": it does not exist or is not readable";
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) return "cannot read the trust file " + file.string();
  TrustList added = *this;
  std::string line;
  int number = 0;
  while (std::getline(text, line)) {
    ++number;
    std::string_view l = line;
    if (const std::size_t hash = l.find('#'); hash != std::string_view::npos) l = l.substr(0, hash);
    l = trim(l);
    if (l.empty()) continue;
    const std::size_t space = l.find_first_of(" \t");
    const std::string_view key = l.substr(0, space);
    const std::string_view name = space == std::string_view::npos ? std::string_view() : trim(l.substr(space));
    if (auto ok = added.add(key, name); !ok) {
      return file.string() + " line " + std::to_string(number) + ": " + ok.error();
    }
  }
  *this = std::move(added);
  return {};
}

std::string TrustList::name_of(const std::string& key_hex) const {
  const auto it = keys_.find(key_hex);
  return it == keys_.end() ? std::string() : it->second;
}

sr::Result<TrustList, std::string> load_trust(const std::vector<std::string>& keys,
                                              const std::vector<std::string>& files) {
  TrustList trust;
  for (const std::string& key : keys) {
    if (auto ok = trust.add(key); !ok) return "--trust: " + ok.error();
  }
  for (const std::string& file : files) {
    if (auto ok = trust.add_file(file); !ok) return ok.error();
  }
  return trust;
}

}  // namespace sr::hub::records
