#include "client/settings/puzzle_progress_io.h"

// As in settings_io.cpp: Cereal's JSON archive comes first so that RapidJSON's asserts throw (the same definition of
// RapidJSON in every file of the library).
// clang-format off
#include <cereal/archives/json.hpp>
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/prettywriter.h>
// clang-format on

#include <stdexcept>
#include <system_error>

#include "client/settings/settings_io.h"
#include "common/engine/puzzles.h"

namespace sr::client {
namespace {

constexpr int kFormatVersion = 1;
constexpr std::size_t kMaxBytes = 1 << 20;

constexpr const char* kOutcomeWords[] = {"not_tried", "failed", "cleared_attempt_2", "cleared_attempt_1"};

}  // namespace

std::string puzzle_progress_to_json(const PuzzleProgress& p) {
  rapidjson::StringBuffer buffer;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("version");
  w.Int(kFormatVersion);
  w.Key("stages");
  w.StartObject();
  const auto stages = engine::puzzle_stages();
  for (std::size_t i = 0; i < stages.size(); ++i) {
    w.Key(stages[i].name.data(), static_cast<rapidjson::SizeType>(stages[i].name.size()));
    w.String(kOutcomeWords[static_cast<std::size_t>(p.outcome(i))]);
  }
  w.EndObject();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

PuzzleProgress read_puzzle_progress_json(const std::string& json, std::vector<std::string>& reset) {
  if (json.size() > kMaxBytes) throw std::runtime_error("a progress file is at most 1 MiB");
  rapidjson::Document doc;
  try {
    // Iterative: no recursion however deep the text nests. Not kParseDefaultFlags: Cereal redefines it.
    doc.Parse<rapidjson::kParseIterativeFlag>(json.data(), json.size());
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("malformed JSON: ") + e.what());
  }
  if (doc.HasParseError()) {
    throw std::runtime_error(std::string("not JSON: ") + rapidjson::GetParseError_En(doc.GetParseError()) +
                             " at byte " + std::to_string(doc.GetErrorOffset()));
  }
  if (!doc.IsObject()) throw std::runtime_error("not a JSON object");
  // HasMember and indices, not iterator comparisons (RapidJSON's are ambiguous under C++20's reversed operators).
  if (!doc.HasMember("version") || !doc["version"].IsInt()) throw std::runtime_error("no format version");
  if (doc["version"].GetInt() != kFormatVersion) {
    throw std::runtime_error("unknown format version " + std::to_string(doc["version"].GetInt()));
  }
  if (!doc.HasMember("stages") || !doc["stages"].IsObject()) throw std::runtime_error("no \"stages\" object");
  const rapidjson::Value& listed = doc["stages"];
  const auto stages = engine::puzzle_stages();
  std::vector<StageOutcome> outcomes(stages.size(), StageOutcome::kNotTried);
  for (rapidjson::SizeType m = 0; m < listed.MemberCount(); ++m) {
    const auto& entry = *(listed.MemberBegin() + m);
    const std::string name(entry.name.GetString(), entry.name.GetStringLength());
    std::size_t index = stages.size();
    for (std::size_t i = 0; i < stages.size(); ++i) {
      if (stages[i].name == name) index = i;
    }
    if (index == stages.size()) {
      reset.push_back("\"" + name + "\" names no stage");
      continue;
    }
    bool known = false;
    if (entry.value.IsString()) {
      const std::string word(entry.value.GetString(), entry.value.GetStringLength());
      for (std::size_t o = 0; o < std::size(kOutcomeWords); ++o) {
        if (word == kOutcomeWords[o]) {
          outcomes[index] = static_cast<StageOutcome>(o);
          known = true;
        }
      }
    }
    if (!known) reset.push_back("\"" + name + "\" has no known outcome (not tried, failed or cleared)");
  }
  return PuzzleProgress(std::move(outcomes));
}

PuzzleProgressLoad load_puzzle_progress(const std::filesystem::path& path) {
  PuzzleProgressLoad out;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return out;
  const auto text = read_small_file(path);
  if (!text) {
    out.problem = "cannot read " + path.string() + "; puzzle progress starts afresh for this run";
    return out;
  }
  const auto keep_and_rewrite = [&] {
    return keep_damaged_and_rewrite(path, [&] { return save_puzzle_progress(path, out.progress); });
  };
  try {
    out.progress = read_puzzle_progress_json(*text, out.reset);
    if (!out.reset.empty()) {
      out.problem = path.string() + ": " + std::to_string(out.reset.size()) +
                    (out.reset.size() == 1 ? " entry was" : " entries were") + " ignored:\n";
      for (const auto& r : out.reset) out.problem += "- " + r + "\n";
      out.problem += "The other stages' progress was kept." + keep_and_rewrite();
    }
  } catch (const std::exception& e) {
    out.progress = PuzzleProgress{};
    out.problem = path.string() + " is damaged (" + e.what() +
                  "); puzzle progress starts afresh (settings are not affected)." + keep_and_rewrite();
  }
  return out;
}

sr::Status<std::string> save_puzzle_progress(const std::filesystem::path& path, const PuzzleProgress& p) {
  return write_file_atomically(path, puzzle_progress_to_json(p));
}

}  // namespace sr::client
