#include "common/replay/detail/json_visitors.h"

#include <limits>

namespace sr::replay::detail {

std::uint32_t JsonReader::class_version(const char* type, std::uint32_t current) {
  Scope s(ctx_, kClassVersionName);
  std::int64_t v = current;
  load(kClassVersionName, v, kOpt);
  if (v < 0) fail(ErrorKind::kBadValue, "class version is negative");
  if (v > static_cast<std::int64_t>(current)) {
    fail(ErrorKind::kNewerVersion, std::string(type) + " has class version " + std::to_string(v) +
                                       ", this build reads up to " + std::to_string(current));
  }
  return static_cast<std::uint32_t>(v);
}

void JsonReader::hash(const char* name, std::uint64_t& v) {
  Scope s(ctx_, name);
  std::string x;
  load(name, x, kReq);
  if (x.size() != 16) fail(ErrorKind::kBadValue, "a hash is 16 hex digits");
  std::uint64_t out = 0;
  for (char c : x) {
    int d = 0;
    if (c >= '0' && c <= '9') {
      d = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      d = c - 'a' + 10;
    } else {
      fail(ErrorKind::kBadValue, "a hash is 16 lower-case hex digits");
    }
    out = (out << 4) | static_cast<std::uint64_t>(d);
  }
  v = out;
}

void JsonReader::key(const char* name, std::optional<RacerKey>& k) {
  Scope s(ctx_, name);
  std::string x;
  if (!load(name, x, kOpt)) {
    k.reset();
    return;
  }
  k = key_from_hex(x);
  if (!k) fail(ErrorKind::kBadValue, "a key is 64 lower-case hex digits");
}

void JsonReader::pieces(const char* name, std::vector<engine::Piece>& v, Need need) {
  Scope s(ctx_, name);
  std::string x;
  if (!load(name, x, need)) return;
  std::vector<engine::Piece> out;
  out.reserve(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    engine::Piece p = engine::Piece::kNone;
    if (!engine::piece_from_letter(x[i], p) || !engine::is_tetromino(p)) {
      fail(ErrorKind::kBadValue, "character " + std::to_string(i) + " is not one of IJLOSTZ");
    }
    out.push_back(p);
  }
  v = std::move(out);
}

void JsonReader::board(const char* name, std::vector<engine::BoardRow>& rows, Need need) {
  Scope s(ctx_, name);
  const std::size_t n = start_array(name, need);
  if (n == std::numeric_limits<std::size_t>::max()) return;
  if (n > static_cast<std::size_t>(engine::kMatrixHeight))
    fail(ErrorKind::kBadValue, std::to_string(n) + " rows, at most 40");
  std::vector<engine::BoardRow> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    Scope e(ctx_, nullptr, static_cast<std::int64_t>(i));
    std::string text;
    ar_(text);
    if (text.size() != static_cast<std::size_t>(engine::kMatrixWidth))
      fail(ErrorKind::kBadValue, "a row is 10 characters");
    engine::BoardRow row(engine::kMatrixWidth, engine::Piece::kNone);
    for (std::size_t x = 0; x < text.size(); ++x) {
      if (!engine::piece_from_letter(text[x], row[x])) {
        fail(ErrorKind::kBadValue, "character " + std::to_string(x) + " is not one of .IJLOSTZG");
      }
    }
    out[n - 1 - i] = std::move(row);  // JSON lists the top row first; the engine wants the bottom row first
  }
  ar_.finishNode();
  rows = std::move(out);
}

void JsonReader::inputs(const char* name, std::vector<engine::InputChange>& v) {
  Scope s(ctx_, name);
  const std::size_t n = start_array(name, kReq);
  v.clear();
  v.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    Scope e(ctx_, nullptr, static_cast<std::int64_t>(i));
    ar_.startNode();
    cereal::size_type m = 0;
    ar_.loadSize(m);
    if (m != 2) fail(ErrorKind::kBadValue, "an input is [time_us, buttons]");
    std::int64_t t = 0, b = 0;
    ar_(t, b);
    ar_.finishNode();
    if (t < 0) fail(ErrorKind::kBadValue, "time_us is negative");
    if (b < 0 || b > 0xFFFF) fail(ErrorKind::kBadValue, "buttons must be 0..255 (engine::button bits)");
    v.push_back(engine::InputChange{t, static_cast<engine::Buttons>(b)});
  }
  ar_.finishNode();
}

bool JsonReader::checkpoints(const char* name, std::vector<engine::Checkpoint>& v, Need need) {
  Scope s(ctx_, name);
  const std::size_t n = start_array(name, need);
  if (n == std::numeric_limits<std::size_t>::max()) return false;
  v.assign(n, engine::Checkpoint{});
  for (std::size_t i = 0; i < n; ++i) {
    Scope e(ctx_, nullptr, static_cast<std::int64_t>(i));
    ar_.startNode();
    number("time_us", v[i].time_us, kReq);
    hash("state_hash", v[i].state_hash);
    ar_.finishNode();
  }
  ar_.finishNode();
  return true;
}

void JsonReader::recording(bool has_result, bool has_checkpoints) {
  RecordingRequest request;
  request.has_result = has_result;
  request.has_checkpoints = has_checkpoints;
  if ((!has_result || !has_checkpoints) && !ctx_.json_allow_recording) {
    Scope s(ctx_, has_result ? "checkpoints" : "result");
    fail(ErrorKind::kBadJson, "missing (stackrace-replay import records a missing result and checkpoints)");
  }
  if (!has_result) number("end_time_us", request.end_time_us, kOpt);
  ctx_.recording.push_back(request);
}

std::size_t JsonReader::start_array(const char* name, Need need) {
  try {
    ar_.setNextName(name);
    ar_.startNode();
  } catch (const cereal::Exception& e) {
    if (need == kOpt &&
        std::string(e.what()) == std::string("JSON Parsing failed - provided NVP (") + name + ") not found") {
      return std::numeric_limits<std::size_t>::max();
    }
    throw;
  }
  cereal::size_type n = 0;
  ar_.loadSize(n);
  return static_cast<std::size_t>(n);
}

}  // namespace sr::replay::detail
