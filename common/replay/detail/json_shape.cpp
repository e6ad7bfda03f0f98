// clang-format off
#include "common/replay/detail/json_shape.h"
#include "common/replay/detail/serialization_json.h"  // before RapidJSON: see codec_json.cpp
#include <rapidjson/document.h>
// clang-format on

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
  return shape;
}

sr::Status<std::string> walk(const rapidjson::Value& object, const JsonShape& shape, const std::string& path) {
  for (auto m = object.MemberBegin(); m != object.MemberEnd(); ++m) {
    const std::string name(m->name.GetString(), m->name.GetStringLength());
    const std::string here = path.empty() ? name : path + "." + name;
    bool known = false;
    for (const std::string& k : shape.members) known = known || k == name;
    if (!known) return (path.empty() ? std::string("the replay") : path) + ": unknown member \"" + name + "\"";
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
