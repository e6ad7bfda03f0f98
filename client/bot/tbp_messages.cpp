#include "client/bot/tbp_messages.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

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

std::string simple(const char* type) { return std::string("{\"type\":\"") + type + "\"}"; }

std::optional<engine::Piece> tetromino_from(const rapidjson::Value& v) {
  if (!v.IsString() || v.GetStringLength() != 1) return std::nullopt;
  engine::Piece p = engine::Piece::kNone;
  if (!engine::piece_from_letter(v.GetString()[0], p) || !engine::is_tetromino(p)) return std::nullopt;
  return p;
}

std::optional<Move> move_from(const rapidjson::Value& v) {
  if (!v.IsObject()) return std::nullopt;
  const auto loc = v.FindMember("location");
  if (loc == v.MemberEnd() || !loc->value.IsObject()) return std::nullopt;
  const rapidjson::Value& l = loc->value;
  const auto type = l.FindMember("type");
  const auto orientation = l.FindMember("orientation");
  const auto x = l.FindMember("x");
  const auto y = l.FindMember("y");
  if (type == l.MemberEnd() || orientation == l.MemberEnd() || x == l.MemberEnd() || y == l.MemberEnd()) {
    return std::nullopt;
  }
  const auto piece = tetromino_from(type->value);
  if (!piece || !orientation->value.IsString() || !x->value.IsInt() || !y->value.IsInt()) return std::nullopt;
  const auto rot = orientation_from_name(orientation->value.GetString());
  if (!rot) return std::nullopt;
  Move m;
  m.location = Location{*piece, *rot, x->value.GetInt(), y->value.GetInt()};
  // Positions far outside the matrix cannot be placements; keeping them out avoids overflow later.
  if (m.location.x < -8 || m.location.x > 20 || m.location.y < -8 || m.location.y > 50) return std::nullopt;
  const auto spin = v.FindMember("spin");
  if (spin != v.MemberEnd()) {
    if (!spin->value.IsString()) return std::nullopt;
    const auto s = spin_from_name(spin->value.GetString());
    if (!s) return std::nullopt;
    m.spin = *s;
  }
  return m;
}

std::string string_member(const rapidjson::Value& v, const char* name) {
  const auto it = v.FindMember(name);
  return it != v.MemberEnd() && it->value.IsString() ? std::string(it->value.GetString()) : std::string();
}

}  // namespace

std::string encode_rules() { return simple("rules"); }
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
  w.EndObject();
  return buf.GetString();
}

std::string encode_move(const Move& move) {
  rapidjson::StringBuffer buf;
  Writer w(buf);
  write_move(w, move);
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
  doc.Parse<rapidjson::kParseStopWhenDoneFlag>(line.data(), line.size());
  if (doc.HasParseError() || !doc.IsObject()) {
    m.reason = "not a JSON object";
    return m;
  }
  const auto type = doc.FindMember("type");
  if (type == doc.MemberEnd() || !type->value.IsString()) {
    m.reason = "no \"type\" string";
    return m;
  }
  m.type = type->value.GetString();
  if (m.type == "info") {
    m.kind = BotMessage::Kind::kInfo;
    m.name = string_member(doc, "name");
    m.version = string_member(doc, "version");
    m.author = string_member(doc, "author");
  } else if (m.type == "ready") {
    m.kind = BotMessage::Kind::kReady;
  } else if (m.type == "error") {
    m.kind = BotMessage::Kind::kError;
    m.reason = string_member(doc, "reason");
  } else if (m.type == "suggestion") {
    const auto moves = doc.FindMember("moves");
    if (moves == doc.MemberEnd() || !moves->value.IsArray()) {
      m.reason = "suggestion without a \"moves\" list";
      return m;
    }
    m.kind = BotMessage::Kind::kSuggestion;
    for (const auto& v : moves->value.GetArray()) {
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
