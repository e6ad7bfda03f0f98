// The race screen: our board large, everyone else's beside it (up to 15, scaled to fit), names, live numbers and
// places, the countdown, end-of-game banners, and the results table with "rematch".
#include "client/app/app.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "client/lobby/race_results.h"
#include "client/solo/results.h"
#include "client/ui/hud.h"

namespace sr::client {
namespace {

// The banner over a board whose game ended ("" while it races).
const char* status_banner(protocol::RacerStatus s) {
  switch (s) {
    case protocol::RacerStatus::kFinished: return "FINISHED";
    case protocol::RacerStatus::kToppedOut: return "TOPPED OUT";
    case protocol::RacerStatus::kDisconnected: return "LEFT";
    case protocol::RacerStatus::kRemoved: return "REMOVED";
    case protocol::RacerStatus::kUnfinished: return "UNFINISHED";
    case protocol::RacerStatus::kRacing: return "";
  }
  return "";
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

namespace {

// The race's chat panel: bottom right, a few lines and the input line.
struct ChatRect {
  float x, y, w, h;
};
ChatRect chat_rect(float w, float h, float margin) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float cw = std::min(w * 0.3f, ImGui::GetFontSize() * 26.0f);
  const float ch = ImGui::GetTextLineHeightWithSpacing() * 5 + ImGui::GetFrameHeightWithSpacing() +
                   style.WindowPadding.y * 2 + style.ItemSpacing.y;
  return {w - margin - cw, h - margin - ch, cw, ch};
}

}  // namespace

// Board i of the race (in RaceView order) gets layouts[order[i]]: ours first and large, then the others. The
// others' grid leaves the chat panel's corner free.
void App::layout_race(float w, float h) {
  if (!race_screen_) return;
  std::vector<BoardLayout>& layouts = race_screen_->layouts;
  std::vector<std::size_t>& order = race_screen_->order;
  const std::uint32_t enlarged = race_screen_->race.enlarged;
  layouts.clear();
  order.clear();
  const auto* race = shown_race();
  if (!race) return;
  const float margin = std::min(w, h) * 0.02f;
  // The bottom holds the chat, and the results once they are shown (their height of the last frame): boards stay
  // above both.
  const float results_h = race_screen_->results_h;
  const float grid_h = h - 2 * margin - std::max(chat_rect(w, h, margin).h, results_h) - margin;
  const float full_h = results_h > 0 ? h - 3 * margin - results_h : h - 2 * margin;
  const int n = static_cast<int>(race->boards().size());
  std::vector<BoardLayout> others;
  if (!race->racing() && enlarged != 0 && race->board(enlarged) != nullptr && n > 1) {
    // Spectating with one board chosen: that one at full height, the others smaller beside it (one or two of them
    // would fit as large: they get half the height).
    const float big_w = (w - 2 * margin) * 0.55f;
    layouts.push_back(fit_board(margin, margin, big_w, full_h));
    const float others_h = n - 1 <= 2 ? std::min(grid_h, full_h * 0.55f) : grid_h;
    grid_layouts(others, n - 1, margin + big_w, margin, w - 2 * margin - big_w, others_h);
    layouts.insert(layouts.end(), others.begin(), others.end());
    std::size_t next = 1;
    for (const auto& b : race->boards()) order.push_back(b.entrant.player_id == enlarged ? 0 : next++);
    return;
  }
  if (race->racing()) {
    const float own_w = n > 1 ? (w - 2 * margin) * 0.45f : w - 2 * margin;
    layouts.push_back(fit_board(margin, margin, own_w, full_h));
    if (n > 1) grid_layouts(others, n - 1, margin + own_w, margin, w - 2 * margin - own_w, grid_h);
  } else {
    grid_layouts(others, n, margin, margin, w - 2 * margin, grid_h);
  }
  layouts.insert(layouts.end(), others.begin(), others.end());
  std::size_t next = race->racing() ? 1 : 0;
  for (const auto& b : race->boards()) {
    order.push_back(&b == race->mine() ? 0 : next++);
  }
}

std::vector<std::string> App::race_layout_notes() const {
  if (!race_screen_) return {};
  const std::vector<std::size_t>& order = race_screen_->order;
  std::vector<std::string> notes(race_screen_->layouts.size());
  const auto* race = shown_race();
  if (!race) return notes;
  for (std::size_t i = 0; i < race->boards().size() && i < order.size(); ++i) {
    const auto& b = race->boards()[i];
    if (order[i] < notes.size()) {
      notes[order[i]] =
          std::to_string(b.game().now()) + " " + std::to_string(b.game().stats().pieces) + " " + b.entrant.name;
    }
  }
  return notes;
}

void App::render_race(const BoardLook& look, double now_s) {
  const auto* race = shown_race();
  if (!race) return;  // also when there is no race_screen_
  const RaceScreenState& rs = *race_screen_;
  for (std::size_t i = 0; i < race->boards().size() && i < rs.order.size(); ++i) {
    BoardLook l = look;
    l.dim = race->boards()[i].status != protocol::RacerStatus::kRacing || race->boards()[i].game().over();
    draw_board(batch_, rs.layouts[rs.order[i]], race->boards()[i].game(), nullptr, l, now_s);
  }
}

// Spectators choose a board without a mouse: Left/Right (pad d-pad) step through the boards and the grid, Esc
// (pad B) goes back to the grid, and from the grid leaves the room.
void App::spectator_keys(const net::RaceView& race, const MenuNav& nav) {
  if (race.racing() || ImGui::GetIO().WantTextInput) return;
  const auto& boards = race.boards();
  std::uint32_t& enlarged = race_screen_->race.enlarged;  // shown_race(): there is a race screen
  if (nav.left || nav.right) {
    // Positions 0..n: 0 is the grid, k the k-th board.
    std::size_t at = 0;
    for (std::size_t i = 0; i < boards.size(); ++i) {
      if (boards[i].entrant.player_id == enlarged) at = i + 1;
    }
    const std::size_t count = boards.size() + 1;
    at = nav.right ? (at + 1) % count : (at + count - 1) % count;
    enlarged = at == 0 ? 0 : boards[at - 1].entrant.player_id;
  } else if (nav.back) {
    if (enlarged != 0) {
      enlarged = 0;
    } else {
      (void)net_.session().leave_room();
    }
  }
}

// A small chat in the corner: read, and click to type; Enter sends and gives the keys back to the game, Esc gives
// them back without sending. It never takes the keyboard by itself.
void App::race_chat() {
  auto& draft = race_screen_->chat;  // only on the race screen: there is one
  const ImGuiIO& io = ImGui::GetIO();
  const float margin = std::min(io.DisplaySize.x, io.DisplaySize.y) * 0.02f;
  const ChatRect r = chat_rect(io.DisplaySize.x, io.DisplaySize.y, margin);
  ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(r.w, r.h), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.55f);
  ImGui::Begin("##race chat", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoNav |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoSavedSettings);
  ImGui::BeginChild("lines", ImVec2(0, -ImGui::GetFrameHeightWithSpacing()), false);
  const auto& log = net_.session().chat_log();
  const std::size_t first = log.size() > 20 ? log.size() - 20 : 0;
  for (std::size_t i = first; i < log.size(); ++i) {
    ImGui::TextWrapped("%s: %s", log[i].from_name.c_str(), log[i].text.c_str());
  }
  if (ImGui::GetScrollY() >= ImGui::GetScrollMaxY()) ImGui::SetScrollHereY(1.0f);
  ImGui::EndChild();
  ImGui::SetNextItemWidth(-1);
  const bool sent = ImGui::InputTextWithHint("##say", "chat: click to type, Enter sends", draft, sizeof draft,
                                             ImGuiInputTextFlags_EnterReturnsTrue);
  if (sent) {
    if (draft[0] != 0) (void)net_.session().chat(draft);
    draft[0] = 0;
  }
  const bool left_field = sent || (ImGui::IsItemDeactivated() && !ImGui::IsItemActive());
  ImGui::End();
  if (left_field) ImGui::SetWindowFocus(nullptr);  // the keys are the game's again
}

void App::race_ui(double now_s, const MenuNav& nav) {
  const auto* race = shown_race();
  const auto& results = net_.session().results();
  const bool over = results && results->race_id == race->race_id();
  if (!over) spectator_keys(*race, nav);
  race = shown_race();  // leaving the room ends it
  if (!race) return;
  const ImGuiIO& io = ImGui::GetIO();
  layout_race(io.DisplaySize.x, io.DisplaySize.y);
  RaceScreenState& rs = *race_screen_;  // shown_race(): there is a race screen
  const auto t = net_.session().race_time_us();
  const double countdown = t && *t < 0 ? static_cast<double>(-*t) / 1e6 : 0.0;
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  for (std::size_t i = 0; i < race->boards().size() && i < rs.order.size(); ++i) {
    const auto& b = race->boards()[i];
    const BoardLayout& layout = rs.layouts[rs.order[i]];
    std::string name = b.entrant.name;
    if (b.live.place > 0) name += "  #" + std::to_string(b.live.place);
    if (t && race->mine() != &b && b.lagging(*t)) name += "  LAGGING";
    draw_hud(fonts_, HudBoard{&b.game(), nullptr, layout, name, countdown}, now_s);
    // Spectators click a board to enlarge it (again to go back to the grid).
    if (!race->racing() && ImGui::IsMouseClicked(0) && !io.WantCaptureMouse) {
      const ImVec2 m = io.MousePos;
      if (m.x >= layout.x && m.x < layout.x + layout.width() && m.y >= layout.y && m.y < layout.y + layout.height()) {
        rs.race.enlarged = rs.race.enlarged == b.entrant.player_id ? 0 : b.entrant.player_id;
      }
    }
    if (const char* banner = status_banner(b.status); banner[0] != 0) {
      // Sized to the board, with the time under it: the numbers beside the board stay readable.
      std::string text = banner;
      if (b.place > 0 && b.status == protocol::RacerStatus::kFinished) text += " #" + std::to_string(b.place);
      draw_banner(fonts_, layout, text, format_time(b.game().stats().time_us));
    }
  }
  // The spectator's hint: at the bottom of the screen, or once the results are up (they hold the bottom), as the last
  // line of the results window.
  const char* hint = nullptr;
  if (!race->racing() && race->boards().size() > 1) {
    hint = rs.race.enlarged == 0 ? "click a board (or Left/Right) to enlarge it; Esc leaves the room"
                                 : "click it again (or Esc) for every board; Left/Right for the next";
  }
  if (hint != nullptr && !over) {
    const ImVec2 size = ImGui::CalcTextSize(hint);
    dl->AddText(ImVec2(io.DisplaySize.x * 0.5f - size.x * 0.5f, io.DisplaySize.y - size.y - 4),
                IM_COL32(200, 200, 210, 255), hint);
  }
  race_chat();
  if (!racing_now()) rs.race.leave_asked = false;  // our game or the race ended meanwhile
  if (rs.race.leave_asked) leave_race_ui();
  if (over) {
    results_table(*results, now_s, nav, hint);
  } else {
    rs.results_h = 0;
  }
}

void App::leave_race_ui() {
  RaceScreenState::Race& r = race_screen_->race;         // asked only on the race screen
  begin_overlay("Leave the race?", 0.4f, 0.95f, false);  // the game keeps the keys
  ImGui::TextUnformatted("A race cannot be paused: your game goes on meanwhile.");
  ImGui::TextDisabled("Leaving forfeits it (your game so far is kept as a replay).");
  static constexpr const char* kChoices[kLeaveChoices] = {"Keep racing (Esc)", "Forfeit and leave the room",
                                                          "Forfeit and leave the server"};
  int chosen = -1;
  for (int i = 0; i < kLeaveChoices; ++i) {
    if (ImGui::Selectable(kChoices[i], r.leave_choice == i)) chosen = i;
  }
  ImGui::TextDisabled("Up/Down choose, Enter confirms");
  ImGui::End();
  if (chosen >= 0) leave_race(chosen);
}

bool App::results_fresh(double now_s) const {
  const auto* race = shown_race();
  const auto& results = net_.session().results();
  return screen_ == Screen::kNet && race != nullptr && results && results->race_id == race->race_id() &&
         now_s - race_screen_->results_shown_s < kResultsKeyGraceS;  // shown_race(): there is a race screen
}

void App::results_table(const protocol::RaceResults& results, double now_s, const MenuNav& nav,
                        const char* spectator_hint) {
  const ImGuiIO& io = ImGui::GetIO();
  // Bottom left, beside the chat (bottom right): the boards are laid out above it (layout_race, results_h).
  const float margin = std::min(io.DisplaySize.x, io.DisplaySize.y) * 0.02f;
  const ChatRect chat = chat_rect(io.DisplaySize.x, io.DisplaySize.y, margin);
  const float table_w = chat.x - 2 * margin;
  ImGui::SetNextWindowPos(ImVec2(margin, io.DisplaySize.y - margin), ImGuiCond_Always, ImVec2(0.0f, 1.0f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(table_w, io.DisplaySize.y * 0.5f));
  // Keys still pressed as hard drops when the race ends must not press a button: the buttons come a moment later
  // in a window of their own, which then takes the keyboard and pad focus (nav_inputs() holds ImGui's navigation
  // until then).
  const bool fresh = results_fresh(now_s);
  ImGui::Begin("Results", nullptr,
               ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoNav |
                   ImGuiWindowFlags_NoFocusOnAppearing);
  const engine::GoalKind goal = net_.session().race()->config().goal;
  // "unverified": game time the server received late (a stalled connection), played with more real time than game
  // time. Empty for a clean run.
  if (ImGui::BeginTable("results", 8,
                        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
    for (const char* h : {"place", "player", goal == engine::GoalKind::kTime ? "time" : "result", "lines", "pieces",
                          "PPS", "KPP", "unverified"}) {
      ImGui::TableSetupColumn(h);
    }
    ImGui::TableHeadersRow();
    for (const ResultRow& r : result_rows(results, goal)) {
      ImGui::TableNextRow();
      for (const std::string* cell :
           {&r.place, &r.name, &r.outcome, &r.lines, &r.pieces, &r.pps, &r.kpp, &r.unverified}) {
        ImGui::TableNextColumn();
        if (cell == &r.outcome && !r.finished) {
          ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.45f, 1.0f), "%s", cell->c_str());
        } else {
          ImGui::TextUnformatted(cell->c_str());
        }
      }
    }
    ImGui::EndTable();
  }
  if (!net_.own_saved().empty() && net_.session().race()->racing()) {
    ImGui::TextUnformatted(net_.own_saved().c_str());
  }
  if (const auto& not_stored = net_.session().replay_not_stored()) {
    ImGui::TextUnformatted(net::describe_not_stored(*not_stored).c_str());
  }
  if (spectator_hint != nullptr) ImGui::TextDisabled("%s", spectator_hint);
  const ImVec2 table_pos = ImGui::GetWindowPos();
  float& results_h = race_screen_->results_h;  // on the race screen: there is one
  results_h = ImGui::GetWindowHeight();
  ImGui::End();
  if (fresh) return;
  ImGui::SetNextWindowPos(table_pos, ImGuiCond_Always, ImVec2(0.0f, 1.0f));  // just above the table
  ImGui::Begin("##results actions", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings);
  results_h += ImGui::GetWindowHeight();
  std::uint32_t& dismissed = race_screen_->dismissed_race;  // on the race screen: there is one
  if (ladder_ && ladder_->board.playing()) {
    // A contest ladder game: its room is the server's, for this one game (app_ladder.cpp comes back to the ladder).
    if (ImGui::Button("Back to the ladder") || (nav.back && !ImGui::GetIO().WantTextInput)) {
      (void)net_.session().leave_room();
    }
  } else {
    if (ImGui::Button("Rematch")) {
      dismissed = results.race_id;
      (void)net_.session().set_ready(true);
    }
    ImGui::SameLine();
    if (ImGui::Button("Back to the room") || (nav.back && !ImGui::GetIO().WantTextInput)) {
      dismissed = results.race_id;
    }
  }
  ImGui::SetItemDefaultFocus();  // keyboard and pad start on the harmless choice
  std::string& link_note = race_screen_->race.link_note;
  if (const auto stored = net_.session().stored_replay()) {
    ImGui::SameLine();
    if (ImGui::Button("Watch replay") && net_.session().download_replay(*stored)) {
      pending_download_ = *stored;
      dismissed = results.race_id;
    }
    // The game's page on the server's web pages (web/README.md, "A game's web link"): L, or the button.
    ImGui::SameLine();
    const bool typing = ImGui::GetIO().WantTextInput;
    if (ImGui::Button("Copy web link (L)") || (!typing && nav.pressed(GLFW_KEY_L))) {
      link_note = copy_game_link(*stored);
    }
  }
  if (!link_note.empty()) ImGui::TextUnformatted(link_note.c_str());
  ImGui::End();
}

const std::vector<BoardLayout>& App::race_layouts() const {
  static const std::vector<BoardLayout> kNone;
  return race_screen_ ? race_screen_->layouts : kNone;
}

}  // namespace sr::client
