// clang-format off
#include "common/replay/detail/json_shape.h"
#include "common/replay/detail/serialization_json.h"  // before RapidJSON: see codec_json.cpp
#include <rapidjson/document.h>
// clang-format on

#include <algorithm>
#include <limits>

#include "common/replay/detail/schema.h"

namespace sr::replay::detail {
namespace {

template <class T>
std::shared_ptr<const JsonShape> shape_of();

// A schema visitor that records names instead of values.
class ShapeVisitor {
 public:
  static constexpr bool kLoading = false;
  explicit ShapeVisitor(JsonShape& shape) : shape_(shape) { shape_.members.push_back(kClassVersionName); }

  template <class I>
  void number(const char* name, const I&, Need) {
    add(name);
  }
  void flag(const char* name, const bool&, Need) { add(name); }
  template <class E, std::size_t N>
  void choice(const char* name, const E&, const std::array<const char*, N>&, Need) {
    add(name);
  }
  void text(const char* name, const std::string&, std::size_t, Need) { add(name); }
  void fixed64(const char* name, const std::uint64_t&, Need) { add(name); }
  void hash(const char* name, const std::uint64_t&) { add(name); }
  void pieces(const char* name, const std::vector<engine::Piece>&, Need) { add(name); }
  void board(const char* name, const std::vector<engine::BoardRow>&, Need) { add(name); }
  template <class T>
  bool object(const char* name, const T&, Need) {
    add(name);
    shape_.nested[name] = shape_of<T>();
    return true;
  }
  template <class T>
  void objects(const char* name, const std::vector<T>&, std::size_t, std::size_t) {
    add(name);
    shape_.nested[name] = shape_of<T>();
  }
  void inputs(const char* name, const std::vector<engine::InputChange>&) { add(name); }
  bool checkpoints(const char* name, const std::vector<engine::Checkpoint>&, Need) {
    add(name);
    auto checkpoint = std::make_shared<JsonShape>();
    checkpoint->members = {"time_us", "state_hash"};
    shape_.nested[name] = checkpoint;
    return true;
  }
  void recording(bool, bool) { add("end_time_us"); }
  void key(const char* name, const std::optional<RacerKey>&) { add(name); }

 private:
  void add(const char* name) { shape_.members.emplace_back(name); }
  JsonShape& shape_;
};

template <class T>
std::shared_ptr<const JsonShape> shape_of() {
  auto shape = std::make_shared<JsonShape>();
  ShapeVisitor v(*shape);
  T sample{};
  schema(v, sample, current_version<T>());
  // Older versions, newest first: the first older version without a member says that the member came with the
  // version after it. Version 0 is read like version 1 (JsonReader::class_version accepts it).
  for (std::uint32_t version = current_version<T>(); version-- > 0;) {
    JsonShape old;
    ShapeVisitor o(old);
    schema(o, sample, version);
    for (const std::string& m : shape->members) {
      if (std::find(old.members.begin(), old.members.end(), m) == old.members.end()) {
        shape->since.try_emplace(m, version + 1);
      }
    }
  }
  return shape;
}

// The object's class version as the decoder will read it; the largest value when left out (the decoder then reads the
// current version) or not a class version at all (the decoder refuses it).
std::uint32_t version_of(const rapidjson::Value& object) {
  const auto v = object.FindMember(kClassVersionName);
  if (v == object.MemberEnd() || !v->value.IsUint()) return std::numeric_limits<std::uint32_t>::max();
  return v->value.GetUint();
}

sr::Status<std::string> walk(const rapidjson::Value& object, const JsonShape& shape, const std::string& path) {
  const std::uint32_t version = version_of(object);
  for (auto m = object.MemberBegin(); m != object.MemberEnd(); ++m) {
    const std::string name(m->name.GetString(), m->name.GetStringLength());
    const std::string here = path.empty() ? name : path + "." + name;
    const std::string where = path.empty() ? std::string("the replay") : path;
    bool known = false;
    for (const std::string& k : shape.members) known = known || k == name;
    if (!known) return where + ": unknown member \"" + name + "\"";
    if (const auto since = shape.since.find(name); since != shape.since.end() && version < since->second) {
      return where + ": member \"" + name + "\" needs " + kClassVersionName + " " + std::to_string(since->second) +
             " or later, the object has " + std::to_string(version);
    }
    const auto nested = shape.nested.find(name);
    if (nested == shape.nested.end()) continue;
    const rapidjson::Value& v = m->value;
    if (v.IsObject()) {
      if (auto s = walk(v, *nested->second, here); !s) return s;
    } else if (v.IsArray()) {
      for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
        if (!v[i].IsObject()) continue;  // the decoder reports the wrong type
        if (auto s = walk(v[i], *nested->second, here + "[" + std::to_string(i) + "]"); !s) return s;
      }
    }
  }
  return {};
}

}  // namespace

const JsonShape& replay_shape() {
  static const JsonShape shape = [] {
    JsonShape s = *shape_of<Replay>();
    s.members.emplace_back("format");
    s.members.emplace_back("format_version");
    return s;
  }();
  return shape;
}

sr::Status<std::string> check_members(std::string_view json) {
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError() || !doc.IsObject()) return {};  // the decoder reports those
  return walk(doc, replay_shape(), "");
}

}  // namespace sr::replay::detail
