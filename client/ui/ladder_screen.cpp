#include "client/ui/ladder_screen.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>

namespace sr::client {
namespace {

const ImVec4 kRed(1.0f, 0.4f, 0.4f, 1.0f);

// The table: rank, entrant, ranked games, rank score, then one column per counted best game ("9000 Watch").
void board_table(const LadderBoardView& view, LadderAction& out) {
  std::size_t best_columns = 1;
  for (const LadderBoardRow& r : view.rows) best_columns = std::max(best_columns, r.best.size());
  const int columns = 4 + static_cast<int>(best_columns);
  if (!ImGui::BeginTable("ladder", columns,
                         ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
    return;
  }
  ImGui::TableSetupColumn("Rank");
  ImGui::TableSetupColumn("Entrant", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("Ranked games");
  ImGui::TableSetupColumn(view.average_heading.c_str());
  for (std::size_t i = 0; i < best_columns; ++i) {
    ImGui::TableSetupColumn(i == 0 ? "Best games" : "");
  }
  // Headings as plain text in a row of the header's colour: TableHeadersRow() makes them items that the keyboard's
  // Down would stop on.
  ImGui::TableNextRow();
  ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, ImGui::GetColorU32(ImGuiCol_TableHeaderBg));
  for (int c = 0; c < columns; ++c) {
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(ImGui::TableGetColumnName(c));
  }
  for (std::size_t i = 0; i < view.rows.size(); ++i) {
    const LadderBoardRow& r = view.rows[i];
    ImGui::PushID(static_cast<int>(i));
    ImGui::TableNextRow();
    for (const std::string* cell : {&r.rank, &r.entrant, &r.played, &r.average}) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(cell->c_str());
    }
    for (std::size_t g = 0; g < r.best.size(); ++g) {
      ImGui::TableNextColumn();
      ImGui::PushID(static_cast<int>(g));
      ImGui::TextUnformatted(r.best[g].score.c_str());
      if (r.best[g].watchable()) {
        ImGui::SameLine();
        if (ImGui::SmallButton("Watch")) out = {LadderAction::kWatch, r.best[g].game_id, {}, true};
      }
      ImGui::PopID();
    }
    ImGui::PopID();
  }
  ImGui::EndTable();
}

}  // namespace

void LadderScreen::default_entrant(const std::string& name) {
  if (!typed_) entrant_ = name;
}

LadderAction LadderScreen::draw(const LadderBoard& board, const LadderScreenText& text, const MenuNav& nav) {
  LadderAction out;
  const std::string title = "Contest ladder: " + text.server_name + "###ladder";
  begin_full_screen(title.c_str());
  if (board.board()) ImGui::TextWrapped("%s", board.board()->rules.c_str());

  // Entering as a person: the server puts us alone in a room and the game starts at once. A server that runs no
  // ladder gets no entry form (its refusal is said below).
  if (!board.no_ladder()) {
    ImGui::TextUnformatted("Enter the ladder");
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
    if (ImGui::InputText("Entrant name", &entrant_)) typed_ = true;
    ImGui::RadioButton("Ranked", &kind_, 0);
    ImGui::SameLine();
    ImGui::RadioButton("Practice (counts nowhere)", &kind_, 1);
    // One row of buttons, the table's Watch buttons below it: Right reaches Refresh and Back, Down the first Watch.
    if (board.entering()) ImGui::BeginDisabled();
    if (ImGui::Button("Play")) out = {LadderAction::kPlay, 0, entrant_, kind_ == 0};
    default_focus();  // keyboard and pad start here: Enter (A) plays a ranked game
    if (board.entering()) ImGui::EndDisabled();
    ImGui::SameLine();
  }
  if (ImGui::Button("Refresh")) out.kind = LadderAction::kRefresh;
  ImGui::SameLine();
  if (ImGui::Button("Back") || (nav.back && !ImGui::GetIO().WantTextInput)) out.kind = LadderAction::kBack;
  if (board.entering()) {
    ImGui::SameLine();
    ImGui::TextUnformatted("(asking the server for a game...)");
  }
  if (text.downloading) {
    ImGui::SameLine();
    ImGui::TextUnformatted("(downloading a replay...)");
  }
  if (!text.problem.empty()) ImGui::TextColored(kRed, "%s", text.problem.c_str());
  if (!board.enter_refused().empty()) {
    ImGui::TextColored(kRed, "The server refused the game: %s", board.enter_refused().c_str());
  }
  if (!text.secret_note.empty()) ImGui::TextWrapped("%s", text.secret_note.c_str());
  if (!board.watch_refused().empty()) ImGui::TextColored(kRed, "%s", board.watch_refused().c_str());
  ImGui::Separator();

  if (!board.list_refused().empty()) ImGui::TextWrapped("%s", board.list_refused().c_str());
  if (board.board()) {
    if (!board.board()->note.empty()) ImGui::TextDisabled("%s", board.board()->note.c_str());
    board_table(*board.board(), out);
  } else if (board.waiting()) {
    ImGui::TextDisabled("asking the server for its leaderboard...");
  }
  restore_default_focus();
  ImGui::End();
  return out;
}

}  // namespace sr::client
