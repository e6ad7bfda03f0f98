// A small JSON text writer for the views the web API hands to JavaScript (json_views.h). Output only: nothing here
// parses. Strings are escaped as RFC 8259 asks (quote, backslash, control characters); the replay library already
// guarantees valid UTF-8 for names and places.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sr::web {

class JsonWriter {
 public:
  JsonWriter() = default;
  // html_safe: '<', '>' and '&' are written as \u003c, \u003e and \u0026 too (the same JSON value), so that text
  // from players can never form markup even where JSON is read as something else (the server's JSON API).
  explicit JsonWriter(bool html_safe) : html_safe_(html_safe) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  // The member name of the next value inside an object.
  JsonWriter& key(std::string_view name);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(std::int64_t number);
  JsonWriter& value(std::uint64_t number) = delete;  // 64-bit hashes and seeds travel as strings: JS numbers are
                                                     // exact only below 2^53
  JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
  JsonWriter& value(bool flag);
  JsonWriter& null();

  // The text written so far; every begin_* must have been closed.
  [[nodiscard]] const std::string& text() const { return out_; }

 private:
  void separate();  // the comma before a value that is not its container's first

  std::string out_;
  std::vector<bool> first_;  // per open container: nothing written in it yet
  bool after_key_ = false;
  bool html_safe_ = false;
};

// 16 lower-case hex digits, the form replay files and stackrace-replay use for hashes.
[[nodiscard]] std::string hex64(std::uint64_t v);

}  // namespace sr::web
