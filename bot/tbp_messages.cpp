#include "bot/tbp_messages.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>

namespace sr::botcli::tbp {
namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void piece_string(Writer& w, engine::Piece p) {
  const char letter = engine::piece_letter(p);
  w.String(&letter, 1);
}

void write_move(Writer& w, const Move& m) {
  w.StartObject();
  w.Key("location");
  w.StartObject();
  w.Key("type");
  piece_string(w, m.location.piece);
  w.Key("orientation");
  w.String(orientation_name(m.location.orientation));
  w.Key("x");
  w.Int(m.location.x);
  w.Key("y");
  w.Int(m.location.y);
  w.EndObject();
  w.Key("spin");
  w.String(spin_name(m.spin));
  w.EndObject();
}

// The member `name` of object `v`, or nullptr. Takes the value const so only const iterators are compared
// (rapidjson 1.1's mutable iterator comparisons are ambiguous under C++20 rewritten operators).
const rapidjson::Value* member(const rapidjson::Value& v, const char* name) {
  if (!v.IsObject()) return nullptr;
  const auto it = v.FindMember(name);
  return it == v.MemberEnd() ? nullptr : &it->value;
}

std::string simple(const char* type) { return std::string("{\"type\":\"") + type + "\"}"; }

std::optional<engine::Piece> tetromino_from(const rapidjson::Value& v) {
  if (!v.IsString() || v.GetStringLength() != 1) return std::nullopt;
  engine::Piece p = engine::Piece::kNone;
  if (!engine::piece_from_letter(v.GetString()[0], p) || !engine::is_tetromino(p)) return std::nullopt;
  return p;
}

std::optional<Move> move_from(const rapidjson::Value& v) {
  const rapidjson::Value* l = member(v, "location");
  if (!l || !l->IsObject()) return std::nullopt;
  const rapidjson::Value* type = member(*l, "type");
  const rapidjson::Value* orientation = member(*l, "orientation");
  const rapidjson::Value* x = member(*l, "x");
  const rapidjson::Value* y = member(*l, "y");
  if (!type || !orientation || !x || !y) return std::nullopt;
  const auto piece = tetromino_from(*type);
  if (!piece || !orientation->IsString() || !x->IsInt() || !y->IsInt()) return std::nullopt;
  const auto rot = orientation_from_name(orientation->GetString());
  if (!rot) return std::nullopt;
  Move m;
  m.location = Location{*piece, *rot, x->GetInt(), y->GetInt()};
  // Positions far outside the matrix cannot be placements; keeping them out avoids overflow later.
  if (m.location.x < -8 || m.location.x > 20 || m.location.y < -8 || m.location.y > 50) return std::nullopt;
  if (const rapidjson::Value* spin = member(v, "spin")) {
    if (!spin->IsString()) return std::nullopt;
    const auto s = spin_from_name(spin->GetString());
    if (!s) return std::nullopt;
    m.spin = *s;
  }
  return m;
}

std::string string_member(const rapidjson::Value& v, const char* name) {
  const rapidjson::Value* m = member(v, name);
  return m && m->IsString() ? std::string(m->GetString()) : std::string();
}

}  // namespace

const char* randomizer_name(engine::GeneratorKind generator) {
  switch (generator) {
    case engine::GeneratorKind::kBag7: return "seven_bag";
    case engine::GeneratorKind::kUniform: return "uniform";
    default: return "unknown";  // recency and fixed sequences have no name in the extension
  }
}

std::optional<std::vector<engine::Piece>> seven_bag_state(std::int64_t first_index,
                                                          std::span<const engine::Piece> queue) {
  const std::int64_t end = first_index + static_cast<std::int64_t>(queue.size());
  const std::int64_t bag_start = end - end % 7;
  if (bag_start < first_index) return std::nullopt;
  std::vector<engine::Piece> left;
  for (int p = 1; p <= 7; ++p) {
    const auto piece = static_cast<engine::Piece>(p);
    const auto dealt = queue.begin() + (bag_start - first_index);
    if (std::find(dealt, queue.end(), piece) == queue.end()) left.push_back(piece);
  }
  return left;
}

std::string encode_rules(const char* randomizer) {
  rapidjson::StringBuffer buf;
  Writer w(buf);
  w.StartObject();
  w.Key("type");
  w.String("rules");
  w.Key("randomizer");
  w.String(randomizer);
  w.EndObject();
  return buf.GetString();
}
std::string encode_suggest() { return simple("suggest"); }
std::string encode_stop() { return simple("stop"); }
std::string encode_quit() { return simple("quit"); }

std::string encode_start(const Start& s) {
  rapidjson::StringBuffer buf;
  Writer w(buf);
  w.StartObject();
  w.Key("type");
  w.String("start");
  w.Key("hold");
  if (s.hold == engine::Piece::kNone) {
    w.Null();
  } else {
    piece_string(w, s.hold);
  }
  w.Key("queue");
  w.StartArray();
  for (const engine::Piece p : s.queue) piece_string(w, p);
  w.EndArray();
  w.Key("combo");
  w.Int(s.combo);
  w.Key("back_to_back");
  w.Bool(s.back_to_back);
  w.Key("board");
  w.StartArray();
  for (int y = 0; y < engine::kMatrixHeight; ++y) {
    w.StartArray();
    for (int x = 0; x < engine::kMatrixWidth; ++x) {
      const engine::Piece p = s.board ? s.board->at(x, y) : engine::Piece::kNone;
      if (p == engine::Piece::kNone) {
        w.Null();
      } else {
        piece_string(w, p);  // garbage is "G"
      }
    }
    w.EndArray();
  }
  w.EndArray();
  if (s.bag_state) {
    w.Key("randomizer");
    w.StartObject();
    w.Key("type");
    w.String("seven_bag");
    w.Key("bag_state");
    w.StartArray();
    for (const engine::Piece p : *s.bag_state) piece_string(w, p);
    w.EndArray();
    w.EndObject();
  }
  w.EndObject();
  return buf.GetString();
}

std::string encode_play(const Move& move) {
  rapidjson::StringBuffer buf;
  Writer w(buf);
  w.StartObject();
  w.Key("type");
  w.String("play");
  w.Key("move");
  write_move(w, move);
  w.EndObject();
  return buf.GetString();
}

std::string encode_new_piece(engine::Piece piece) {
  rapidjson::StringBuffer buf;
  Writer w(buf);
  w.StartObject();
  w.Key("type");
  w.String("new_piece");
  w.Key("piece");
  piece_string(w, piece);
  w.EndObject();
  return buf.GetString();
}

BotMessage decode_bot_message(std::string_view line) {
  BotMessage m;
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseStopWhenDoneFlag | rapidjson::kParseIterativeFlag>(line.data(), line.size());
  if (doc.HasParseError() || !doc.IsObject()) {
    m.reason = "not a JSON object";
    return m;
  }
  const rapidjson::Value& root = doc;
  const rapidjson::Value* type = member(root, "type");
  if (!type || !type->IsString()) {
    m.reason = "no \"type\" string";
    return m;
  }
  m.type = type->GetString();
  if (m.type == "info") {
    m.kind = BotMessage::Kind::kInfo;
    m.name = string_member(root, "name");
    m.version = string_member(root, "version");
    m.author = string_member(root, "author");
    if (const rapidjson::Value* features = member(root, "features"); features && features->IsArray()) {
      for (const auto& f : features->GetArray()) {
        if (f.IsString()) m.features.emplace_back(f.GetString());
      }
    }
  } else if (m.type == "ready") {
    m.kind = BotMessage::Kind::kReady;
  } else if (m.type == "error") {
    m.kind = BotMessage::Kind::kError;
    m.reason = string_member(root, "reason");
  } else if (m.type == "suggestion") {
    const rapidjson::Value* moves = member(root, "moves");
    if (!moves || !moves->IsArray()) {
      m.reason = "suggestion without a \"moves\" list";
      return m;
    }
    m.kind = BotMessage::Kind::kSuggestion;
    for (const auto& v : moves->GetArray()) {
      if (auto move = move_from(v)) {
        m.moves.push_back(*move);
      } else {
        ++m.skipped_moves;
      }
    }
  } else {
    m.kind = BotMessage::Kind::kOther;
  }
  return m;
}

}  // namespace sr::botcli::tbp
