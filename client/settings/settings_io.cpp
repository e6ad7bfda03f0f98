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

std::vector<int> codes_of(const std::vector<std::string>& names, bool pad, const char* action) {
  std::vector<int> out;
  for (const auto& n : names) {
    auto code = pad ? pad_from_name(n) : key_from_name(n);
    if (!code)
      throw std::runtime_error("unknown " + std::string(pad ? "pad input" : "key") + " \"" + n + "\" for " + action);
    out.push_back(*code);
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

Settings settings_from_json(const std::string& json) {
  Settings s;
  try {
    std::istringstream is(plain_json(json));
    cereal::JSONInputArchive ar(is);
    int version = 0;
    ar(cereal::make_nvp("version", version));
    if (version < 1 || version > kFormatVersion) {
      throw std::runtime_error("format version " + std::to_string(version) + " is not one this build reads (1.." +
                               std::to_string(kFormatVersion) + ")");
    }
    ar(cereal::make_nvp("player_name", s.player_name));
    if (version >= 2) {
      node(ar, "servers", [&] {
        std::vector<std::string> names, addresses;
        ar(cereal::make_nvp("names", names), cereal::make_nvp("addresses", addresses));
        if (names.size() != addresses.size()) throw std::runtime_error("servers: names and addresses differ in count");
        for (std::size_t i = 0; i < names.size(); ++i) s.servers.push_back({names[i], addresses[i]});
      });
    }
    node(ar, "handling", [&] {
      ar(cereal::make_nvp("das_ms", s.handling.das_ms), cereal::make_nvp("arr_ms", s.handling.arr_ms),
         cereal::make_nvp("sdf", s.handling.sdf), cereal::make_nvp("dcd_ms", s.handling.dcd_ms));
    });
    node(ar, "visuals", [&] {
      std::string skin;
      ar(cereal::make_nvp("ghost", s.visuals.ghost), cereal::make_nvp("grid", s.visuals.grid),
         cereal::make_nvp("board_scale", s.visuals.board_scale), cereal::make_nvp("skin", skin));
      bool known = false;
      for (int i = 0; i < kSkinCount; ++i) {
        if (skin == skin_name(static_cast<Skin>(i))) {
          s.visuals.skin = static_cast<Skin>(i);
          known = true;
        }
      }
      if (!known) throw std::runtime_error("unknown skin \"" + skin + "\"");
    });
    if (version >= 3) ar(cereal::make_nvp("frame_cap", s.frame_cap));
    if (version >= 4) {
      node(ar, "sound", [&] {
        ar(cereal::make_nvp("master_volume", s.sound.master_volume),
           cereal::make_nvp("effects_volume", s.sound.effects_volume),
           cereal::make_nvp("mute_unfocused", s.sound.mute_unfocused));
      });
    }
    for (bool pad : {false, true}) {
      node(ar, pad ? "pad" : "keys", [&] {
        for (Action a : kAllActions) {
          std::vector<std::string> names;
          ar(cereal::make_nvp(action_id(a), names));
          auto& dst = pad ? s.bindings.pad : s.bindings.keys;
          dst[static_cast<std::size_t>(a)] = codes_of(names, pad, action_id(a));
        }
      });
    }
  } catch (const cereal::Exception& e) {
    throw std::runtime_error(e.what());
  }
  return s;
}

SettingsLoad load_settings(const std::filesystem::path& path) {
  SettingsLoad out;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return out;
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    out.problem = "cannot read " + path.string() + "; using default settings";
    return out;
  }
  try {
    out.settings = settings_from_json(text.str());
    out.from_file = true;
    if (clamp_settings(out.settings)) {
      out.problem = path.string() + " had values out of range; they were clamped";
    }
    return out;
  } catch (const std::exception& e) {
    out.settings = Settings{};
    const auto damaged = std::filesystem::path(path.string() + ".damaged");
    std::filesystem::rename(path, damaged, ec);
    out.problem = path.string() + " is damaged (" + e.what() + "); using default settings" +
                  (ec ? std::string() : ", the damaged file was kept as " + damaged.string());
    if (auto saved = save_settings(path, out.settings); !saved) out.problem += "; " + saved.error();
  }
  return out;
}

sr::Status<std::string> save_settings(const std::filesystem::path& path, const Settings& s) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) return "cannot create " + path.parent_path().string() + ": " + ec.message();
  const auto tmp = std::filesystem::path(path.string() + ".tmp");
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << settings_to_json(s);
    out.flush();
    if (!out) return "cannot write " + tmp.string();
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) return "cannot replace " + path.string() + ": " + ec.message();
  return {};
}

}  // namespace sr::client
