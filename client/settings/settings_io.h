// Reading and writing settings.json. An I/O edge: file and parse errors are caught here and reported as values.
#pragma once

#include <filesystem>
#include <string>

#include "client/settings/settings.h"
#include "common/result.h"

namespace sr::client {

struct SettingsLoad {
  Settings settings;    // what to use: the file's contents, or defaults
  std::string problem;  // empty when the file was fine or absent; otherwise what was wrong (for the player)
  bool from_file = false;
};

// Loads `path`. A missing file gives defaults with no problem. A damaged file (not JSON, wrong types, missing
// fields, unknown key names) gives defaults and a problem sentence; the damaged file is kept beside as
// `settings.json.damaged` and replaced by the defaults. Out-of-range numbers are clamped and reported.
[[nodiscard]] SettingsLoad load_settings(const std::filesystem::path& path);

// Writes `s` atomically (temporary file, then rename), creating directories. Returns ok or an error sentence.
[[nodiscard]] sr::Status<std::string> save_settings(const std::filesystem::path& path, const Settings& s);

// JSON text of `s`, and its inverse (throws std::runtime_error with a sentence on bad input).
[[nodiscard]] std::string settings_to_json(const Settings& s);
[[nodiscard]] Settings settings_from_json(const std::string& json);

}  // namespace sr::client
