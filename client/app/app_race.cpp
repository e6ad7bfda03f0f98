// The race screen: our board large, everyone else's beside it (up to 15, scaled to fit), names, live numbers and
// places, the countdown, end-of-game banners, and the results table with "rematch".
#include "client/app/app.h"

#include <imgui.h>

#include <cstdio>

#include "client/game/results.h"
#include "client/ui/hud.h"

namespace sr::client {
namespace {

const char* status_banner(protocol::RacerStatus s) {
  switch (s) {
    case protocol::RacerStatus::kFinished: return "FINISHED";
    case protocol::RacerStatus::kToppedOut: return "TOPPED OUT";
    case protocol::RacerStatus::kDisconnected: return "DISCONNECTED";
    case protocol::RacerStatus::kRemoved: return "REMOVED";
    case protocol::RacerStatus::kUnfinished: return "UNFINISHED";
    case protocol::RacerStatus::kRacing: return "";
  }
  return "";
}

std::string x100_text(std::uint32_t x100) {
  char b[32];
  std::snprintf(b, sizeof b, "%u.%02u", x100 / 100, x100 % 100);
  return b;
}

}  // namespace

void grid_layouts(std::vector<BoardLayout>& out, int n, float x, float y, float w, float h) {
  int best_cols = 1;
  float best_cell = 0;
  for (int cols = 1; cols <= n; ++cols) {
    const int rows = (n + cols - 1) / cols;
    const float cell = std::min(w / static_cast<float>(cols) / BoardLayout::kWidthCells,
                                h / static_cast<float>(rows) / BoardLayout::kHeightCells);
    if (cell > best_cell) {
      best_cell = cell;
      best_cols = cols;
    }
  }
  const int rows = (n + best_cols - 1) / best_cols;
  const float tw = w / static_cast<float>(best_cols), th = h / static_cast<float>(rows);
  for (int i = 0; i < n; ++i) {
    out.push_back(
        fit_board(x + static_cast<float>(i % best_cols) * tw, y + static_cast<float>(i / best_cols) * th, tw, th));
  }
}

// Board i of the race (in RaceView order) gets race_layouts_[order[i]]: ours first and large, then the others.
void App::layout_race(float w, float h) {
  race_layouts_.clear();
  race_order_.clear();
  const auto* race = shown_race();
  if (!race) return;
  const float margin = std::min(w, h) * 0.02f;
  const int n = static_cast<int>(race->boards().size());
  std::vector<BoardLayout> others;
  if (!race->racing() && enlarged_ != 0 && race->board(enlarged_) != nullptr && n > 1) {
    // Spectating with one board clicked: that one large, the others beside it.
    const float big_w = (w - 2 * margin) * 0.45f;
    race_layouts_.push_back(fit_board(margin, margin, big_w, h - 2 * margin));
    grid_layouts(others, n - 1, margin + big_w, margin, w - 2 * margin - big_w, h - 2 * margin);
    race_layouts_.insert(race_layouts_.end(), others.begin(), others.end());
    std::size_t next = 1;
    for (const auto& b : race->boards()) race_order_.push_back(b.entrant.player_id == enlarged_ ? 0 : next++);
    return;
  }
  if (race->racing()) {
    const float own_w = n > 1 ? (w - 2 * margin) * 0.45f : w - 2 * margin;
    race_layouts_.push_back(fit_board(margin, margin, own_w, h - 2 * margin));
    if (n > 1) grid_layouts(others, n - 1, margin + own_w, margin, w - 2 * margin - own_w, h - 2 * margin);
  } else {
    grid_layouts(others, n, margin, margin, w - 2 * margin, h - 2 * margin);
  }
  race_layouts_.insert(race_layouts_.end(), others.begin(), others.end());
  std::size_t next = race->racing() ? 1 : 0;
  for (const auto& b : race->boards()) {
    race_order_.push_back(&b == race->mine() ? 0 : next++);
  }
}

void App::render_race(const BoardLook& look, double now_s) {
  const auto* race = shown_race();
  if (!race) return;
  for (std::size_t i = 0; i < race->boards().size() && i < race_order_.size(); ++i) {
    BoardLook l = look;
    l.dim = race->boards()[i].status != protocol::RacerStatus::kRacing || race->boards()[i].game.over();
    draw_board(batch_, race_layouts_[race_order_[i]], race->boards()[i].game, nullptr, l, now_s);
  }
}

void App::race_ui(double now_s) {
  const auto* race = shown_race();
  const ImGuiIO& io = ImGui::GetIO();
  layout_race(io.DisplaySize.x, io.DisplaySize.y);
  const auto t = net_.session().race_time_us();
  const double countdown = t && *t < 0 ? static_cast<double>(-*t) / 1e6 : 0.0;
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  for (std::size_t i = 0; i < race->boards().size() && i < race_order_.size(); ++i) {
    const auto& b = race->boards()[i];
    const BoardLayout& layout = race_layouts_[race_order_[i]];
    std::string name = b.entrant.name;
    if (b.live.place > 0) name += "  #" + std::to_string(b.live.place);
    if (b.live.pps_x100 > 0) name += "  " + x100_text(b.live.pps_x100) + " PPS";
    draw_hud(fonts_, HudBoard{&b.game, nullptr, layout, name, countdown}, now_s);
    // Spectators click a board to enlarge it (again to go back to the grid).
    if (!race->racing() && ImGui::IsMouseClicked(0) && !io.WantCaptureMouse) {
      const ImVec2 m = io.MousePos;
      if (m.x >= layout.x && m.x < layout.x + layout.width() && m.y >= layout.y && m.y < layout.y + layout.height()) {
        enlarged_ = enlarged_ == b.entrant.player_id ? 0 : b.entrant.player_id;
      }
    }
    if (const char* banner = status_banner(b.status); banner[0] != 0) {
      ImGui::PushFont(fonts_.big);
      std::string text = banner;
      if (b.place > 0) text += " #" + std::to_string(b.place);
      const ImVec2 size = ImGui::CalcTextSize(text.c_str());
      const float cx = layout.matrix_x() + 5 * layout.cell, cy = layout.matrix_y() + 10 * layout.cell;
      dl->AddRectFilled(ImVec2(cx - size.x / 2 - 8, cy - size.y / 2 - 4),
                        ImVec2(cx + size.x / 2 + 8, cy + size.y / 2 + 4), IM_COL32(0, 0, 0, 200));
      dl->AddText(ImVec2(cx - size.x / 2, cy - size.y / 2), IM_COL32(255, 230, 120, 255), text.c_str());
      ImGui::PopFont();
    }
  }
  const auto& results = net_.session().results();
  if (results && results->race_id == race->race_id()) results_table(*results, now_s);
}

void App::results_table(const protocol::RaceResults& results, double now_s) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.98f), ImGuiCond_Always,
                          ImVec2(0.5f, 1.0f));
  ImGui::Begin("Results", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse);
  const bool by_time = net_.session().race()->config().limit != engine::LimitKind::kTime;
  if (ImGui::BeginTable("results", 7, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) {
    for (const char* h : {"place", "player", by_time ? "time" : "score", "lines", "pieces", "PPS", "KPP"}) {
      ImGui::TableSetupColumn(h);
    }
    ImGui::TableHeadersRow();
    for (const auto& r : results.racers) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      if (r.place > 0) {
        ImGui::Text("%d", r.place);
      } else {
        ImGui::TextUnformatted(status_banner(r.status));
      }
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.name.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(by_time ? format_time(r.time_us).c_str() : format_count(r.score).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(format_count(r.lines).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(format_count(r.pieces).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(x100_text(r.pps_x100).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(x100_text(r.kpp_x100).c_str());
    }
    ImGui::EndTable();
  }
  if (!own_saved_.empty()) ImGui::TextUnformatted(own_saved_.c_str());
  if (ImGui::Button("Rematch")) {
    dismissed_race_ = results.race_id;
    (void)net_.session().set_ready(true);
  }
  ImGui::SameLine();
  if (ImGui::Button("Back to the room")) dismissed_race_ = results.race_id;
  if (const auto stored = net_.session().stored_replay()) {
    ImGui::SameLine();
    if (ImGui::Button("Watch replay") && net_.session().download_replay(*stored)) {
      pending_download_ = *stored;
      dismissed_race_ = results.race_id;
    }
  }
  ImGui::End();
  if (options_.exit_after_race && now_s - results_shown_s_ > 1.0) {
    if (options_.screenshot && !exit_screenshot_taken_) {
      screenshot_requested_ = true;
      exit_screenshot_taken_ = true;
    } else if (now_s - results_shown_s_ > 1.5) {
      done_ = true;
    }
  }
}

}  // namespace sr::client
