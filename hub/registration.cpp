#include "hub/registration.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

namespace sr::hub {
namespace {

using Error = std::string;

const rapidjson::Value* member(const rapidjson::Value& v, const char* name) {
  const auto it = v.FindMember(name);
  return it == v.MemberEnd() ? nullptr : &it->value;
}

sr::Status<Error> read_token(const rapidjson::Value* v, const char* field, std::string& out) {
  if (!v || v->IsNull()) return {};  // absent
  if (!v->IsString() || !is_token(std::string_view(v->GetString(), v->GetStringLength()))) {
    return std::string(field) + " must be 32 lower-case hex digits";
  }
  out.assign(v->GetString(), v->GetStringLength());
  return {};
}

}  // namespace

bool is_token(std::string_view text) {
  if (text.size() != kTokenHexDigits) return false;
  for (const char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

sr::Result<Registration, std::string> parse_registration(std::string_view body) {
  if (body.size() > kMaxBodyBytes) {
    return "the body is " + std::to_string(body.size()) + " bytes; at most " + std::to_string(kMaxBodyBytes);
  }
  if (body.empty()) return Error("the body is empty; send the registration as JSON");
  rapidjson::Document doc;
  // Iterative: a deeply nested body cannot exhaust the stack. Encoding checked: every string is valid UTF-8.
  doc.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag>(body.data(), body.size());
  if (doc.HasParseError()) {
    return std::string("the body is not JSON (") + rapidjson::GetParseError_En(doc.GetParseError()) + ") at byte " +
           std::to_string(doc.GetErrorOffset());
  }
  if (!doc.IsObject()) return Error("the body must be a JSON object");
  const rapidjson::Value& root = doc;
  if (auto s = check_unique_keys(root, "the body"); !s) return s.error();
  Registration r;
  const rapidjson::Value* port = member(root, "port");
  if (!port) return Error("port is missing");
  if (!port->IsInt64() || port->GetInt64() < 1 || port->GetInt64() > 65535) return Error("port must be 1..65535");
  r.port = static_cast<std::uint16_t>(port->GetInt64());
  if (auto s = read_token(member(root, "token"), "token", r.token); !s) return s.error();
  if (auto s = read_token(member(root, "secret"), "secret", r.secret); !s) return s.error();
  const rapidjson::Value* info = member(root, "info");
  if (!info) return Error("info is missing");
  auto parsed = parse_info(*info);
  if (!parsed) return parsed.error();
  r.info = std::move(parsed).value();
  return r;
}

}  // namespace sr::hub
