#include "server/directory_link.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cstring>

namespace sr::server {

IpAddress ipv4_address(std::uint32_t network_order) {
  IpAddress a{};
  a[10] = 0xFF;
  a[11] = 0xFF;
  std::memcpy(a.data() + 12, &network_order, 4);
  return a;
}

std::string ip_text(const IpAddress& address) {
  char text[INET6_ADDRSTRLEN] = {};
  constexpr std::array<std::uint8_t, 12> kMapped = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};
  if (std::equal(kMapped.begin(), kMapped.end(), address.begin())) {
    if (inet_ntop(AF_INET, address.data() + 12, text, sizeof text) == nullptr) return "?";
  } else if (inet_ntop(AF_INET6, address.data(), text, sizeof text) == nullptr) {
    return "?";
  }
  return text;
}

void DirectoryLink::set_directory_addresses(std::vector<IpAddress> addresses) {
  std::lock_guard lock(mutex_);
  addresses_ = std::move(addresses);
}

bool DirectoryLink::offer_token(const IpAddress& from, const std::string& token, std::int64_t now_us) {
  std::lock_guard lock(mutex_);
  if (std::find(addresses_.begin(), addresses_.end(), from) == addresses_.end()) return false;
  token_ = token;
  token_at_us_ = now_us;
  return true;
}

std::optional<std::string> DirectoryLink::take_token(std::int64_t now_us) {
  std::lock_guard lock(mutex_);
  std::optional<std::string> token = std::move(token_);
  token_.reset();
  if (token && now_us - token_at_us_ > kTokenKeptUs) return std::nullopt;
  return token;
}

void DirectoryLink::publish_info(std::string info_json) {
  std::lock_guard lock(mutex_);
  info_ = std::move(info_json);
}

std::string DirectoryLink::info() const {
  std::lock_guard lock(mutex_);
  return info_;
}

}  // namespace sr::server
