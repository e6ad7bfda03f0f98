// ASCII text helpers for text that is ASCII by definition (HTTP header names and values, hexadecimal game ids): no
// locale, so the same bytes give the same answer on every machine. The one copy for the server's web pages and the
// game's HTTP client.
//
// Pure: standard library only.
#pragma once

#include <string>
#include <string_view>

namespace sr {

// `s` with A-Z turned into a-z; every other byte (digits, punctuation, UTF-8) unchanged.
[[nodiscard]] inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// `s` without its leading and trailing spaces and tabs (HTTP's optional whitespace); other blanks are kept.
[[nodiscard]] constexpr std::string_view trim_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace sr
