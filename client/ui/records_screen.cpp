#include "client/ui/records_screen.h"

#include <imgui.h>
#include <imgui_internal.h>  // SetFocusID, NavMoveRequestCancel: where the keyboard focus goes

#include <algorithm>
#include <string>

namespace sr::client {
namespace {

const ImVec4 kRed(1.0f, 0.45f, 0.4f, 1.0f);
const ImVec4 kOwnRow(0.55f, 0.42f, 0.08f, 0.65f);

std::string board_label(const RecordBoardSummary& b) {
  return board_title(b) + "  (" + std::to_string(b.trusted) + " trusted, " + std::to_string(b.other) + " other)";
}

void entries_table(const RecordsBrowser& records, const OwnKey& own) {
  const RecordPage& page = *records.page();
  const RecordBoardSummary& board = records.boards()[*records.board()];
  const std::vector<RecordRow> rows = record_rows(page, board.goal, own);
  const char* result_heading = board.goal == engine::GoalKind::kTime ? "Time" : "Result";
  constexpr ImGuiTableFlags kFlags =
      ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY;
  const float height = ImGui::GetContentRegionAvail().y - ImGui::GetFrameHeightWithSpacing();
  if (!ImGui::BeginTable("entries", 7, kFlags, ImVec2(0, std::max(height, 80.0f)))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("Place");
  ImGui::TableSetupColumn("Player", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn(result_heading);
  ImGui::TableSetupColumn("Rules");
  ImGui::TableSetupColumn("Server", ImGuiTableColumnFlags_WidthStretch, 1.2f);
  ImGui::TableSetupColumn("Date (UTC)");
  ImGui::TableSetupColumn("");
  // Headings as plain text in a row of the header's colour: TableHeadersRow() makes them items that the keyboard's
  // Down would stop on.
  ImGui::TableNextRow();
  ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, ImGui::GetColorU32(ImGuiCol_TableHeaderBg));
  for (int c = 0; c < 7; ++c) {
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(ImGui::TableGetColumnName(c));
  }
  for (const RecordRow& r : rows) {
    ImGui::TableNextRow();
    if (r.own) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, ImGui::GetColorU32(kOwnRow));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.place.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.player.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("%s", r.key_id.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.result.c_str());
    ImGui::TableNextColumn();
    ImGui::Text("v%s", r.rules.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.server.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.date.c_str());
    ImGui::TableNextColumn();
    if (r.own) ImGui::TextUnformatted("you");
  }
  ImGui::EndTable();
}

}  // namespace

void RecordsScreen::opened() {
  popup_was_open_ = false;
  board_was_shown_ = false;
}

RecordsAction RecordsScreen::draw(const RecordsBrowser& records, const OwnKey& own, const MenuNav& nav) {
  RecordsAction out;
  // Esc while a selector was open closed the selector (ImGui did, before this frame's drawing): it does not go back.
  const bool back = nav.back && !popup_was_open_ && !nav.suppressed;
  // Page Up / Page Down turn pages here; ImGui's own use of them (moving the keyboard focus a window's height) is
  // cancelled, so the focus stays where it was.
  if (nav.page_up || nav.page_down) ImGui::NavMoveRequestCancel();
  begin_full_screen("Records###records");
  const auto& hubs = records.hubs();
  if (hubs.empty()) {
    ImGui::TextWrapped(
        "No records hub is set. A records hub is a stackrace-hub that keeps the best runs of many servers; the "
        "server directories of the settings are asked. Add one in Multiplayer > Browse servers (Directories, "
        "http://HOST:PORT), or start the game with --directory http://HOST:PORT.");
    ImGui::Spacing();
    if (ImGui::Button("Back") || back) out.kind = RecordsAction::kBack;
    ImGui::SetItemDefaultFocus();
    ImGui::End();
    popup_was_open_ = false;
    board_was_shown_ = false;
    return out;
  }

  bool popup_open = false;
  bool board_shown = false;
  // The hub: a selector when there are several.
  const std::size_t hub = records.hub().value_or(0);
  ImGui::AlignTextToFramePadding();
  const float field_x = ImGui::GetFontSize() * 3.5f;  // the selectors line up after their labels
  ImGui::TextUnformatted("Hub");
  ImGui::SameLine(field_x);
  if (hubs.size() > 1) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 18);
    if (ImGui::BeginCombo("##hub", hubs[hub].c_str())) {
      popup_open = true;
      for (std::size_t i = 0; i < hubs.size(); ++i) {
        ImGui::PushID(static_cast<int>(i));
        if (ImGui::Selectable(hubs[i].c_str(), i == hub) && i != hub) out = {RecordsAction::kHub, i};
        if (i == hub) ImGui::SetItemDefaultFocus();
        ImGui::PopID();
      }
      ImGui::EndCombo();
    }
  } else {
    ImGui::TextUnformatted(hubs[hub].c_str());
  }
  ImGui::SameLine();
  if (ImGui::Button("Refresh")) out.kind = RecordsAction::kRefresh;
  ImGui::SameLine();
  if (ImGui::Button("Back") || back) out.kind = RecordsAction::kBack;
  if (records.waiting()) {
    ImGui::SameLine();
    ImGui::TextDisabled("asking the hub...");
  }
  if (!records.boards_error().empty()) ImGui::TextColored(kRed, "%s", records.boards_error().c_str());

  const auto& boards = records.boards();
  if (records.boards_loaded() && boards.empty()) {
    ImGui::TextUnformatted("This hub has no records yet.");
  } else if (const auto board = records.board()) {
    // The board, and its two lists.
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Board");
    ImGui::SameLine(field_x);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 26);
    const std::string shown = board_label(boards[*board]);
    const ImGuiID selector = ImGui::GetID("##board");  // the combo's id (its label)
    if (ImGui::BeginCombo("##board", shown.c_str())) {
      popup_open = true;
      for (std::size_t i = 0; i < boards.size(); ++i) {
        ImGui::PushID(static_cast<int>(i));
        if (ImGui::Selectable(board_label(boards[i]).c_str(), i == *board) && i != *board) {
          out = {RecordsAction::kBoard, i};
        }
        if (i == *board) ImGui::SetItemDefaultFocus();
        ImGui::PopID();
      }
      ImGui::EndCombo();
    }
    // Keyboard and pad start on the board selector. It comes with the hub's first answer: in the frame the window
    // appears (the default focus), or later (then it takes the focus when it appears).
    ImGui::SetItemDefaultFocus();
    if (!board_was_shown_) {
      ImGui::SetFocusID(selector, ImGui::GetCurrentWindow());
      GImGui->NavDisableHighlight = false;
    }
    board_shown = true;
    ImGui::SameLine();
    ImGui::TextDisabled("%s", boards[*board].board.c_str());
    const RecordBoardSummary& b = boards[*board];
    const std::string trusted = "Trusted (" + std::to_string(b.trusted) + ")";
    const std::string other = "Other (" + std::to_string(b.other) + ")";
    if (ImGui::RadioButton(trusted.c_str(), records.list() == RecordList::kTrusted) &&
        records.list() != RecordList::kTrusted) {
      out = {RecordsAction::kList, 0, RecordList::kTrusted};
    }
    ImGui::SameLine();
    if (ImGui::RadioButton(other.c_str(), records.list() == RecordList::kOther) &&
        records.list() != RecordList::kOther) {
      out = {RecordsAction::kList, 0, RecordList::kOther};
    }
    ImGui::TextDisabled("%s", list_explanation(records.list()));
    if (!records.page_error().empty()) ImGui::TextColored(kRed, "%s", records.page_error().c_str());
    if (records.page()) {
      entries_table(records, own);
      ImGui::BeginDisabled(!records.can_previous());
      if (ImGui::Button("Previous page")) out.kind = RecordsAction::kPreviousPage;
      ImGui::EndDisabled();
      ImGui::SameLine();
      ImGui::TextUnformatted(page_text(*records.page(), records.offset()).c_str());
      ImGui::SameLine();
      ImGui::BeginDisabled(!records.can_next());
      if (ImGui::Button("Next page")) out.kind = RecordsAction::kNextPage;
      ImGui::EndDisabled();
      ImGui::SameLine();
      ImGui::TextDisabled("Page Up / Page Down turn pages");
    }
  }
  ImGui::End();
  if (!popup_open && !popup_was_open_ && !nav.suppressed && out.kind == RecordsAction::kNone) {
    if (nav.page_down && records.can_next()) out.kind = RecordsAction::kNextPage;
    if (nav.page_up && records.can_previous()) out.kind = RecordsAction::kPreviousPage;
  }
  popup_was_open_ = popup_open;
  board_was_shown_ = board_shown;
  return out;
}

}  // namespace sr::client
