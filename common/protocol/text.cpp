#include "common/protocol/text.h"

#include <cstdint>

#include "common/protocol/web_url.h"

namespace sr::protocol {
namespace {

std::string hex_byte(unsigned char c) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  return std::string("0x") + kDigits[c >> 4] + kDigits[c & 15];
}

std::string at(std::size_t i) { return " at index " + std::to_string(i); }

bool is_printable_ascii(unsigned char c) { return c >= 0x20 && c <= 0x7E; }

// Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF. Control characters
// (U+0000..U+001F, U+007F..U+009F) are refused except '\n' when allow_newline.
sr::Status<std::string> check_utf8(std::string_view s, bool allow_newline) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto lead = static_cast<unsigned char>(s[i]);
    // Sequence length from the lead byte, its payload bits, and the smallest code point that needs that length.
    std::size_t extra = 0;
    std::uint32_t cp = lead;
    std::uint32_t min_cp = 0;
    if (lead >= 0x80) {
      if ((lead & 0xE0) == 0xC0) {
        extra = 1;
        cp = lead & 0x1F;
        min_cp = 0x80;
      } else if ((lead & 0xF0) == 0xE0) {
        extra = 2;
        cp = lead & 0x0F;
        min_cp = 0x800;
      } else if ((lead & 0xF8) == 0xF0) {
        extra = 3;
        cp = lead & 0x07;
        min_cp = 0x10000;
      } else {
        return "byte " + hex_byte(lead) + at(i) + " does not start a UTF-8 character";
      }
    }
    if (s.size() - i <= extra) return "UTF-8 character" + at(i) + " is cut off";
    for (std::size_t k = 1; k <= extra; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      if ((c & 0xC0) != 0x80) return "byte " + hex_byte(c) + at(i + k) + " is not a UTF-8 continuation";
      cp = (cp << 6) | (c & 0x3F);
    }
    if (cp < min_cp) return "overlong UTF-8 character" + at(i);
    if (cp >= 0xD800 && cp <= 0xDFFF) return "UTF-16 surrogate" + at(i);
    if (cp > 0x10FFFF) return "code point above U+10FFFF" + at(i);
    const bool control = cp < 0x20 || (cp >= 0x7F && cp <= 0x9F);
    if (control && !(allow_newline && cp == '\n')) return "control character" + at(i);
    i += extra + 1;
  }
  return {};
}

}  // namespace

sr::Status<std::string> check_text_content(std::string_view text, TextKind kind) {
  switch (kind) {
    case TextKind::kName:
      if (!text.empty() && (text.front() == ' ' || text.back() == ' ')) return "starts or ends with a space";
      [[fallthrough]];
    case TextKind::kAscii:
      for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (!is_printable_ascii(c)) return "byte " + hex_byte(c) + at(i) + " is not printable ASCII";
      }
      return {};
    case TextKind::kLine: return check_utf8(text, false);
    case TextKind::kMultiline: return check_utf8(text, true);
    case TextKind::kRoomCode:
      if (text.empty()) return {};
      if (text.size() != kRoomCodeLength) {
        return "room code has " + std::to_string(text.size()) + " characters, must have " +
               std::to_string(kRoomCodeLength);
      }
      for (std::size_t i = 0; i < text.size(); ++i) {
        if (kRoomCodeAlphabet.find(text[i]) == std::string_view::npos) {
          return "byte " + hex_byte(static_cast<unsigned char>(text[i])) + at(i) + " is not a room code character";
        }
      }
      return {};
    case TextKind::kWebUrl:
      if (text.empty()) return {};
      if (auto url = parse_web_url(text); !url) return url.error();
      return {};
  }
  return "unknown text kind";
}

sr::Status<std::string> check_text(std::string_view text, const TextRule& rule) {
  if (text.size() > rule.max_bytes) {
    return std::to_string(text.size()) + " bytes, limit " + std::to_string(rule.max_bytes);
  }
  if (text.size() < rule.min_bytes) {
    return std::to_string(text.size()) + " bytes, needs at least " + std::to_string(rule.min_bytes);
  }
  return check_text_content(text, rule.kind);
}

}  // namespace sr::protocol
