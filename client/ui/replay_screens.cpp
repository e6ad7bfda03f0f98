#include "client/ui/replay_screens.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>

#include "client/game/results.h"

namespace sr::client {
namespace {

constexpr const char* kModeFilters[] = {"every mode", "sprint",  "ultra",   "marathon",
                                        "master",     "endless", "contest", "custom"};

std::string limit_text(engine::LimitKind limit, std::int64_t value) {
  if (limit == engine::LimitKind::kTime) return std::to_string(value) + " s";
  if (limit == engine::LimitKind::kLines) return std::to_string(value) + " lines";
  return "";
}

void full_window(const char* title) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.05f, io.DisplaySize.y * 0.05f), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x * 0.9f, io.DisplaySize.y * 0.9f), ImGuiCond_Always);
  ImGui::Begin(title, nullptr, ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse);
}

}  // namespace

std::optional<engine::ModeKind> ReplayBrowser::mode_filter() const {
  if (mode_ == 0) return std::nullopt;
  return engine::mode_from_name(kModeFilters[mode_]);
}

BrowserAction ReplayBrowser::draw(const ReplayListing& local, const std::filesystem::path& replay_dir,
                                  const protocol::GameList* server_games, const std::string& problem,
                                  const MenuNav& nav) {
  BrowserAction out;
  full_window("Replays");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  if (ImGui::Combo("Mode", &mode_, kModeFilters, IM_ARRAYSIZE(kModeFilters))) out.kind = BrowserAction::kRefresh;
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  if (ImGui::InputText("Player", player_, sizeof player_)) out.kind = BrowserAction::kRefresh;
  if (server_games != nullptr) {
    ImGui::SameLine();
    if (ImGui::Button("Server: recent games")) out = {BrowserAction::kServerList, {}, protocol::GameListKind::kRecent};
    ImGui::SameLine();
    if (ImGui::Button("Server: personal bests")) {
      out = {BrowserAction::kServerList, {}, protocol::GameListKind::kPersonalBests};
    }
  }
  if (!problem.empty()) ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.4f, 1.0f), "%s", problem.c_str());
  if (!local.error.empty()) ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.4f, 1.0f), "%s", local.error.c_str());
  ImGui::BeginChild("lists", ImVec2(0, -ImGui::GetFrameHeightWithSpacing()));
  if (server_games != nullptr && !server_games->games.empty()) {
    ImGui::TextUnformatted("On the server");
    if (ImGui::BeginTable("server", 4, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) {
      for (const char* h : {"mode", "racers", "length", ""}) ImGui::TableSetupColumn(h);
      ImGui::TableHeadersRow();
      for (const auto& g : server_games->games) {
        ImGui::PushID(static_cast<int>(g.game_id));
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("%s %s", engine::mode_name(g.mode.mode), limit_text(g.mode.limit, g.mode.limit_value).c_str());
        ImGui::TableNextColumn();
        std::string names;
        for (const auto& r : g.racers) names += (names.empty() ? "" : ", ") + r.name;
        ImGui::TextUnformatted(names.c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(format_time(g.duration_us).c_str());
        ImGui::TableNextColumn();
        if (ImGui::SmallButton("Download and watch")) out = {BrowserAction::kDownload, {}, {}, g.game_id};
        ImGui::PopID();
      }
      ImGui::EndTable();
    }
  }
  ImGui::TextUnformatted("On this computer");
  if (ImGui::BeginTable("local", 5, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) {
    for (const char* h : {"mode", "players", "result", "verified", ""}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    int row = 0;
    for (const auto& g : local.games) {
      ImGui::PushID(row++);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%s %s", engine::mode_name(g.mode), limit_text(g.limit, g.limit_value).c_str());
      ImGui::TableNextColumn();
      std::string names;
      for (const auto& r : g.results) names += (names.empty() ? "" : ", ") + r.player;
      ImGui::TextUnformatted(names.c_str());
      ImGui::TableNextColumn();
      if (!g.results.empty()) {
        const auto& r = g.results.front();
        ImGui::Text("%s, %s lines", format_time(r.time_us).c_str(), format_count(r.lines).c_str());
      }
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(g.verified ? "yes" : g.verify_note.c_str());
      ImGui::TableNextColumn();
      if (ImGui::SmallButton("Watch")) out = {BrowserAction::kOpenFile, replay_dir / g.file};
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  ImGui::EndChild();
  if (ImGui::Button("Back") || (nav.back && !ImGui::GetIO().WantTextInput)) out.kind = BrowserAction::kBack;
  ImGui::End();
  return out;
}

ViewerAction ViewerControls::draw(ReplayViewer& v, const MenuNav& nav) {
  ViewerAction out = ViewerAction::kNone;
  const ImGuiIO& io = ImGui::GetIO();
  const float h = ImGui::GetFrameHeightWithSpacing() * kViewerControlRows;
  ImGui::SetNextWindowPos(ImVec2(0, io.DisplaySize.y - h), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x, h), ImGuiCond_Always);
  ImGui::Begin("viewer", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove);
  if (v.verified()) {
    ImGui::TextColored(ImVec4(0.4f, 0.9f, 0.4f, 1.0f), "VERIFIED");
  } else {
    ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.3f, 1.0f), "NOT VERIFIED");
  }
  ImGui::SameLine();
  ImGui::TextUnformatted((v.title() + ": " + v.verdict()).c_str());
  if (ImGui::Button(v.playing ? "Pause" : "Play") || nav.pressed(' ')) {
    if (!v.playing && v.position_us() >= v.end_us()) v.seek(0);
    v.playing = !v.playing;
  }
  ImGui::SameLine();
  if (ImGui::Button("< piece") || nav.left) v.step_piece(0, -1);
  ImGui::SameLine();
  if (ImGui::Button("piece >") || nav.right) v.step_piece(0, +1);
  ImGui::SameLine();
  static constexpr double kSpeeds[] = {0.25, 0.5, 1, 2, 4, 8};
  for (double s : kSpeeds) {
    char label[16];
    std::snprintf(label, sizeof label, "%gx", s);
    ImGui::SameLine();
    if (ImGui::RadioButton(label, v.speed == s)) v.speed = s;
  }
  ImGui::SameLine();
  ImGui::Text("%s / %s", format_time(v.position_us()).c_str(), format_time(v.end_us()).c_str());
  if (last_seek_us_ >= 0) {
    ImGui::SameLine();
    ImGui::Text("(seek %.1f ms)", static_cast<double>(last_seek_us_) / 1000.0);
  }
  float pos = v.end_us() > 0 ? static_cast<float>(v.position_us()) / static_cast<float>(v.end_us()) : 0.0f;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderFloat("##seek", &pos, 0.0f, 1.0f, "")) {
    last_seek_us_ = v.seek(static_cast<engine::TimeUs>(static_cast<double>(pos) * static_cast<double>(v.end_us())));
  }
  if (ImGui::Button("Back") || nav.back) out = ViewerAction::kBack;
  // PPS and lines over the whole game, per racer (up to 4).
  const float plot_w = io.DisplaySize.x / 9.0f, plot_h = ImGui::GetFrameHeight() * 1.8f;
  for (std::size_t i = 0; i < v.curves().size() && i < 4; ++i) {
    const auto& c = v.curves()[i];
    const std::string pps = v.replay().racers[i].name + " PPS";
    const std::string lines = v.replay().racers[i].name + " lines";
    ImGui::SameLine();
    ImGui::PlotLines(("##pps" + std::to_string(i)).c_str(), c.pps.data(), static_cast<int>(c.pps.size()), 0,
                     pps.c_str(), 0.0f, FLT_MAX, ImVec2(plot_w, plot_h));
    ImGui::SameLine();
    ImGui::PlotLines(("##lines" + std::to_string(i)).c_str(), c.lines.data(), static_cast<int>(c.lines.size()), 0,
                     lines.c_str(), 0.0f, FLT_MAX, ImVec2(plot_w, plot_h));
  }
  ImGui::End();
  return out;
}

}  // namespace sr::client
