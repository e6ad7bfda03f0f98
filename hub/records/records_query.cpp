#include "hub/records/records_query.h"

#include <set>

namespace sr::hub::records {
namespace {

bool is_hex(std::string_view s) {
  for (const char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

// A whole number lo..hi written in decimal digits only (no sign, no leading zero but "0" itself).
std::optional<std::int64_t> whole(const std::string& text, std::int64_t lo, std::int64_t hi) {
  if (text.empty() || text.size() > 18 || (text.size() > 1 && text.front() == '0')) return std::nullopt;
  std::int64_t v = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  if (v < lo || v > hi) return std::nullopt;
  return v;
}

// The parameter's name as a sentence may show it: printable ASCII only, at most 32 characters.
std::string shown(const std::string& name) {
  std::string out;
  for (const char c : name.substr(0, 32)) out += (c >= 0x20 && c < 0x7F) ? c : '?';
  return out + (name.size() > 32 ? "..." : "");
}

// Every parameter is one of `known` and given once. # Errors: the sentence.
sr::Status<std::string> check_names(const QueryParams& params, const std::set<std::string>& known,
                                    const std::string& use) {
  for (auto it = params.begin(); it != params.end(); it = params.upper_bound(it->first)) {
    if (known.count(it->first) == 0) return "unknown parameter \"" + shown(it->first) + "\": use " + use;
    if (params.count(it->first) > 1) return "the parameter " + it->first + " is given more than once";
  }
  return {};
}

sr::Result<ListKind, std::string> list_of(const QueryParams& params) {
  const auto it = params.find("list");
  if (it == params.end()) return ListKind::kTrusted;
  const std::optional<ListKind> list = list_from_name(it->second);
  if (!list) return std::string("list must be trusted or other");
  return *list;
}

}  // namespace

sr::Result<ListQuery, std::string> parse_list_query(const QueryParams& params) {
  if (auto ok = check_names(params, {"list", "offset", "limit"}, "list, offset, limit"); !ok) return ok.error();
  ListQuery q;
  auto list = list_of(params);
  if (!list) return list.error();
  q.list = list.value();
  if (const auto it = params.find("offset"); it != params.end()) {
    const auto v = whole(it->second, 0, kMaxOffset);
    if (!v) return "offset must be a whole number 0.." + std::to_string(kMaxOffset);
    q.offset = *v;
  }
  if (const auto it = params.find("limit"); it != params.end()) {
    const auto v = whole(it->second, 1, kMaxPageEntries);
    if (!v) return "limit must be a whole number 1.." + std::to_string(kMaxPageEntries);
    q.limit = *v;
  }
  return q;
}

sr::Result<PlaceQuery, std::string> parse_place_query(const QueryParams& params, const Board& board) {
  if (auto ok = check_names(params, {"list", "time_us", "score", "lines"}, "time_us, score or lines, and list"); !ok) {
    return ok.error();
  }
  PlaceQuery q;
  auto list = list_of(params);
  if (!list) return list.error();
  q.list = list.value();
  const char* want = board.goal == engine::GoalKind::kTime    ? "time_us"
                     : board.goal == engine::GoalKind::kScore ? "score"
                                                              : "lines";
  const char* ranks = board.goal == engine::GoalKind::kTime ? "time" : want;
  const auto it = params.find(want);
  if (it == params.end() || params.size() != (params.count("list") + 1)) {
    return board.id + " ranks by " + ranks + ": ask with " + want + "=N alone (and list= if you like)";
  }
  const auto v = whole(it->second, 0, 999'999'999'999'999'999);
  if (!v) return std::string(want) + " must be a whole number of at most 18 digits";
  q.rank_value = rank_value(board, *v);
  return q;
}

bool is_record_id(std::string_view text) {
  if (text.size() < 18 || text.size() > 19 || text[16] != '-' || !is_hex(text.substr(0, 16))) return false;
  const std::string racer(text.substr(17));
  return whole(racer, 0, 63).has_value();
}

bool is_game_id(std::string_view text) { return text.size() == 16 && is_hex(text); }

bool is_player_ref(std::string_view text) { return (text.size() == 64 || text.size() == 8) && is_hex(text); }

}  // namespace sr::hub::records
