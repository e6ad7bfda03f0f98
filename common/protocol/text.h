// The rules for every string on the wire. decode() applies them and fails with kBadText / kTooLong; servers and
// clients use the same functions to check what a user typed before sending it.
//
// Lengths are in bytes of UTF-8. Names are plain printable ASCII so that every client can draw and compare them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "common/protocol/messages.h"
#include "common/result.h"

namespace sr::protocol {

enum class TextKind : std::uint8_t {
  kName = 0,       // printable ASCII (0x20..0x7E), no space at either end
  kAscii = 1,      // printable ASCII, any spaces
  kLine = 2,       // valid UTF-8 without control characters (C0, DEL, C1)
  kMultiline = 3,  // kLine, plus '\n'
  kRoomCode = 4,   // empty, or exactly kRoomCodeLength characters of kRoomCodeAlphabet
  kWebUrl = 5,     // empty, or an http(s) URL of the form web_url.h describes
};

struct TextRule {
  TextKind kind = TextKind::kLine;
  std::size_t min_bytes = 0;
  std::size_t max_bytes = 0;
};

inline constexpr TextRule kPlayerNameText{TextKind::kName, 1, kMaxPlayerNameBytes};
inline constexpr TextRule kRoomNameText{TextKind::kName, 1, kMaxRoomNameBytes};
inline constexpr TextRule kServerNameText{TextKind::kName, 1, kMaxServerNameBytes};
inline constexpr TextRule kClientVersionText{TextKind::kAscii, 0, kMaxClientVersionBytes};
inline constexpr TextRule kMotdText{TextKind::kMultiline, 0, kMaxMotdBytes};
inline constexpr TextRule kChatText{TextKind::kLine, 1, kMaxChatBytes};
inline constexpr TextRule kReasonText{TextKind::kLine, 0, kMaxReasonBytes};
inline constexpr TextRule kRoomCodeText{TextKind::kRoomCode, 0, kRoomCodeLength};
inline constexpr TextRule kWebUrlText{TextKind::kWebUrl, 0, kMaxWebUrlBytes};

// Room codes avoid look-alikes (no I, O, 0, 1). Servers generate them; clients upper-case what users type.
inline constexpr std::string_view kRoomCodeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

// Ok if the content of `text` (not its length) is allowed for `kind`, otherwise why not, e.g. "byte 0x07 at index 3
// is not printable".
[[nodiscard]] sr::Status<std::string> check_text_content(std::string_view text, TextKind kind);

// Length and content together: ok if `text` satisfies `rule`, otherwise a short reason.
[[nodiscard]] sr::Status<std::string> check_text(std::string_view text, const TextRule& rule);

[[nodiscard]] inline bool is_valid_player_name(std::string_view name) { return check_text(name, kPlayerNameText).ok(); }
[[nodiscard]] inline bool is_valid_room_code(std::string_view code) {
  return !code.empty() && check_text(code, kRoomCodeText).ok();
}

}  // namespace sr::protocol
