#include <sstream>

// Cereal's JSON archive must come before any RapidJSON header: it makes RAPIDJSON_ASSERT throw (instead of
// assert()), which is what turns a wrong JSON type into an error value here.
// clang-format off
#include "common/replay/detail/serialization_json.h"
#include <rapidjson/error/en.h>
// clang-format on

#include "common/replay/codec.h"
#include "common/replay/detail/json_shape.h"
#include "common/replay/simulate.h"

namespace sr::replay {
namespace {

using detail::DecodeContext;
using detail::DecodeFailure;

// What the text outside its strings may not hold, checked in one pass before any parser sees it: nesting deeper than
// kMaxJsonDepth (Cereal's JSON archive parses recursively), and numbers that are not whole 64-bit numbers (a
// fraction, an exponent, a run of more than 20 digits), so RapidJSON's floating-point reader, which has undefined
// behaviour on some long fractions such as "0.000...0", never runs. Ok, or the first problem in words.
sr::Status<std::string> precheck_json(std::string_view text) {
  bool in_string = false;
  int depth = 0, digits = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '.' || ((c == 'e' || c == 'E') && digits > 0) || (digits == 20 && c >= '0' && c <= '9')) {
      return "numbers in a replay are whole numbers; the one at byte " + std::to_string(i) +
             " has a fraction, an exponent or too many digits";
    }
    digits = c >= '0' && c <= '9' ? digits + 1 : 0;
    if (c == '"') {
      in_string = true;
    } else if ((c == '[' || c == '{') && ++depth > kMaxJsonDepth) {
      return "nesting deeper than " + std::to_string(kMaxJsonDepth) + " at byte " + std::to_string(i);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return {};
}

// Turns Cereal's and RapidJSON's exception texts into something a person can act on.
std::string explain_json(const std::string& what) {
  const std::string missing = "JSON Parsing failed - provided NVP (";
  if (what.rfind(missing, 0) == 0) {
    return "missing member \"" + what.substr(missing.size(), what.find(')') - missing.size()) + "\"";
  }
  struct Hint {
    const char* needle;
    const char* text;
  };
  static constexpr Hint kHints[] = {
      {"kInt64Flag", "expected an integer"},     {"kUint64Flag", "expected a non-negative integer"},
      {"kIntFlag", "expected an integer"},       {"kUintFlag", "expected a non-negative integer"},
      {"IsBool", "expected true or false"},      {"IsString", "expected a string"},
      {"IsArray", "expected an array"},          {"IsObject", "expected an object"},
      {"No more objects", "array is too short"},
  };
  for (const Hint& h : kHints) {
    if (what.find(h.needle) != std::string::npos) return h.text;
  }
  return what;
}

// Records what hand-written racers left out (JsonOptions::record_missing).
void record_missing(Replay& replay, const std::vector<detail::RecordingRequest>& requests) {
  for (std::size_t i = 0; i < replay.racers.size() && i < requests.size(); ++i) {
    const detail::RecordingRequest& q = requests[i];
    Racer& racer = replay.racers[i];
    if (!q.has_result) {
      engine::TimeUs end = q.end_time_us >= 0 ? q.end_time_us : 0;
      record_racer(replay, i, end, ResultStatus::kForfeited);
      continue;
    }
    if (!q.has_checkpoints) {
      Simulation sim = simulate(racer_config(replay, i), replay.seed, racer.inputs, racer.result.stats.time_us,
                                replay.checkpoint_every);
      racer.checkpoints = std::move(sim.checkpoints);
    }
  }
}

// Cereal puts every array element on its own line; arrays of numbers ([time_us, buttons] inputs) read better on
// one line. Arrays of strings (board rows) keep one element per line, like a picture. Rewrites only white space outside
// strings, so the JSON value is unchanged.
std::string join_flat_arrays(const std::string& in) {
  std::string out;
  out.reserve(in.size());
  std::size_t i = 0;
  const auto skip_string = [&](std::size_t j) {  // j at the opening quote; returns the index after the closing one
    for (++j; j < in.size(); ++j) {
      if (in[j] == '\\') {
        ++j;
      } else if (in[j] == '"') {
        return j + 1;
      }
    }
    return j;
  };
  while (i < in.size()) {
    if (in[i] == '"') {
      const std::size_t end = skip_string(i);
      out.append(in, i, end - i);
      i = end;
      continue;
    }
    if (in[i] != '[') {
      out += in[i++];
      continue;
    }
    // Does this array hold numbers only (no string, array or object before its ']')?
    std::size_t j = i + 1;
    bool flat = true;
    while (j < in.size() && in[j] != ']') {
      if (in[j] == '[' || in[j] == '{' || in[j] == '"') {
        flat = false;
        break;
      }
      ++j;
    }
    if (!flat || j >= in.size()) {
      out += in[i++];
      continue;
    }
    out += '[';
    for (std::size_t k = i + 1; k < j;) {
      if (in[k] == ' ' || in[k] == '\n') {
        ++k;
      } else if (in[k] == ',') {
        out += ", ";
        ++k;
      } else {
        out += in[k++];
      }
    }
    out += ']';
    i = j + 1;
  }
  return out;
}

}  // namespace

std::string encode_json(const Replay& replay) {
  assert(check_replay(replay).ok());
  std::ostringstream os;
  {
    cereal::JSONOutputArchive ar(
        os, cereal::JSONOutputArchive::Options(324, cereal::JSONOutputArchive::Options::IndentChar::space, 1));
    ar(cereal::make_nvp("format", std::string("stackrace-replay")));
    ar(cereal::make_nvp("format_version", static_cast<std::uint32_t>(kFormatVersion)));
    detail::JsonWriter w(ar);
    const std::uint32_t version = detail::current_version<Replay>();
    w.class_version(version);
    detail::schema(w, const_cast<Replay&>(replay), version);
  }
  return join_flat_arrays(std::move(os).str()) + "\n";
}

Result<Replay> decode_json(std::string_view text, const JsonOptions& options) {
  if (text.size() > kMaxJsonBytes) {
    return Error{ErrorKind::kBadJson, "JSON replays are at most 64 MiB", {}, -1};
  }
  if (auto checked = precheck_json(text); !checked) {
    return Error{ErrorKind::kBadJson, std::move(checked).error(), {}, -1};
  }
  {
    // Plain JSON: no NaN or Infinity (a replay has neither), so the text Cereal parses next, with its own flags that
    // allow them, has none. RapidJSON's asserts throw under Cereal; a throw is a malformed file too.
    rapidjson::Document doc;
    try {
      doc.Parse<rapidjson::kParseNoFlags>(text.data(), text.size());  // not kParseDefaultFlags: Cereal redefines it
    } catch (const std::exception& e) {
      return Error{ErrorKind::kBadJson, std::string("malformed JSON: ") + e.what(), {}, -1};
    }
    if (doc.HasParseError()) {
      return Error{ErrorKind::kBadJson,
                   std::string("syntax error at byte ") + std::to_string(doc.GetErrorOffset()) + ": " +
                       rapidjson::GetParseError_En(doc.GetParseError()),
                   {},
                   -1};
    }
    if (!doc.IsObject()) return Error{ErrorKind::kBadJson, "a JSON replay is an object", {}, -1};
  }
  if (auto members = detail::check_members(text); !members) return Error{ErrorKind::kBadJson, members.error(), {}, -1};

  std::istringstream in{std::string(text)};
  DecodeContext ctx(nullptr, -1);
  ctx.json_allow_recording = options.record_missing;
  Replay replay;
  try {
    cereal::UserDataAdapter<DecodeContext, cereal::JSONInputArchive> ar(ctx, in);
    detail::JsonReader r(ar);
    std::string format = "stackrace-replay";
    r.text("format", format, 64, detail::kOpt);
    if (format != "stackrace-replay") detail::fail(ErrorKind::kBadJson, "\"format\" is not \"stackrace-replay\"");
    std::uint32_t format_version = kFormatVersion;
    r.number("format_version", format_version, detail::kOpt);
    if (format_version > kFormatVersion) {
      detail::fail(ErrorKind::kNewerVersion, "file format v" + std::to_string(format_version) +
                                                 ", this build reads up to v" + std::to_string(kFormatVersion));
    }
    const std::uint32_t version = r.class_version("Replay", detail::current_version<Replay>());
    detail::schema(r, replay, version);
  } catch (const DecodeFailure& e) {
    return Error{e.kind, e.message, ctx.failure_field(), -1};
  } catch (const std::exception& e) {
    return Error{ErrorKind::kBadJson, explain_json(e.what()), ctx.failure_field(), -1};
  }
  if (auto s = check_replay(replay); !s) return Error{ErrorKind::kBadValue, s.error(), {}, -1};
  if (options.record_missing) {
    record_missing(replay, ctx.recording);
    if (auto s = check_replay(replay); !s) return Error{ErrorKind::kBadValue, s.error(), {}, -1};
  }
  return replay;
}

}  // namespace sr::replay
