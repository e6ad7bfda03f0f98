// The read API's addresses and query strings (common/protocol/RECORDS.md section 5), checked strictly: every
// parameter known, given once, with a value of its form and range. Anything else is refused with a sentence (400),
// so a hostile query string reaches neither the book nor a page.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.h"
#include "hub/records/record_book.h"

namespace sr::hub::records {

using QueryParams = std::multimap<std::string, std::string>;  // cpp-httplib's parameters, decoded

inline constexpr std::int64_t kDefaultPageEntries = 50;
inline constexpr std::int64_t kMaxPageEntries = 100;
inline constexpr std::int64_t kMaxOffset = 1'000'000'000;

// `?list=trusted|other&offset=0&limit=50` (all optional; defaults trusted, 0, kDefaultPageEntries).
struct ListQuery {
  ListKind list = ListKind::kTrusted;
  std::int64_t offset = 0;                   // 0..kMaxOffset
  std::int64_t limit = kDefaultPageEntries;  // 1..kMaxPageEntries
};
// # Errors: "unknown parameter \"x\": use list, offset, limit", "offset must be a whole number 0..1000000000", ...
[[nodiscard]] sr::Result<ListQuery, std::string> parse_list_query(const QueryParams& params);

// `?time_us=N` (a time goal), `?score=N` (a score goal) or `?lines=N` (a lines goal), and optionally `list=`: the
// rank value (board.h) such a result has on `board`. # Errors: a sentence; also when the parameter is not the
// board's goal ("sprint-40l ranks by time: ask with time_us=").
struct PlaceQuery {
  ListKind list = ListKind::kTrusted;
  std::int64_t rank_value = 0;
};
[[nodiscard]] sr::Result<PlaceQuery, std::string> parse_place_query(const QueryParams& params, const Board& board);

// A record id "<16 hex digits>-<racer 0..63>". The canonical form only (lower-case, no leading zero).
[[nodiscard]] bool is_record_id(std::string_view text);
// A game id: 16 lower-case hex digits.
[[nodiscard]] bool is_game_id(std::string_view text);
// A player as the address names them: 64 lower-case hex digits (a key) or 8 (its short id).
[[nodiscard]] bool is_player_ref(std::string_view text);

}  // namespace sr::hub::records
