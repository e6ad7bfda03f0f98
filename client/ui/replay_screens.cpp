#include "client/ui/replay_screens.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>  // SetFocusID: the hovered row is the keyboard's

#include <algorithm>
#include <array>
#include <cfloat>
#include <cstdio>
#include <ctime>
#include <limits>

#include "client/lobby/race_results.h"
#include "client/replay/plot_axis.h"
#include "client/solo/results.h"
#include "client/solo/rule_labels.h"
#include "common/replay/civil_time.h"
#include "common/replay/replay.h"

namespace sr::client {
namespace {

// "every mode", then the modes' words (client/solo/rule_labels.h): index i > 0 is ModeKind i - 1.
constexpr auto kModeFilters = [] {
  std::array<const char*, labels::kMode.size() + 1> all{"every mode"};
  for (std::size_t i = 0; i < labels::kMode.size(); ++i) all[i + 1] = labels::kMode[i];
  return all;
}();

std::string limit_text(engine::LimitKind limit, std::int64_t value) {
  if (limit == engine::LimitKind::kTime) return std::to_string(value) + " s";
  if (limit == engine::LimitKind::kLines) return std::to_string(value) + " lines";
  return "";
}

// The local UTC offset in milliseconds at `unix_ms` (summer time included), from the C library; today's offset for an
// instant that time_t cannot hold. Only the offset comes from time_t, never the date.
std::int64_t utc_offset_ms(std::int64_t unix_ms) {
  std::time_t when = std::time(nullptr);
  const std::int64_t secs = unix_ms / 1000;
  if (secs <= std::numeric_limits<std::time_t>::max()) when = static_cast<std::time_t>(secs);
  std::tm tm{};
  if (localtime_r(&when, &tm) == nullptr) return 0;
  return static_cast<std::int64_t>(tm.tm_gmtoff) * 1000;
}

// "2026-11-22 11:42" in local time ("" for 0). Local, because a player reads it as the time on their clock when the
// game was played; the date itself comes from integer arithmetic (replay::civil_from_unix_ms), right up to 9999 even
// where time_t ends in 2038.
std::string date_text(std::int64_t unix_ms) {
  if (unix_ms <= 0) return "";
  std::int64_t local_ms = unix_ms + utc_offset_ms(unix_ms);
  if (local_ms < 0 || local_ms > replay::kMaxCreatedUnixMs) local_ms = unix_ms;  // the first or last hours: in UTC
  const std::optional<replay::CivilTime> t = replay::civil_from_unix_ms(local_ms);
  if (!t) return "";
  return replay::format_civil(*t).substr(0, 16);  // to the minute
}

}  // namespace

std::optional<engine::ModeKind> ReplayBrowser::mode_filter() const {
  if (mode_ <= 0 || mode_ >= static_cast<int>(kModeFilters.size())) return std::nullopt;
  return static_cast<engine::ModeKind>(mode_ - 1);
}

BrowserAction ReplayBrowser::draw(const ReplayListing& local, const ServerGames* server, const std::string& problem,
                                  const MenuNav& nav) {
  BrowserAction out;
  begin_full_screen("Replays");
  bool filters_changed = false;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  filters_changed |= ImGui::Combo("Mode", &mode_, kModeFilters.data(), static_cast<int>(kModeFilters.size()));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  filters_changed |= ImGui::InputText("Player", player_, sizeof player_);
  ImGui::SameLine();
  filters_changed |= ImGui::Checkbox("Hide games given up", &hide_given_up_);
  std::optional<protocol::GameListKind> ask;
  if (server != nullptr) {
    ImGui::SameLine();
    if (ImGui::Button("Server: recent games")) ask = protocol::GameListKind::kRecent;
    ImGui::SameLine();
    if (ImGui::Button("Server: personal bests")) ask = protocol::GameListKind::kPersonalBests;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the player filter's, or yours when it is empty");
  }
  if (filters_changed) {
    out.kind = BrowserAction::kRefresh;
    if (server != nullptr && server_list_) ask = server_list_;  // the shown server list follows the filters too
  }
  if (ask) {
    server_list_ = ask;
    out = {BrowserAction::kServerList, {}, *ask};  // the app refreshes the local list as well
  }
  if (!problem.empty()) ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.4f, 1.0f), "%s", problem.c_str());
  if (!local.error.empty()) ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.4f, 1.0f), "%s", local.error.c_str());
  // Flattened: the lists' rows are in the window's keyboard navigation, so it can start on the newest game.
  ImGui::BeginChild("lists", ImVec2(0, -ImGui::GetFrameHeightWithSpacing()), false, ImGuiWindowFlags_NavFlattened);
  if (server == nullptr) {
    ImGui::TextDisabled(
        "Connected to a server (Multiplayer, then Replays on this server in its lobby), this screen "
        "also lists its recent games and personal bests.");
  } else if (!server_list_) {
    ImGui::TextDisabled("%s: choose recent games or personal bests above.", server->server_name.c_str());
  } else {
    const std::string who = player_[0] != 0 ? std::string(player_) : "you";
    if (*server_list_ == protocol::GameListKind::kRecent) {
      ImGui::Text("Recent games on %s", server->server_name.c_str());
    } else {
      ImGui::Text("Personal bests of %s on %s", who.c_str(), server->server_name.c_str());
    }
    if (server->downloading) {
      ImGui::SameLine();
      ImGui::TextUnformatted("(downloading a replay...)");
    }
    if (!server->link_note.empty()) ImGui::TextUnformatted(server->link_note.c_str());
    const protocol::GameList* list = server->list;
    if (list == nullptr || list->kind != *server_list_) {
      ImGui::TextDisabled("asking the server...");
    } else if (list->games.empty()) {
      ImGui::TextDisabled("no games match");
    } else if (ImGui::BeginTable("server", 6, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) {
      for (const char* h : {"mode", "racers", "result", "played", "", ""}) ImGui::TableSetupColumn(h);
      ImGui::TableHeadersRow();
      for (const auto& g : list->games) {
        ImGui::PushID(static_cast<int>(g.game_id ^ (g.game_id >> 32)));
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("%s %s", engine::mode_name(g.mode.mode), limit_text(g.mode.limit, g.mode.limit_value).c_str());
        ImGui::TableNextColumn();
        const GameListRow row = game_list_row(g);
        ImGui::TextUnformatted(row.racers.c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(row.result.c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(date_text(g.played_at_unix_s * 1000).c_str());
        ImGui::TableNextColumn();
        if (ImGui::SmallButton("Download and watch")) out = {BrowserAction::kDownload, {}, {}, g.game_id};
        ImGui::TableNextColumn();
        // The game's page on the server's web pages (web/README.md, "A game's web link"), for a browser or a friend.
        if (ImGui::SmallButton("Copy link")) out = {BrowserAction::kCopyLink, {}, {}, g.game_id};
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("copy this game's web link (its page on the server's web pages)");
        ImGui::PopID();
      }
      ImGui::EndTable();
    }
  }
  ImGui::Separator();
  ImGui::TextUnformatted("On this computer");
  if (local.games.empty() && local.error.empty()) ImGui::TextDisabled("no games match");
  // A row is one button: Enter (pad A) or a click on it watches that game. The keyboard starts on the newest.
  constexpr ImGuiTableFlags kTable =
      ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  if (!local.games.empty() && ImGui::BeginTable("local", 5, kTable)) {
    const float em = ImGui::GetFontSize();
    ImGui::TableSetupColumn("mode", ImGuiTableColumnFlags_WidthFixed, 9 * em);
    ImGui::TableSetupColumn("players", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("result", ImGuiTableColumnFlags_WidthStretch, 1.3f);
    ImGui::TableSetupColumn("played", ImGuiTableColumnFlags_WidthFixed, 9 * em);
    ImGui::TableSetupColumn("verified", ImGuiTableColumnFlags_WidthFixed, 6 * em);
    ImGui::TableHeadersRow();
    int row = 0;
    for (const auto& g : local.games) {
      ImGui::PushID(row++);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      const std::string mode = std::string(engine::mode_name(g.mode)) + " " + limit_text(g.limit, g.limit_value);
      if (ImGui::Selectable(mode.c_str(), false, ImGuiSelectableFlags_SpanAllColumns)) {
        out = {BrowserAction::kOpenFile, g.file};
      }
      if (row == 1) ImGui::SetItemDefaultFocus();  // keyboard and pad start on the newest game
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("Enter or click: watch");
        // The row the mouse moves onto looks chosen: make it the keyboard's too, so Enter watches that one.
        const ImVec2 moved = ImGui::GetIO().MouseDelta;
        if (moved.x != 0 || moved.y != 0) ImGui::SetFocusID(ImGui::GetItemID(), ImGui::GetCurrentWindow());
      }
      ImGui::TableNextColumn();
      std::string names;
      for (const auto& r : g.results) names += (names.empty() ? "" : ", ") + replay::shown_name(r);
      // A puzzle attempt's place names its stage ("puzzle 3: I-spin III", puzzle_progress.h); any other is a server.
      if (g.place.rfind("puzzle ", 0) == 0) {
        names += "  (" + g.place + ")";
      } else if (g.place != "local") {
        names += "  (at " + g.place + ")";
      }
      ImGui::TextUnformatted(names.c_str());
      ImGui::TableNextColumn();
      if (!g.results.empty()) ImGui::TextWrapped("%s", result_text(g, g.results.front()).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(date_text(g.created_unix_ms).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(g.verified ? "yes" : g.verify_note.c_str());
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  ImGui::EndChild();
  // Esc in an open filter (its list, its text) closes that, not the screen.
  const bool in_filter = ImGui::GetIO().WantTextInput || ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopupId) ||
                         filter_open_frames_ > 0;
  filter_open_frames_ =
      ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopupId) ? 2 : std::max(0, filter_open_frames_ - 1);
  ImGui::TextDisabled("Up/Down choose, Enter watches (a server game: Right to Copy link), Esc goes back");
  ImGui::SameLine();
  if (ImGui::Button("Back") || (nav.back && !in_filter)) out.kind = BrowserAction::kBack;
  ImGui::End();
  return out;
}

ViewerAction ViewerControls::draw(ReplayViewer& v, const MenuNav& nav) {
  static constexpr double kSpeeds[] = {0.25, 0.5, 1, 2, 4, 8};
  constexpr int kSpeedCount = static_cast<int>(std::size(kSpeeds));
  ViewerAction out = ViewerAction::kNone;
  const ImGuiIO& io = ImGui::GetIO();
  const float h = ImGui::GetFrameHeightWithSpacing() * kViewerControlRows;
  ImGui::SetNextWindowPos(ImVec2(0, io.DisplaySize.y - h), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x, h), ImGuiCond_Always);
  // Keys of its own (below) instead of ImGui's navigation, which would move a focus over these buttons.
  ImGui::Begin("viewer", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoNav);
  const bool keys = !nav.suppressed && !io.WantTextInput;
  const int racers = static_cast<int>(v.games().size());
  step_racer_ = std::clamp(step_racer_, 0, std::max(0, racers - 1));
  if (v.verified()) {
    ImGui::TextColored(ImVec4(0.4f, 0.9f, 0.4f, 1.0f), "VERIFIED");
  } else {
    ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.3f, 1.0f), "NOT VERIFIED");
  }
  ImGui::SameLine();
  ImGui::TextUnformatted((v.title() + ": " + v.verdict()).c_str());
  if (ImGui::Button(v.playing ? "Pause" : "Play") || (keys && (nav.pressed(GLFW_KEY_SPACE) || nav.accept))) {
    if (!v.playing && v.position_us() >= v.end_us()) v.seek(0);
    v.playing = !v.playing;
  }
  ImGui::SameLine();
  if (ImGui::Button("< piece") || (keys && nav.left)) v.step_piece(static_cast<std::size_t>(step_racer_), -1);
  ImGui::SameLine();
  if (ImGui::Button("piece >") || (keys && nav.right)) v.step_piece(static_cast<std::size_t>(step_racer_), +1);
  if (racers > 1) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
    const std::string current = v.replay().racers.at(v.racer_of(static_cast<std::size_t>(step_racer_))).name;
    if (ImGui::BeginCombo("##step racer", current.c_str())) {
      for (int i = 0; i < racers; ++i) {
        const std::string& name = v.replay().racers.at(v.racer_of(static_cast<std::size_t>(i))).name;
        if (ImGui::Selectable((name + "##" + std::to_string(i)).c_str(), i == step_racer_)) step_racer_ = i;
      }
      ImGui::EndCombo();
    }
    if (keys && nav.pressed(GLFW_KEY_TAB)) step_racer_ = (step_racer_ + 1) % racers;
  }
  int speed = 0;
  for (int i = 0; i < kSpeedCount; ++i) {
    if (v.speed == kSpeeds[i]) speed = i;
  }
  if (keys && nav.up) speed = std::min(speed + 1, kSpeedCount - 1);
  if (keys && nav.down) speed = std::max(speed - 1, 0);
  for (int i = 0; i < kSpeedCount; ++i) {
    char label[16];
    std::snprintf(label, sizeof label, "%gx", kSpeeds[i]);
    ImGui::SameLine();
    if (ImGui::RadioButton(label, speed == i)) speed = i;
  }
  v.speed = kSpeeds[speed];
  ImGui::SameLine();
  ImGui::Text("%s / %s", format_time(v.position_us()).c_str(), format_time(v.end_us()).c_str());
  if (last_seek_us_ >= 0) {
    ImGui::SameLine();
    ImGui::Text("(seek %.1f ms)", static_cast<double>(last_seek_us_) / 1000.0);
  }
  ImGui::SameLine();
  if (ImGui::Button("Back") || (keys && nav.back)) out = ViewerAction::kBack;
  std::optional<engine::TimeUs> seek_to;
  if (keys && nav.pressed(GLFW_KEY_HOME)) seek_to = 0;
  if (keys && nav.pressed(GLFW_KEY_END)) seek_to = v.end_us();
  if (keys && nav.page_up) seek_to = v.position_us() - 10'000'000;
  if (keys && nav.page_down) seek_to = v.position_us() + 10'000'000;
  float pos = v.end_us() > 0 ? static_cast<float>(v.position_us()) / static_cast<float>(v.end_us()) : 0.0f;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderFloat("##seek", &pos, 0.0f, 1.0f, "")) {
    seek_to = static_cast<engine::TimeUs>(static_cast<double>(pos) * static_cast<double>(v.end_us()));
  }
  if (seek_to) last_seek_us_ = v.seek(*seek_to);
  ImGui::TextDisabled(
      "Space or Enter: play/pause   Left/Right: a piece%s   Up/Down: speed   Page Up/Down: 10 s   "
      "Home/End: start/end   Esc: back",
      racers > 1 ? " (Tab: whose)" : "");
  // PPS and lines over the whole game, every racer in a colour of their own; the mouse over a plot reads its values.
  const float plot_w = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
  const float plot_h = ImGui::GetContentRegionAvail().y - ImGui::GetStyle().ItemSpacing.y;
  if (plot_h > ImGui::GetFontSize() * 4) {
    plot(v, false, plot_w, plot_h);
    ImGui::SameLine();
    plot(v, true, plot_w, plot_h);
  }
  ImGui::End();
  return out;
}

namespace {

ImU32 racer_colour(std::size_t i) {
  static constexpr ImU32 kColours[] = {IM_COL32(90, 200, 255, 255),  IM_COL32(255, 170, 60, 255),
                                       IM_COL32(120, 230, 120, 255), IM_COL32(240, 100, 160, 255),
                                       IM_COL32(200, 180, 255, 255), IM_COL32(240, 230, 110, 255)};
  return kColours[i % std::size(kColours)];
}

}  // namespace

void ViewerControls::plot(const ReplayViewer& v, bool lines, float w, float h) {
  const auto& curves = v.curves();
  const double end_s = static_cast<double>(v.end_us()) / 1e6;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line_h = ImGui::GetTextLineHeight();
  ImGui::PushID(lines ? "lines" : "pps");
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("plot", ImVec2(w, h));
  const bool hovered = ImGui::IsItemHovered();
  ImGui::PopID();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // Title row, then the plot area with the value axis on the left and the time axis below.
  float max_value = lines ? 1.0f : 0.5f;
  for (const auto& c : curves) {
    for (float x : lines ? c.lines : c.pps) max_value = std::max(max_value, x);
  }
  char max_text[32];
  std::snprintf(max_text, sizeof max_text, lines ? "%.0f" : "%.2f", static_cast<double>(max_value));
  const float axis_w = ImGui::CalcTextSize(max_text).x + style.ItemSpacing.x;
  const ImVec2 p0(origin.x + axis_w, origin.y + line_h + 2);
  const ImVec2 p1(origin.x + w - 4, origin.y + h - line_h - 4);
  dl->AddText(origin, IM_COL32(220, 220, 230, 255), lines ? "Lines cleared" : "Pieces per second (so far)");
  float legend_x = origin.x + ImGui::CalcTextSize(lines ? "Lines cleared" : "Pieces per second (so far)").x + 16;
  for (std::size_t i = 0; i < curves.size(); ++i) {
    const std::string& name = v.replay().racers[i].name;
    dl->AddText(ImVec2(legend_x, origin.y), racer_colour(i), name.c_str());
    legend_x += ImGui::CalcTextSize(name.c_str()).x + 12;
  }
  dl->AddRectFilled(p0, p1, IM_COL32(20, 22, 30, 255));
  dl->AddRect(p0, p1, IM_COL32(90, 95, 110, 255));
  dl->AddText(ImVec2(origin.x, p0.y - line_h * 0.5f), IM_COL32(170, 170, 185, 255), max_text);
  dl->AddText(ImVec2(origin.x + axis_w - ImGui::CalcTextSize("0").x - style.ItemSpacing.x, p1.y - line_h * 0.5f),
              IM_COL32(170, 170, 185, 255), "0");
  const float pw = p1.x - p0.x, ph = p1.y - p0.y;
  const auto x_of = [&](double t_s) { return p0.x + static_cast<float>(end_s > 0 ? t_s / end_s : 0) * pw; };
  const auto y_of = [&](float value) { return p1.y - value / max_value * ph; };
  const int max_ticks = std::max(1, static_cast<int>(pw / (ImGui::CalcTextSize("00:00").x * 1.8f)));
  for (double t : time_ticks(end_s, max_ticks)) {
    const float x = x_of(t);
    dl->AddLine(ImVec2(x, p0.y), ImVec2(x, p1.y), IM_COL32(50, 54, 68, 255));
    const std::string label = tick_label(t);
    const float lw = ImGui::CalcTextSize(label.c_str()).x;
    dl->AddText(ImVec2(std::clamp(x - lw * 0.5f, p0.x, p1.x - lw), p1.y + 2), IM_COL32(170, 170, 185, 255),
                label.c_str());
  }
  for (std::size_t i = 0; i < curves.size(); ++i) {
    const auto& values = lines ? curves[i].lines : curves[i].pps;
    std::vector<ImVec2> points{ImVec2(p0.x, y_of(values.empty() ? 0.0f : (lines ? 0.0f : values.front())))};
    for (std::size_t k = 0; k < values.size(); ++k) {
      points.emplace_back(x_of(end_s * static_cast<double>(k + 1) / static_cast<double>(values.size())),
                          y_of(values[k]));
    }
    dl->AddPolyline(points.data(), static_cast<int>(points.size()), racer_colour(i), 0, 2.0f);
  }
  // Where playback is.
  const float now_x = x_of(static_cast<double>(v.position_us()) / 1e6);
  dl->AddLine(ImVec2(now_x, p0.y), ImVec2(now_x, p1.y), IM_COL32(255, 255, 255, 120));
  if (hovered && pw > 0 && !curves.empty()) {
    const double t_s = std::clamp((ImGui::GetIO().MousePos.x - p0.x) / pw, 0.0f, 1.0f) * end_s;
    const float x = x_of(t_s);
    dl->AddLine(ImVec2(x, p0.y), ImVec2(x, p1.y), IM_COL32(255, 230, 120, 200));
    ImGui::BeginTooltip();
    ImGui::Text("at %s", format_time(static_cast<engine::TimeUs>(t_s * 1e6)).c_str());
    for (std::size_t i = 0; i < curves.size(); ++i) {
      const auto& values = lines ? curves[i].lines : curves[i].pps;
      if (values.empty()) continue;
      const float value = values[sample_at(static_cast<engine::TimeUs>(t_s * 1e6), v.end_us(), values.size())];
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(racer_colour(i)), lines ? "%s: %.0f lines" : "%s: %.2f PPS",
                         v.replay().racers[i].name.c_str(), static_cast<double>(value));
    }
    ImGui::EndTooltip();
  }
}

}  // namespace sr::client
