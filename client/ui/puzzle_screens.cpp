#include "client/ui/puzzle_screens.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <cmath>

#include "client/ui/screens.h"
#include "common/engine/puzzles.h"

namespace sr::client {

void PuzzleMenu::select_next(const PuzzleProgress& progress) {
  const std::size_t next = progress.next_stage();
  menu_.select(static_cast<int>(next < progress.stage_count() ? next : 0));
}

std::optional<std::size_t> PuzzleMenu::draw(const MenuNav& nav, const PuzzleProgress& progress, bool& back) {
  std::optional<std::size_t> pick;
  const auto stages = engine::puzzle_stages();
  menu_.begin("Puzzles", nav, 30.0f);
  ImGui::TextDisabled("Clear the board completely with the pieces given (Ocular rotation).");
  ImGui::TextDisabled("Two attempts per try; stages open in order; %zu of %zu cleared.", progress.cleared_count(),
                      stages.size());
  ImGui::Separator();
  const std::size_t next = progress.next_stage();
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const bool playable = progress.playable(i);
    std::string value = playable ? outcome_text(progress.outcome(i)) : "locked";
    if (i == next) value = "NEXT - " + value;
    const std::string label = std::to_string(i + 1) + ". " + std::string(stages[i].name);
    bool activated = false;
    if (i == next) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.85f, 0.3f, 1.0f));
    activated = menu_.button(label, playable);
    if (i == next) ImGui::PopStyleColor();
    // The outcome, right-aligned on the row just drawn.
    const float vw = ImGui::CalcTextSize(value.c_str()).x;
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - vw);
    if (is_cleared(progress.outcome(i))) {
      ImGui::TextColored(ImVec4(0.45f, 0.9f, 0.45f, 1.0f), "%s", value.c_str());
    } else if (i == next) {
      ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.3f, 1.0f), "%s", value.c_str());
    } else {
      ImGui::TextDisabled("%s", value.c_str());
    }
    if (activated) pick = i;
  }
  ImGui::Separator();
  if (menu_.button("Back")) back = true;
  back = back || menu_.back();
  menu_.end();
  return pick;
}

void draw_puzzle_hint(const Fonts& fonts, const BoardLayout& layout, const std::string& text) {
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  ImFont* font = fonts.body != nullptr ? fonts.body : ImGui::GetFont();
  const float px = std::max(12.0f, layout.cell * 0.6f);
  const ImVec2 size = font->CalcTextSizeA(px, 1e9f, 0, text.c_str());
  const float cx = layout.matrix_x() + 5 * layout.cell;
  const float y = layout.y + (BoardLayout::kMatrixTopCells * layout.cell - size.y) * 0.5f;
  dl->AddText(font, px, ImVec2(std::floor(cx - size.x / 2) + 1, y + 1), IM_COL32(0, 0, 0, 180), text.c_str());
  dl->AddText(font, px, ImVec2(std::floor(cx - size.x / 2), y), IM_COL32(230, 230, 240, 255), text.c_str());
}

PuzzleResultsChoice draw_puzzle_results(Menu& menu, const MenuNav& nav, const PuzzleResultsView& v) {
  PuzzleResultsChoice choice = PuzzleResultsChoice::kNone;
  const char* title = v.end == AttemptEnd::kCleared     ? "Cleared"
                      : v.end == AttemptEnd::kRetryLeft ? "Not cleared: one retry left"
                                                        : "Failed";
  const std::string window = std::string(title) + "###puzzle results";
  menu.begin(window.c_str(), nav, 24.0f);
  ImGui::TextDisabled("%s", v.stage.c_str());
  ImGui::PushFont(ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1] : ImGui::GetFont());
  const ImVec4 colour = v.end == AttemptEnd::kCleared  ? ImVec4(0.45f, 0.9f, 0.45f, 1.0f)
                        : v.end == AttemptEnd::kFailed ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f)
                                                       : ImVec4(1.0f, 0.85f, 0.3f, 1.0f);
  ImGui::TextColored(colour, "%s", title);
  ImGui::PopFont();
  switch (v.end) {
    case AttemptEnd::kCleared:
      ImGui::Text("Perfect clear on attempt %d of %d.", v.attempt, engine::kPuzzleAttempts);
      break;
    case AttemptEnd::kRetryLeft: ImGui::TextUnformatted("Cells are left. Leaving now gives the retry up."); break;
    case AttemptEnd::kFailed:
      ImGui::TextWrapped("Both attempts used: the stage counts as failed. It stays playable for a fresh try.");
      break;
  }
  draw_stats_and_saved(v.stats, v.saved);
  switch (v.end) {
    case AttemptEnd::kCleared:
      if (v.has_next && menu.button("Next stage (Enter)")) choice = PuzzleResultsChoice::kNext;
      if (menu.button("Play again (R)")) choice = PuzzleResultsChoice::kRetry;
      break;
    case AttemptEnd::kRetryLeft:
      if (menu.button("Retry (Enter or R)")) choice = PuzzleResultsChoice::kRetry;
      break;
    case AttemptEnd::kFailed:
      if (menu.button("Start over: attempt 1 (R)")) choice = PuzzleResultsChoice::kRetry;
      break;
  }
  if (menu.button("Back to stages (Esc)")) choice = PuzzleResultsChoice::kBack;
  if (menu.back()) choice = PuzzleResultsChoice::kBack;
  menu.end();
  return choice;
}

}  // namespace sr::client
