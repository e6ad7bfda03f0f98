#include "server/web/http_request.h"

#include <algorithm>
#include <charconv>

#include "common/ascii.h"

namespace sr::server::web {
namespace {

bool is_token_char(char c) {
  if (c >= 'a' && c <= 'z') return true;
  if (c >= 'A' && c <= 'Z') return true;
  if (c >= '0' && c <= '9') return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool has_token(std::string_view list, std::string_view token) {
  const std::string l = ascii_lower(list);
  std::size_t start = 0;
  while (start <= l.size()) {
    const std::size_t comma = std::min(l.find(',', start), l.size());
    if (trim_blanks(std::string_view(l).substr(start, comma - start)) == token) return true;
    start = comma + 1;
  }
  return false;
}

ParseResult bad(std::string why) { return ParseResult{ParseStatus::kBad, 0, std::move(why)}; }

}  // namespace

std::optional<std::string_view> HttpRequest::header(std::string_view name) const {
  for (const auto& [n, v] : headers) {
    if (n == name) return std::string_view(v);
  }
  return std::nullopt;
}

std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '%') {
      if (i + 2 >= text.size()) return std::nullopt;
      const int hi = hex_value(text[i + 1]);
      const int lo = hex_value(text[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    } else if (c == '+' && plus_is_space) {
      c = ' ';
    }
    if (c == '\0') return std::nullopt;
    out.push_back(c);
  }
  return out;
}

std::optional<std::vector<std::pair<std::string, std::string>>> parse_query(std::string_view query) {
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t start = 0;
  while (start < query.size()) {
    const std::size_t amp = std::min(query.find('&', start), query.size());
    const std::string_view item = query.substr(start, amp - start);
    start = amp + 1;
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    auto name = percent_decode(item.substr(0, eq), true);
    auto value = percent_decode(eq == std::string_view::npos ? std::string_view() : item.substr(eq + 1), true);
    if (!name || !value) return std::nullopt;
    out.emplace_back(std::move(*name), std::move(*value));
  }
  return out;
}

ParseResult parse_request(std::string_view bytes, HttpRequest& out) {
  // Browsers may send an empty line between requests on a kept-alive connection (RFC 9112, 2.2): skip it.
  std::size_t skipped = 0;
  while (skipped + 1 < bytes.size() && bytes[skipped] == '\r' && bytes[skipped + 1] == '\n') skipped += 2;
  const std::string_view head_area = bytes.substr(skipped);
  const std::size_t end = head_area.find("\r\n\r\n");
  if (end == std::string_view::npos) {
    if (bytes.size() > kMaxHeadBytes) return ParseResult{ParseStatus::kTooLarge, 0, "request head too large"};
    return ParseResult{};
  }
  if (skipped + end + 4 > kMaxHeadBytes) return ParseResult{ParseStatus::kTooLarge, 0, "request head too large"};
  const std::string_view head = head_area.substr(0, end);
  out = HttpRequest{};

  // The request line: METHOD SP TARGET SP HTTP/1.x
  const std::size_t line_end = std::min(head.find("\r\n"), head.size());
  const std::string_view line = head.substr(0, line_end);
  const std::size_t sp1 = line.find(' ');
  const std::size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp1 == std::string_view::npos || sp2 == std::string_view::npos || line.find(' ', sp2 + 1) != line.npos) {
    return bad("malformed request line");
  }
  const std::string_view method = line.substr(0, sp1);
  const std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  const std::string_view version = line.substr(sp2 + 1);
  if (method.empty() || !std::all_of(method.begin(), method.end(), is_token_char)) return bad("malformed method");
  if (version == "HTTP/1.1") {
    out.version_minor = 1;
  } else if (version == "HTTP/1.0") {
    out.version_minor = 0;
  } else {
    return bad("unsupported HTTP version");
  }
  // Origin form only ("/path?query"): no absolute URLs, no "*".
  if (target.empty() || target.front() != '/') return bad("the request target must start with '/'");
  for (const char c : target) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7F) return bad("bad character in the request target");
  }
  out.method = std::string(method);
  out.target = std::string(target);
  const std::size_t qmark = target.find('?');
  const std::string_view raw_path = target.substr(0, qmark);
  if (qmark != std::string_view::npos) out.query = std::string(target.substr(qmark + 1));
  if (raw_path.find('#') != std::string_view::npos) return bad("a fragment in the request target");
  auto path = percent_decode(raw_path);
  if (!path) return bad("bad percent escape in the path");
  // No way out of the site: no backslashes and no dot segments after decoding.
  if (path->find('\\') != std::string::npos) return bad("a backslash in the path");
  std::size_t seg = 0;
  while (seg < path->size()) {
    const std::size_t next = std::min(path->find('/', seg + 1), path->size());
    const std::string_view segment = std::string_view(*path).substr(seg + 1, next - seg - 1);
    if (segment == "." || segment == "..") return bad("a dot segment in the path");
    seg = next;
  }
  out.path = std::move(*path);

  // Headers.
  std::size_t pos = line_end;
  std::optional<std::string_view> connection;
  while (pos < head.size()) {
    pos += 2;  // past "\r\n"
    const std::size_t next = std::min(head.find("\r\n", pos), head.size());
    const std::string_view h = head.substr(pos, next - pos);
    pos = next;
    if (h.empty()) continue;
    if (h.front() == ' ' || h.front() == '\t') return bad("folded header lines are obsolete");
    const std::size_t colon = h.find(':');
    if (colon == std::string_view::npos || colon == 0) return bad("malformed header line");
    const std::string_view name = h.substr(0, colon);
    if (!std::all_of(name.begin(), name.end(), is_token_char)) return bad("malformed header name");
    const std::string_view value = trim_blanks(h.substr(colon + 1));
    for (const char c : value) {
      const auto u = static_cast<unsigned char>(c);
      if ((u < 0x20 && c != '\t') || u == 0x7F) return bad("control character in a header value");
    }
    if (out.headers.size() >= kMaxHeaders) return ParseResult{ParseStatus::kTooLarge, 0, "too many headers"};
    out.headers.emplace_back(ascii_lower(name), std::string(value));
  }
  for (const auto& [name, value] : out.headers) {
    if (name == "transfer-encoding") return ParseResult{ParseStatus::kHasBody, 0, "request bodies are not accepted"};
    if (name == "content-length") {
      std::uint64_t length = 0;
      const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), length);
      if (ec != std::errc() || p != value.data() + value.size()) return bad("malformed Content-Length");
      if (length > 0) return ParseResult{ParseStatus::kHasBody, 0, "request bodies are not accepted"};
    }
    if (name == "connection" && !connection) connection = value;
  }
  if (out.version_minor == 0) {
    out.keep_alive = false;
  } else {
    out.keep_alive = !(connection && has_token(*connection, "close"));
  }
  return ParseResult{ParseStatus::kDone, skipped + end + 4, {}};
}

}  // namespace sr::server::web
