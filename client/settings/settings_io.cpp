#include "client/settings/settings_io.h"

// Cereal's JSON archive must come before any RapidJSON header: it makes RAPIDJSON_ASSERT throw (instead of
// assert()), which is what turns a wrong JSON type in settings.json into a reported error.
// clang-format off
#include <cereal/archives/json.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
// clang-format on

#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace sr::client {
namespace {

// settings.json format version. Version 1: version, player_name, handling, visuals, keys, pad.
// Version 2 adds servers {names, addresses} (the multiplayer menu's saved servers, two arrays of equal length).
// Version 3 adds frame_cap. Version 4 adds sound {master_volume, effects_volume, mute_unfocused}; an older file gets
// the default sound settings.
constexpr int kFormatVersion = 4;

template <typename Archive, typename Fn>
void node(Archive& ar, const char* name, Fn&& fn) {
  ar.setNextName(name);
  ar.startNode();
  fn();
  ar.finishNode();
}

std::vector<std::string> names_of(const std::vector<int>& codes, bool pad) {
  std::vector<std::string> out;
  for (int c : codes) {
    std::string n = pad ? pad_name(c) : key_name(c);
    if (!n.empty()) out.push_back(std::move(n));
  }
  return out;
}

constexpr std::size_t kMaxSettingsBytes = 1 << 20;
constexpr int kMaxNesting = 16;  // the file nests 3 deep

// The settings text as Cereal should read it. Cereal parses at full precision, and RapidJSON's full-precision number
// reader takes clz(0), which is undefined, on a zero written with a far exponent ("0." and 23 zeros, "0e-30"); its
// parser and writer also recurse once per nesting level. So: nesting is checked first, the text is parsed with the
// plain reader (which has neither problem, and refuses NaN and Infinity), and Cereal reads what that wrote back.
std::string plain_json(const std::string& json) {
  if (json.size() > kMaxSettingsBytes) throw std::runtime_error("a settings file is at most 1 MiB");
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxNesting) throw std::runtime_error("nested more than 16 deep");
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  rapidjson::Document doc;
  try {
    doc.Parse<rapidjson::kParseNoFlags>(json.data(), json.size());  // not kParseDefaultFlags: Cereal redefines it
  } catch (const std::exception& e) {                               // RapidJSON's asserts throw under Cereal
    throw std::runtime_error(std::string("malformed JSON: ") + e.what());
  }
  if (doc.HasParseError()) {
    throw std::runtime_error("syntax error at byte " + std::to_string(doc.GetErrorOffset()) + ": " +
                             rapidjson::GetParseError_En(doc.GetParseError()));
  }
  rapidjson::StringBuffer out;
  rapidjson::Writer<rapidjson::StringBuffer> writer(out);
  doc.Accept(writer);
  return std::string(out.GetString(), out.GetSize());
}

}  // namespace

std::string settings_to_json(const Settings& s) {
  std::ostringstream os;
  {
    cereal::JSONOutputArchive ar(os);
    ar(cereal::make_nvp("version", kFormatVersion));
    ar(cereal::make_nvp("player_name", s.player_name));
    node(ar, "servers", [&] {
      std::vector<std::string> names, addresses;
      for (const auto& server : s.servers) {
        names.push_back(server.name);
        addresses.push_back(server.address);
      }
      ar(cereal::make_nvp("names", names), cereal::make_nvp("addresses", addresses));
    });
    node(ar, "handling", [&] {
      ar(cereal::make_nvp("das_ms", s.handling.das_ms), cereal::make_nvp("arr_ms", s.handling.arr_ms),
         cereal::make_nvp("sdf", s.handling.sdf), cereal::make_nvp("dcd_ms", s.handling.dcd_ms));
    });
    node(ar, "visuals", [&] {
      ar(cereal::make_nvp("ghost", s.visuals.ghost), cereal::make_nvp("grid", s.visuals.grid),
         cereal::make_nvp("board_scale", s.visuals.board_scale),
         cereal::make_nvp("skin", std::string(skin_name(s.visuals.skin))));
    });
    ar(cereal::make_nvp("frame_cap", s.frame_cap));
    node(ar, "sound", [&] {
      ar(cereal::make_nvp("master_volume", s.sound.master_volume),
         cereal::make_nvp("effects_volume", s.sound.effects_volume),
         cereal::make_nvp("mute_unfocused", s.sound.mute_unfocused));
    });
    ar(cereal::make_nvp("keep_given_up_after_s", s.keep_given_up_after_s));
    ar(cereal::make_nvp("countdown_ms", s.countdown_ms));
    ar(cereal::make_nvp("directories", s.directories), cereal::make_nvp("recent_servers", s.recent_servers));
    ar(cereal::make_nvp("host_public", s.host_public), cereal::make_nvp("host_lan", s.host_lan));
    for (bool pad : {false, true}) {
      node(ar, pad ? "pad" : "keys", [&] {
        for (Action a : kAllActions) {
          ar(cereal::make_nvp(action_id(a), names_of(pad ? s.bindings.pad_for(a) : s.bindings.keys_for(a), pad)));
        }
      });
    }
  }
  os << "\n";
  return os.str();
}

namespace {

using Json = rapidjson::Value;

// Reads one settings file field by field: a field that is missing or of the wrong kind keeps its default and is
// named in `reset` (with why); every other field is taken as written.
class FieldReader {
 public:
  explicit FieldReader(std::vector<std::string>& reset) : reset_(reset) {}

  // The object `name` of `parent` (null when the parent itself was not there, already named), or null when it is
  // missing or not an object (named).
  const Json* object(const Json* parent, const char* name, const std::string& path) {
    const Json* v = member(parent, name, path);
    if (v != nullptr && !v->IsObject()) return bad(path, "is not a group of settings");
    return v;
  }
  void integer(const Json* parent, const char* name, const std::string& path, std::int32_t& out) {
    const Json* v = member(parent, name, path);
    if (v == nullptr) return;
    if (!v->IsInt()) {
      (void)bad(path, "is not a whole number");
      return;
    }
    out = v->GetInt();
  }
  void boolean(const Json* parent, const char* name, const std::string& path, bool& out) {
    const Json* v = member(parent, name, path);
    if (v == nullptr) return;
    if (!v->IsBool()) {
      (void)bad(path, "is not true or false");
      return;
    }
    out = v->GetBool();
  }
  void number(const Json* parent, const char* name, const std::string& path, float& out) {
    const Json* v = member(parent, name, path);
    if (v == nullptr) return;
    if (!v->IsNumber()) {
      (void)bad(path, "is not a number");
      return;
    }
    out = static_cast<float>(v->GetDouble());
  }
  // A string, or a list of strings; nullopt (named) when it is something else.
  std::optional<std::string> text(const Json* parent, const char* name, const std::string& path) {
    const Json* v = member(parent, name, path);
    if (v == nullptr) return std::nullopt;
    if (!v->IsString()) {
      (void)bad(path, "is not text");
      return std::nullopt;
    }
    return std::string(v->GetString(), v->GetStringLength());
  }
  std::optional<std::vector<std::string>> texts(const Json* parent, const char* name, const std::string& path) {
    const Json* v = member(parent, name, path);
    if (v == nullptr) return std::nullopt;
    std::vector<std::string> out;
    if (v->IsArray()) {
      for (const Json& e : v->GetArray()) {
        if (!e.IsString()) break;
        out.emplace_back(e.GetString(), e.GetStringLength());
      }
    }
    if (!v->IsArray() || out.size() != v->Size()) {
      (void)bad(path, "is not a list of names");
      return std::nullopt;
    }
    return out;
  }
  // Names the field, with why, and returns null.
  const Json* bad(const std::string& path, const std::string& why) {
    reset_.push_back(path + " " + why);
    return nullptr;
  }

 private:
  const Json* member(const Json* parent, const char* name, const std::string& path) {
    if (parent == nullptr) return nullptr;
    if (!parent->HasMember(name)) return bad(path, "is missing");
    return &(*parent)[name];
  }
  std::vector<std::string>& reset_;
};

}  // namespace

SettingsRead read_settings_json(const std::string& json) {
  rapidjson::Document doc;
  {
    const std::string plain = plain_json(json);
    doc.Parse<rapidjson::kParseNoFlags>(plain.data(), plain.size());  // parsed once already: cannot fail
    if (doc.HasParseError()) throw std::runtime_error("malformed JSON");
  }
  if (!doc.IsObject()) throw std::runtime_error("not a settings file (no {...} at the top)");
  // HasMember and [] rather than iterators: RapidJSON's iterator comparison is ambiguous under C++20 for clang.
  if (!doc.HasMember("version") || !doc["version"].IsInt()) {
    throw std::runtime_error("not a settings file (no format version)");
  }
  const int version = doc["version"].GetInt();
  if (version < 1 || version > kFormatVersion) {
    throw std::runtime_error("format version " + std::to_string(version) + " is not one this build reads (1.." +
                             std::to_string(kFormatVersion) + ")");
  }
  SettingsRead out;
  Settings& s = out.settings;
  FieldReader r(out.reset);
  const Json* root = &doc;
  if (auto name = r.text(root, "player_name", "player_name")) s.player_name = *name;
  if (version >= 2) {
    if (const Json* servers = r.object(root, "servers", "servers")) {
      auto names = r.texts(servers, "names", "servers.names");
      auto addresses = r.texts(servers, "addresses", "servers.addresses");
      if (names && addresses && names->size() != addresses->size()) {
        (void)r.bad("servers", "has names and addresses that differ in count");
      } else if (names && addresses) {
        for (std::size_t i = 0; i < names->size(); ++i) s.servers.push_back({(*names)[i], (*addresses)[i]});
      }
    }
  }
  const Json* handling = r.object(root, "handling", "handling");
  r.integer(handling, "das_ms", "handling.das_ms", s.handling.das_ms);
  r.integer(handling, "arr_ms", "handling.arr_ms", s.handling.arr_ms);
  r.integer(handling, "sdf", "handling.sdf", s.handling.sdf);
  r.integer(handling, "dcd_ms", "handling.dcd_ms", s.handling.dcd_ms);
  const Json* visuals = r.object(root, "visuals", "visuals");
  r.boolean(visuals, "ghost", "visuals.ghost", s.visuals.ghost);
  r.boolean(visuals, "grid", "visuals.grid", s.visuals.grid);
  r.number(visuals, "board_scale", "visuals.board_scale", s.visuals.board_scale);
  if (auto skin = r.text(visuals, "skin", "visuals.skin")) {
    bool known = false;
    for (int i = 0; i < kSkinCount; ++i) {
      if (*skin == skin_name(static_cast<Skin>(i))) {
        s.visuals.skin = static_cast<Skin>(i);
        known = true;
      }
    }
    if (!known) (void)r.bad("visuals.skin", "names no skin (\"" + *skin + "\")");
  }
  if (version >= 3) r.integer(root, "frame_cap", "frame_cap", s.frame_cap);
  if (version >= 4) {
    const Json* sound = r.object(root, "sound", "sound");
    r.integer(sound, "master_volume", "sound.master_volume", s.sound.master_volume);
    r.integer(sound, "effects_volume", "sound.effects_volume", s.sound.effects_volume);
    r.boolean(sound, "mute_unfocused", "sound.mute_unfocused", s.sound.mute_unfocused);
  }
  // Optional in every version (added without a format change): absent is the default, unnamed.
  if (doc.HasMember("keep_given_up_after_s")) {
    r.integer(root, "keep_given_up_after_s", "keep_given_up_after_s", s.keep_given_up_after_s);
  }
  if (doc.HasMember("countdown_ms")) r.integer(root, "countdown_ms", "countdown_ms", s.countdown_ms);
  for (auto [name, list] : {std::pair{"directories", &s.directories}, std::pair{"recent_servers", &s.recent_servers}}) {
    if (!doc.HasMember(name)) continue;
    if (auto got = r.texts(root, name, name)) *list = std::move(*got);
  }
  if (doc.HasMember("host_public")) r.boolean(root, "host_public", "host_public", s.host_public);
  if (doc.HasMember("host_lan")) r.boolean(root, "host_lan", "host_lan", s.host_lan);
  for (bool pad : {false, true}) {
    const char* group = pad ? "pad" : "keys";
    const Json* bound = r.object(root, group, group);
    for (Action a : kAllActions) {
      const std::string path = std::string(group) + "." + action_id(a);
      const auto names = r.texts(bound, action_id(a), path);
      if (!names) continue;
      std::vector<int> codes;
      for (const auto& n : *names) {
        const auto code = pad ? pad_from_name(n) : key_from_name(n);
        if (!code) {
          (void)r.bad(path, "names an unknown " + std::string(pad ? "pad input" : "key") + " (\"" + n + "\")");
          break;
        }
        codes.push_back(*code);
      }
      if (codes.size() == names->size()) (pad ? s.bindings.pad : s.bindings.keys)[static_cast<std::size_t>(a)] = codes;
    }
  }
  return out;
}

Settings settings_from_json(const std::string& json) {
  SettingsRead read = read_settings_json(json);
  if (!read.reset.empty()) throw std::runtime_error(read.reset.front());
  return std::move(read.settings);
}

SettingsLoad load_settings(const std::filesystem::path& path) {
  SettingsLoad out;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return out;
  const auto text = read_small_file(path);
  if (!text) {
    out.problem = "cannot read " + path.string() + "; using default settings";
    return out;
  }
  // The file as it was stays beside (the player may want a value back) and the file is rewritten as used.
  const auto keep_and_rewrite = [&] {
    return keep_damaged_and_rewrite(path, [&] { return save_settings(path, out.settings); });
  };
  try {
    SettingsRead read = read_settings_json(*text);
    out.settings = std::move(read.settings);
    out.reset = std::move(read.reset);
    out.from_file = true;
    const std::vector<std::string> clamped = clamp_settings(out.settings);
    std::string clamped_lines;
    for (const auto& c : clamped) clamped_lines += "\n- " + c;
    if (!out.reset.empty()) {
      out.problem = path.string() + ": " + std::to_string(out.reset.size()) +
                    (out.reset.size() == 1 ? " setting was" : " settings were") + " reset to the default:\n";
      for (const auto& r : out.reset) out.problem += "- " + r + "\n";
      out.problem += "Every other setting was kept";
      out.problem += clamped.empty() ? "." : ", and values out of range were clamped:" + clamped_lines + "\n";
      out.problem += keep_and_rewrite();
    } else if (!clamped.empty()) {
      out.problem = path.string() + " had values out of range; they were clamped:" + clamped_lines;
    }
  } catch (const std::exception& e) {
    out.settings = Settings{};
    out.problem =
        path.string() + " is damaged (" + e.what() + "); every setting is back to its default." + keep_and_rewrite();
  }
  return out;
}

sr::Status<std::string> save_settings(const std::filesystem::path& path, const Settings& s) {
  return write_file_atomically(path, settings_to_json(s));
}

std::optional<std::string> read_small_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) return std::nullopt;
  return text.str();
}

std::string keep_damaged_and_rewrite(const std::filesystem::path& path,
                                     const std::function<sr::Status<std::string>()>& save) {
  const auto damaged = std::filesystem::path(path.string() + ".damaged");
  std::error_code ec;
  std::filesystem::rename(path, damaged, ec);
  std::string kept = ec ? std::string() : " The file as it was is kept as " + damaged.string() + ".";
  if (auto saved = save(); !saved) kept += " " + saved.error();
  return kept;
}

sr::Status<std::string> write_file_atomically(const std::filesystem::path& path, const std::string& text) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) return "cannot create " + path.parent_path().string() + ": " + ec.message();
  const auto tmp = std::filesystem::path(path.string() + ".tmp");
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) return "cannot write " + tmp.string();
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) return "cannot replace " + path.string() + ": " + ec.message();
  return {};
}

}  // namespace sr::client
