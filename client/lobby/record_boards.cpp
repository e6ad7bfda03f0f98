#include "client/lobby/record_boards.h"

#include <rapidjson/document.h>
#include <rapidjson/error/error.h>

#include <optional>

#include "common/protocol/messages.h"
#include "common/replay/record_board.h"
#include "common/replay/replay.h"

namespace sr::client {
namespace {

using Value = rapidjson::Value;

constexpr std::int64_t kMaxStat = std::int64_t{1} << 62;
constexpr std::size_t kMaxModeBytes = 32;
constexpr std::size_t kMaxLimitBytes = 64;
constexpr std::size_t kMaxRecordIdBytes = 64;
constexpr std::size_t kMaxWebBytes = 200;

// Iterative: a body of ten thousand '[' cannot exhaust the stack. Validated: invalid UTF-8 is refused.
constexpr unsigned kParseFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag;

sr::Result<rapidjson::Document, std::string> parse_json(std::string_view json) {
  if (json.size() > kMaxRecordAnswerBytes) {
    return sr::fail("the answer is over " + std::to_string(kMaxRecordAnswerBytes) + " bytes");
  }
  rapidjson::Document doc;
  doc.Parse<kParseFlags>(json.data(), json.size());
  if (doc.HasParseError()) {
    const std::string at = " (at byte " + std::to_string(doc.GetErrorOffset()) + ")";
    if (doc.GetParseError() == rapidjson::kParseErrorStringInvalidEncoding) {
      return sr::fail("the answer is not valid UTF-8" + at);
    }
    return sr::fail("the answer is not JSON" + at);
  }
  if (!doc.IsObject()) return sr::fail(std::string("the answer is not a JSON object"));
  return doc;
}

bool lower_hex(std::string_view s, std::size_t digits) {
  if (s.size() != digits) return false;
  for (const char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

// Reads the members of one JSON object; the first problem is kept (with where it was) and every later read is a
// no-op, so a reader's caller checks once at the end.
class Reader {
 public:
  Reader(const Value& object, std::string where) : object_(object), where_(std::move(where)) {}

  [[nodiscard]] bool ok() const { return error_.empty(); }
  [[nodiscard]] const std::string& error() const { return error_; }
  void fail(const char* name, const std::string& problem) {
    if (ok()) error_ = (where_.empty() ? "" : where_ + ": ") + "\"" + name + "\" " + problem;
  }

  // A member's value, or null (and the problem noted unless `optional`).
  const Value* member(const char* name, bool optional = false) {
    if (!ok()) return nullptr;
    const auto it = object_.FindMember(name);
    if (it == object_.MemberEnd() || (optional && it->value.IsNull())) {
      if (!optional) fail(name, "is missing");
      return nullptr;
    }
    return &it->value;
  }

  // A string of at most max_bytes; control characters become '?'.
  std::string text(const char* name, std::size_t max_bytes, bool optional = false) {
    const Value* v = member(name, optional);
    if (v == nullptr) return {};
    if (!v->IsString()) {
      fail(name, "is not a string");
      return {};
    }
    if (v->GetStringLength() > max_bytes) {
      fail(name, "is over " + std::to_string(max_bytes) + " bytes");
      return {};
    }
    std::string s(v->GetString(), v->GetStringLength());
    for (char& c : s) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    }
    return s;
  }

  // `digits` lower-case hex digits.
  std::string hex(const char* name, std::size_t digits, bool optional = false) {
    const Value* v = member(name, optional);
    if (v == nullptr) return {};
    if (!v->IsString() || !lower_hex(std::string_view(v->GetString(), v->GetStringLength()), digits)) {
      fail(name, "is not " + std::to_string(digits) + " lower-case hexadecimal digits");
      return {};
    }
    return std::string(v->GetString(), v->GetStringLength());
  }

  // A whole number in lo..hi (a JSON integer; 41.5, 1e3 and "12" are not).
  std::int64_t whole(const char* name, std::int64_t lo, std::int64_t hi, bool optional = false) {
    const Value* v = member(name, optional);
    if (v == nullptr) return optional ? 0 : lo;
    if (!v->IsInt64() || v->GetInt64() < lo || v->GetInt64() > hi) {
      fail(name, "is not a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
      return lo;
    }
    return v->GetInt64();
  }

  bool flag(const char* name) {
    const Value* v = member(name);
    if (v == nullptr) return false;
    if (!v->IsBool()) {
      fail(name, "is not true or false");
      return false;
    }
    return v->GetBool();
  }

  std::string board(const char* name) {
    const Value* v = member(name);
    if (v == nullptr) return {};
    if (!v->IsString() || !replay::valid_board_id(std::string_view(v->GetString(), v->GetStringLength()))) {
      fail(name, "is not a board id");
      return {};
    }
    return std::string(v->GetString(), v->GetStringLength());
  }

  RecordList list(const char* name) {
    const Value* v = member(name);
    if (v == nullptr) return RecordList::kTrusted;
    const std::string_view s = v->IsString() ? std::string_view(v->GetString(), v->GetStringLength()) : "";
    if (s == "trusted") return RecordList::kTrusted;
    if (s == "other") return RecordList::kOther;
    fail(name, "is not \"trusted\" or \"other\"");
    return RecordList::kTrusted;
  }

  engine::GoalKind goal(const char* name) {
    const Value* v = member(name);
    if (v == nullptr) return engine::GoalKind::kTime;
    const std::string_view s = v->IsString() ? std::string_view(v->GetString(), v->GetStringLength()) : "";
    if (s == "time") return engine::GoalKind::kTime;
    if (s == "score") return engine::GoalKind::kScore;
    if (s == "lines") return engine::GoalKind::kLines;
    fail(name, "is not \"time\", \"score\" or \"lines\"");
    return engine::GoalKind::kTime;
  }

  // An array of at most `max` values; `beyond` says what more would be ("more than the 50 asked for").
  const Value* array(const char* name, std::size_t max, const std::string& beyond) {
    const Value* v = member(name);
    if (v == nullptr) return nullptr;
    if (!v->IsArray()) {
      fail(name, "is not an array");
      return nullptr;
    }
    if (v->Size() > max) {
      fail(name, "holds " + std::to_string(v->Size()) + " values, " + beyond);
      return nullptr;
    }
    return v;
  }

 private:
  const Value& object_;
  std::string where_;
  std::string error_;
};

bool record_id(std::string_view s) {
  if (s.empty() || s.size() > kMaxRecordIdBytes) return false;
  for (const char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '-')) return false;
  }
  return true;
}

sr::Result<RecordEntry, std::string> read_entry(const Value& v, std::size_t index) {
  const std::string where = "entries[" + std::to_string(index) + "]";
  if (!v.IsObject()) return sr::fail(where + " is not an object");
  Reader r(v, where);
  RecordEntry e;
  e.record = r.text("record", kMaxRecordIdBytes);
  if (r.ok() && !record_id(e.record)) r.fail("record", "is not a record id");
  e.place = r.whole("place", 1, kMaxRecordCount);
  e.player = r.text("player", kMaxRecordNameBytes);
  e.key = r.hex("key", 64, true);
  e.key_id = r.hex("key_id", 8);
  e.time_us = r.whole("time_us", 0, protocol::kMaxTimeUs);
  e.score = r.whole("score", 0, kMaxStat);
  e.lines = r.whole("lines", 0, kMaxStat);
  e.pieces = r.whole("pieces", 0, kMaxStat, true);
  e.rules_version = static_cast<std::uint32_t>(r.whole("rules_version", 1, 65535));
  e.server = r.text("server", kMaxRecordNameBytes);
  e.server_key_id = r.hex("server_key_id", 8);
  e.server_web = r.text("server_web", kMaxWebBytes, true);
  e.played_unix_ms = r.whole("played_unix_ms", 0, replay::kMaxCreatedUnixMs);
  e.game = r.hex("game", 16, true);
  if (!r.ok()) return sr::fail(r.error());
  return e;
}

}  // namespace

const char* record_list_name(RecordList list) { return list == RecordList::kOther ? "other" : "trusted"; }

sr::Result<std::vector<RecordBoardSummary>, std::string> parse_record_boards(std::string_view json) {
  auto doc = parse_json(json);
  if (!doc) return sr::fail(doc.error());
  Reader top(doc.value(), "");
  const Value* boards =
      top.array("boards", kMaxBoards, "more than the " + std::to_string(kMaxBoards) + " the game reads");
  if (boards == nullptr) return sr::fail(top.error());
  std::vector<RecordBoardSummary> out;
  for (rapidjson::SizeType i = 0; i < boards->Size(); ++i) {
    const Value& b = (*boards)[i];
    const std::string where = "boards[" + std::to_string(i) + "]";
    if (!b.IsObject()) return sr::fail(where + " is not an object");
    Reader r(b, where);
    RecordBoardSummary s;
    s.board = r.board("board");
    s.mode = r.text("mode", kMaxModeBytes);
    s.limit = r.text("limit", kMaxLimitBytes);
    s.goal = r.goal("goal");
    s.custom = r.flag("custom");
    s.trusted = r.whole("trusted", 0, kMaxRecordCount);
    s.other = r.whole("other", 0, kMaxRecordCount);
    if (!r.ok()) return sr::fail(r.error());
    out.push_back(std::move(s));
  }
  return out;
}

sr::Result<RecordPage, std::string> parse_record_page(std::string_view json, std::string_view board, RecordList list,
                                                      std::size_t max_entries) {
  auto doc = parse_json(json);
  if (!doc) return sr::fail(doc.error());
  Reader r(doc.value(), "");
  RecordPage page;
  page.board = r.board("board");
  if (r.ok() && page.board != board)
    r.fail("board", "is " + page.board + ", not the " + std::string(board) + " asked for");
  page.list = r.list("list");
  if (r.ok() && page.list != list) {
    r.fail("list", std::string("is ") + record_list_name(page.list) + ", not the " + record_list_name(list) +
                       " list asked for");
  }
  page.total = r.whole("total", 0, kMaxRecordCount);
  const Value* entries = r.array("entries", max_entries, "more than the " + std::to_string(max_entries) + " asked for");
  if (entries == nullptr) return sr::fail(r.error());
  for (rapidjson::SizeType i = 0; i < entries->Size(); ++i) {
    auto e = read_entry((*entries)[i], i);
    if (!e) return sr::fail(e.error());
    page.entries.push_back(std::move(e.value()));
  }
  return page;
}

sr::Result<RecordPlace, std::string> parse_record_place(std::string_view json, std::string_view board) {
  auto doc = parse_json(json);
  if (!doc) return sr::fail(doc.error());
  Reader r(doc.value(), "");
  RecordPlace p;
  p.board = r.board("board");
  if (r.ok() && p.board != board) r.fail("board", "is " + p.board + ", not the " + std::string(board) + " asked for");
  p.list = r.list("list");
  p.of = r.whole("of", 0, kMaxRecordCount);
  p.place = r.whole("place", 1, p.of + 1);
  if (!r.ok()) return sr::fail(r.error());
  return p;
}

}  // namespace sr::client
