#include "common/protocol/web_url.h"

namespace sr::protocol {
namespace {

bool is_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// RFC 3986's pchar plus '/', '%' checked apart.
bool is_path_char(char c) {
  static constexpr std::string_view kOthers = "-._~!$&'()*+,;=:@/";
  return is_alnum(c) || kOthers.find(c) != std::string_view::npos;
}

sr::Status<std::string> check_host_name(std::string_view host) {
  if (host.empty()) return std::string("it has no host");
  if (host.size() > 253) return "its host has " + std::to_string(host.size()) + " bytes, at most 253";
  for (char c : host) {
    if (!is_alnum(c) && c != '.' && c != '-')
      return std::string("its host holds a character other than a-z, 0-9, '.' and '-'");
  }
  if (host.front() == '.' || host.front() == '-' || host.back() == '.' || host.back() == '-') {
    return std::string("its host starts or ends with '.' or '-'");
  }
  return {};
}

sr::Status<std::string> check_path(std::string_view path) {
  if (path.empty()) return {};
  if (path.front() != '/') return std::string("its path does not start with '/'");
  for (std::size_t i = 0; i < path.size(); ++i) {
    const char c = path[i];
    if (c == '%') {
      if (i + 2 >= path.size() || !is_hex(path[i + 1]) || !is_hex(path[i + 2])) {
        return "its path has a '%' at index " + std::to_string(i) + " without two hex digits";
      }
      i += 2;
    } else if (c == '?') {
      return std::string("it has a query ('?')");
    } else if (c == '#') {
      return std::string("it has a fragment ('#')");
    } else if (!is_path_char(c)) {
      return "its path holds a character that is not allowed there at index " + std::to_string(i);
    }
  }
  return {};
}

}  // namespace

sr::Result<WebUrl, std::string> parse_web_url(std::string_view text) {
  if (text.size() > kMaxWebUrlBytes) {
    return "it has " + std::to_string(text.size()) + " bytes, at most " + std::to_string(kMaxWebUrlBytes);
  }
  WebUrl url;
  std::string_view rest;
  if (text.rfind("http://", 0) == 0) {
    rest = text.substr(7);
    url.port = 80;
  } else if (text.rfind("https://", 0) == 0) {
    url.https = true;
    rest = text.substr(8);
    url.port = 443;
  } else {
    return std::string("it does not start with http:// or https://");
  }
  const std::size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  const std::string_view path = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  if (authority.find('@') != std::string_view::npos) return std::string("it has user info ('@') before its host");
  if (authority.find_first_of("?#") != std::string_view::npos) return std::string("it has a query or a fragment");
  std::string_view port_text;
  if (!authority.empty() && authority.front() == '[') {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos) return std::string("its IPv6 host has no closing ']'");
    const std::string_view v6 = authority.substr(1, close - 1);
    if (v6.empty() || v6.size() > 45) return std::string("its IPv6 host is empty or too long");
    for (char c : v6) {
      if (!is_hex(c) && c != ':' && c != '.')
        return std::string("its IPv6 host holds a character other than hex, ':' and '.'");
    }
    url.host = std::string(v6);
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return std::string("its IPv6 host is followed by something other than a port");
      port_text = after.substr(1);
      if (port_text.empty()) return std::string("it has an empty port");
    }
  } else {
    const std::size_t colon = authority.find(':');
    const std::string_view host = authority.substr(0, colon);
    if (auto ok = check_host_name(host); !ok) return ok.error();
    url.host = std::string(host);
    if (colon != std::string_view::npos) {
      port_text = authority.substr(colon + 1);
      if (port_text.empty()) return std::string("it has an empty port");
    }
  }
  if (!port_text.empty()) {
    if (port_text.size() > 5) return std::string("its port is not a number of 1 to 65535");
    std::uint32_t port = 0;
    for (char c : port_text) {
      if (c < '0' || c > '9') return std::string("its port is not a number of 1 to 65535");
      port = port * 10 + static_cast<std::uint32_t>(c - '0');
    }
    if (port < 1 || port > 65535) return std::string("its port is not a number of 1 to 65535");
    url.port = static_cast<std::uint16_t>(port);
  }
  if (auto ok = check_path(path); !ok) return ok.error();
  url.path = std::string(path);
  return url;
}

std::string to_string(const WebUrl& url) {
  std::string out = url.https ? "https://" : "http://";
  out += url.host.find(':') != std::string::npos ? "[" + url.host + "]" : url.host;
  if (url.port != (url.https ? 443 : 80)) out += ":" + std::to_string(url.port);
  return out + url.path;
}

}  // namespace sr::protocol
