// Reading and writing settings.json. An I/O edge: file and parse errors are caught here and reported as values.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "client/settings/settings.h"
#include "common/result.h"

namespace sr::client {

struct SettingsLoad {
  Settings settings;               // what to use: the file's contents, or defaults
  std::string problem;             // empty when the file was fine or absent; otherwise what was wrong (for the player)
  std::vector<std::string> reset;  // the fields reset to their defaults, each with why ("visuals.skin names no ...")
  bool from_file = false;
};

// Loads `path`. A missing file gives defaults with no problem. A field that cannot be used (missing, of the wrong
// kind, an unknown skin or key name) is reset to its default alone, and named in `reset` and the problem sentence;
// every other field is kept. A file that is not a settings file at all (not JSON, no object, an unknown format
// version) gives every default. Either way the file as it was is kept beside as `settings.json.damaged` and
// replaced by the settings used. Out-of-range numbers are clamped and reported.
[[nodiscard]] SettingsLoad load_settings(const std::filesystem::path& path);

// Writes `s` atomically (temporary file, then rename), creating directories. Returns ok or an error sentence.
[[nodiscard]] sr::Status<std::string> save_settings(const std::filesystem::path& path, const Settings& s);

// Writes `text` to `path` whole or not at all (a temporary file beside it, then renamed over it), creating the folder.
// Ok, or a sentence naming what could not be created, written or replaced. The client's small files go through it.
[[nodiscard]] sr::Status<std::string> write_file_atomically(const std::filesystem::path& path, const std::string& text);

// The whole text of the small file `path`, or nullopt when it cannot be read.
[[nodiscard]] std::optional<std::string> read_small_file(const std::filesystem::path& path);

// A damaged file the player may want a value back from: `path` is moved aside to PATH.damaged, then written anew as
// it is used (`save`). Returns what the player is told of it, to end the sentence about the damage: " The file as it
// was is kept as PATH.damaged." (nothing when it could not be moved), then the save's error if it failed.
[[nodiscard]] std::string keep_damaged_and_rewrite(const std::filesystem::path& path,
                                                   const std::function<sr::Status<std::string>()>& save);

// JSON text of `s`.
[[nodiscard]] std::string settings_to_json(const Settings& s);

// The settings in a JSON text, field by field: a field that cannot be used keeps its default and is named in
// `reset` ("handling.das_ms is not a whole number", "keys.hold names an unknown key (\"Foo\")"). A field added in a
// later format version than the file's keeps its default unnamed. Throws std::runtime_error with a sentence when
// the text is not a settings file at all (not JSON, no object at the top, no or an unknown format version).
struct SettingsRead {
  Settings settings;
  std::vector<std::string> reset;
};
[[nodiscard]] SettingsRead read_settings_json(const std::string& json);
// The same, strict: throws on the first field that cannot be used.
[[nodiscard]] Settings settings_from_json(const std::string& json);

}  // namespace sr::client
