// Internal: the schema visitors for JSON (FORMAT.md, "JSON"). Numbers are JSON integers, enums their names
// (names.h), hashes 16 lower-case hex digits, piece sequences strings of letters, boards arrays of 10-letter rows
// (top row first), input logs arrays of [time_us, buttons]. Every object of a stored type carries
// "cereal_class_version"; on import it may be left out (= the current version), like any member the schema marks
// optional.
#pragma once

#include <cereal/archives/json.hpp>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#ifndef RAPIDJSON_ASSERT_THROWS
#error "RapidJSON was included before Cereal's JSON archive: its assertions would abort instead of throwing"
#endif

#include "common/replay/detail/decode_context.h"
#include "common/replay/detail/schema.h"
#include "common/replay/detail/text_codec.h"

namespace sr::replay::detail {

inline constexpr const char* kClassVersionName = "cereal_class_version";

class JsonWriter {
 public:
  static constexpr bool kLoading = false;
  explicit JsonWriter(cereal::JSONOutputArchive& ar) : ar_(ar) {}

  void class_version(std::uint32_t v) { ar_(cereal::make_nvp(kClassVersionName, v)); }

  template <class I>
  void number(const char* name, const I& v, Need) {
    if constexpr (std::is_same_v<I, std::uint64_t>) {
      ar_(cereal::make_nvp(name, v));
    } else {
      ar_(cereal::make_nvp(name, static_cast<std::int64_t>(v)));
    }
  }
  void flag(const char* name, const bool& v, Need) { ar_(cereal::make_nvp(name, v)); }
  template <class E, std::size_t N>
  void choice(const char* name, const E& v, const std::array<const char*, N>& table, Need) {
    ar_(cereal::make_nvp(name, std::string(names::name_of(table, v))));
  }
  void text(const char* name, const std::string& s, std::size_t, Need) { ar_(cereal::make_nvp(name, s)); }
  void fixed64(const char* name, const std::uint64_t& v, Need) { ar_(cereal::make_nvp(name, v)); }
  void hash(const char* name, const std::uint64_t& v) { ar_(cereal::make_nvp(name, hash_hex(v))); }
  void pieces(const char* name, const std::vector<engine::Piece>& v, Need) {
    ar_(cereal::make_nvp(name, pieces_text(v)));
  }
  void board(const char* name, const std::vector<engine::BoardRow>& rows, Need) {
    start_array(name);
    for (auto it = rows.rbegin(); it != rows.rend(); ++it) ar_(row_text(*it));
    ar_.finishNode();
  }
  template <class T>
  bool object(const char* name, const T& v, Need) {
    ar_(cereal::make_nvp(name, v));
    return true;
  }
  template <class T>
  void objects(const char* name, const std::vector<T>& v, std::size_t, std::size_t) {
    start_array(name);
    for (const T& e : v) ar_(e);
    ar_.finishNode();
  }
  void inputs(const char* name, const std::vector<engine::InputChange>& v) {
    start_array(name);
    for (const engine::InputChange& c : v) {
      ar_.startNode();
      ar_.makeArray();
      ar_(static_cast<std::int64_t>(c.time_us), static_cast<std::int64_t>(c.buttons));
      ar_.finishNode();
    }
    ar_.finishNode();
  }
  bool checkpoints(const char* name, const std::vector<engine::Checkpoint>& v, Need) {
    start_array(name);
    for (const engine::Checkpoint& c : v) {
      ar_.startNode();
      ar_(cereal::make_nvp("time_us", static_cast<std::int64_t>(c.time_us)),
          cereal::make_nvp("state_hash", hash_hex(c.state_hash)));
      ar_.finishNode();
    }
    ar_.finishNode();
    return true;
  }
  void recording(bool, bool) {}
  // 64 lower-case hex digits; left out when there is no key.
  void key(const char* name, const std::optional<RacerKey>& k) {
    if (k) ar_(cereal::make_nvp(name, key_hex(*k)));
  }

 private:
  void start_array(const char* name) {
    ar_.setNextName(name);
    ar_.startNode();
    ar_.makeArray();
  }
  cereal::JSONOutputArchive& ar_;
};

class JsonReader {
 public:
  static constexpr bool kLoading = true;
  explicit JsonReader(cereal::JSONInputArchive& ar) : ar_(ar), ctx_(context_of(ar)) {}

  // The object's "cereal_class_version", or `current` when left out.
  std::uint32_t class_version(const char* type, std::uint32_t current);

  template <class I>
  void number(const char* name, I& v, Need need) {
    Scope s(ctx_, name);
    if constexpr (std::is_same_v<I, std::uint64_t>) {
      std::uint64_t x = 0;
      if (load(name, x, need)) v = x;
    } else {
      std::int64_t x = 0;
      if (!load(name, x, need)) return;
      if (x < 0) fail(ErrorKind::kBadValue, std::to_string(x) + " is negative");
      if (static_cast<std::uint64_t>(x) > type_max<I>())
        fail(ErrorKind::kBadValue, std::to_string(x) + " is too large");
      v = static_cast<I>(x);
    }
  }
  void flag(const char* name, bool& v, Need need) {
    Scope s(ctx_, name);
    bool x = false;
    if (load(name, x, need)) v = x;
  }
  template <class E, std::size_t N>
  void choice(const char* name, E& v, const std::array<const char*, N>& table, Need need) {
    Scope s(ctx_, name);
    std::string x;
    if (!load(name, x, need)) return;
    const auto i = names::index_of(table, x);
    if (!i) fail(ErrorKind::kBadValue, "unknown name \"" + x + "\"");
    v = static_cast<E>(*i);
  }
  void text(const char* name, std::string& s, std::size_t max_bytes, Need need) {
    Scope scope(ctx_, name);
    std::string x;
    if (!load(name, x, need)) return;
    if (!valid_text(x, max_bytes)) {
      fail(ErrorKind::kBadValue, "must be at most " + std::to_string(max_bytes) + " bytes of UTF-8 without controls");
    }
    s = std::move(x);
  }
  void fixed64(const char* name, std::uint64_t& v, Need need) { number(name, v, need); }
  void hash(const char* name, std::uint64_t& v);
  void pieces(const char* name, std::vector<engine::Piece>& v, Need need);
  void board(const char* name, std::vector<engine::BoardRow>& rows, Need need);
  template <class T>
  bool object(const char* name, T& v, Need need) {
    Scope s(ctx_, name);
    return load(name, v, need);
  }
  template <class T>
  void objects(const char* name, std::vector<T>& v, std::size_t max_count, std::size_t) {
    Scope s(ctx_, name);
    const std::size_t n = start_array(name, kReq);
    if (n > max_count)
      fail(ErrorKind::kBadValue, "count " + std::to_string(n) + ", at most " + std::to_string(max_count));
    v.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      Scope e(ctx_, nullptr, static_cast<std::int64_t>(i));
      ar_(v[i]);
    }
    ar_.finishNode();
  }
  void inputs(const char* name, std::vector<engine::InputChange>& v);
  bool checkpoints(const char* name, std::vector<engine::Checkpoint>& v, Need need);
  void recording(bool has_result, bool has_checkpoints);
  void key(const char* name, std::optional<RacerKey>& k);

 private:
  // Loads member `name` into `value`. Returns false when it is absent and `need` allows that.
  template <class T>
  bool load(const char* name, T& value, Need need) {
    if (need == kReq) {
      ar_(cereal::make_nvp(name, value));
      return true;
    }
    try {
      ar_(cereal::make_nvp(name, value));
      return true;
    } catch (const cereal::Exception& e) {
      // Cereal names a missing member this way and throws before it moves in the document.
      if (std::string(e.what()) == std::string("JSON Parsing failed - provided NVP (") + name + ") not found") {
        return false;
      }
      throw;
    }
  }
  // Enters array member `name` and returns its length; false-y (SIZE_MAX) when absent and optional.
  std::size_t start_array(const char* name, Need need);

  cereal::JSONInputArchive& ar_;
  DecodeContext& ctx_;
};

}  // namespace sr::replay::detail
