#include "client/ui/screens.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <array>
#include <cstdio>

#include "client/solo/modes.h"
#include "common/protocol/text.h"

namespace sr::client {

bool draw_notice(const char* title, const std::string& text, const MenuNav& nav) {
  const ImGuiIO& io = ImGui::GetIO();
  const float em = ImGui::GetFontSize();
  const float w = std::min(std::clamp(io.DisplaySize.x * 0.5f, 30 * em, 60 * em), io.DisplaySize.x * 0.95f);
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(w, 0), ImGuiCond_Always);  // height: as the text needs
  ImGui::SetNextWindowFocus();
  ImGui::SetNextWindowBgAlpha(1.0f);                        // the menu beneath must not show through the text
  const std::string id = std::string(title) + "###notice";  // one window whatever its title
  ImGui::Begin(id.c_str(), nullptr,
               ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoNav);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::Spacing();
  const float button_w = 8 * em;
  ImGui::SetCursorPosX((ImGui::GetWindowWidth() - button_w) * 0.5f);
  bool closed = ImGui::Button("OK", ImVec2(button_w, 0));
  // Drawn as the keyboard's choice: the only thing to do here.
  ImGui::GetWindowDrawList()->AddRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(),
                                      ImGui::GetColorU32(ImGuiCol_NavHighlight), 0.0f, 0, 2.0f);
  ImGui::TextDisabled("Enter or Esc closes this");
  ImGui::End();
  closed = closed || (!nav.suppressed && (nav.accept || nav.back || nav.pressed(GLFW_KEY_SPACE)));
  return closed;
}

bool draw_welcome(std::string& name) {
  const ImGuiIO& io = ImGui::GetIO();
  const float em = ImGui::GetFontSize();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(32 * em, io.DisplaySize.x * 0.95f), 0), ImGuiCond_Always);
  ImGui::SetNextWindowFocus();
  ImGui::SetNextWindowBgAlpha(1.0f);
  ImGui::Begin("Welcome to stackrace", nullptr,
               ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                   ImGuiWindowFlags_NoSavedSettings);
  ImGui::TextWrapped(
      "Choose the name other players will see when you race on a server (Settings > Player changes it later).");
  ImGui::Spacing();
  if (!ImGui::IsAnyItemActive()) ImGui::SetKeyboardFocusHere();  // typing goes to the name at once
  ImGui::SetNextItemWidth(-1);
  bool accepted = ImGui::InputText("##name", &name, ImGuiInputTextFlags_EnterReturnsTrue);
  const auto valid = protocol::check_text(name, protocol::kPlayerNameText);
  if (!valid)
    ImGui::TextColored(ImVec4(1.0f, 0.5f, 0.4f, 1.0f), "Not a name a server takes: %s", valid.error().c_str());
  accepted = ImGui::Button("Play") || accepted;
  ImGui::SameLine();
  ImGui::TextDisabled("Enter accepts");
  ImGui::End();
  return accepted && valid.ok();
}

CloseWarningChoice draw_close_warning(std::size_t others, const MenuNav& nav) {
  begin_overlay("Close the game?", 0.4f, 1.0f);
  ImGui::Text("This game hosts the server %s on.", others == 1 ? "another player is" : "other players are");
  ImGui::TextUnformatted("Closing it stops the server: their race ends and they are told the host closed the game.");
  CloseWarningChoice choice = CloseWarningChoice::kNone;
  if (ImGui::Button("Close anyway (Enter)") || nav.accept) choice = CloseWarningChoice::kClose;
  ImGui::SameLine();
  if (ImGui::Button("Keep playing (Esc)") || (choice == CloseWarningChoice::kNone && nav.back)) {
    choice = CloseWarningChoice::kStay;
  }
  ImGui::End();
  return choice;
}

void draw_toast(const std::string& text) {
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const float pad = ImGui::GetFontSize() * 0.4f;
  const ImVec2 at(ImGui::GetIO().DisplaySize.x * 0.5f - size.x * 0.5f, 2 * pad);
  dl->AddRectFilled(ImVec2(at.x - pad, at.y - pad), ImVec2(at.x + size.x + pad, at.y + size.y + pad),
                    IM_COL32(20, 20, 28, 220), pad);
  dl->AddText(at, IM_COL32(235, 235, 245, 255), text.c_str());
}

MainChoice draw_main_menu(Menu& menu, const MenuNav& nav, const std::string& player_name) {
  MainChoice choice = MainChoice::kNone;
  menu.begin("stackrace", nav, 20.0f);
  ImGui::TextDisabled("Playing as %s", player_name.c_str());
  ImGui::Separator();
  if (menu.button("Solo")) choice = MainChoice::kSolo;
  if (menu.button("Race the bot")) choice = MainChoice::kBot;
  if (menu.button("Puzzles")) choice = MainChoice::kPuzzles;
  if (menu.button("Multiplayer")) choice = MainChoice::kMultiplayer;
  if (menu.button("Replays")) choice = MainChoice::kReplays;
  if (menu.button("Records")) choice = MainChoice::kRecords;
  if (menu.button("Settings")) choice = MainChoice::kSettings;
  constexpr int kQuitItem = 7;  // the items above, counted from 0
  if (menu.button("Quit")) choice = MainChoice::kQuit;
  // Esc here never quits by itself (Esc pressed once too often from a screen below would close the game): it moves
  // to Quit, which Enter then activates.
  if (menu.back()) menu.select(kQuitItem);
  ImGui::Separator();
  ImGui::TextDisabled("Arrows move, Enter selects, Esc goes to Quit");
  menu.end();
  return choice;
}

namespace {

std::vector<std::string> labels_of(const std::vector<ModeChoice>& choices) {
  std::vector<std::string> out;
  for (const auto& c : choices) out.push_back(c.label);
  return out;
}

}  // namespace

std::optional<GamePick> SoloMenu::draw(const MenuNav& nav, bool& back, bool& custom) {
  static const auto sprints = mode_presets(engine::ModeKind::kSprint);
  static const auto ultras = mode_presets(engine::ModeKind::kUltra);
  static const auto marathons = mode_presets(engine::ModeKind::kMarathon);
  static const std::vector<std::string> sprint_options = {"20 lines", "40 lines", "100 lines", "1000 lines"};
  static const std::vector<std::string> ultra_options = {"1 minute", "2 minutes", "3 minutes"};
  static const std::vector<std::string> marathon_options = {"fixed goal", "variable goal"};
  std::optional<GamePick> pick;
  menu_.begin("Solo", nav);
  ImGui::TextDisabled("Left/Right picks the variant, Enter starts");
  ImGui::Separator();
  if (menu_.picker("Sprint", sprint_, sprint_options)) pick = GamePick{sprints.at(sprint_).config, std::nullopt};
  if (menu_.picker("Ultra", ultra_, ultra_options)) pick = GamePick{ultras.at(ultra_).config, std::nullopt};
  if (menu_.picker("Marathon", marathon_, marathon_options)) {
    pick = GamePick{marathons.at(marathon_).config, std::nullopt};
  }
  for (auto mode : {engine::ModeKind::kMaster, engine::ModeKind::kEndless, engine::ModeKind::kContest}) {
    const auto presets = mode_presets(mode);
    if (menu_.button(presets.front().label)) pick = GamePick{presets.front().config, std::nullopt};
  }
  if (menu_.button("Custom...")) custom = true;
  if (menu_.button("Back")) back = true;
  back = back || menu_.back();
  menu_.end();
  return pick;
}

std::optional<GamePick> BotMenu::draw(const MenuNav& nav, bool& back) {
  static const std::vector<ModeChoice> modes = [] {
    std::vector<ModeChoice> m = mode_presets(engine::ModeKind::kSprint);
    for (auto& u : mode_presets(engine::ModeKind::kUltra)) m.push_back(u);
    return m;
  }();
  static const auto mode_labels = labels_of(modes);
  std::optional<GamePick> pick;
  menu_.begin("Race the bot", nav);
  ImGui::TextDisabled("The bot plays the same pieces on a second board");
  ImGui::Separator();
  static const std::vector<std::string> speeds = [] {
    std::vector<std::string> out;
    for (int tenths = 2; tenths <= 60; ++tenths) {
      char label[32];
      std::snprintf(label, sizeof label, "%.1f pieces per second", tenths / 10.0);
      out.emplace_back(label);
    }
    return out;
  }();
  menu_.choice("Mode", mode_, mode_labels);
  int speed = pps_tenths_ - 2;
  menu_.choice("Bot speed", speed, speeds);
  pps_tenths_ = speed + 2;
  if (menu_.button("Start")) {
    pick = GamePick{modes[static_cast<std::size_t>(mode_)].config, pps_tenths_ / 10.0};
  }
  if (menu_.button("Back")) back = true;
  back = back || menu_.back();
  menu_.end();
  return pick;
}

PauseChoice draw_pause_menu(Menu& menu, const MenuNav& nav) {
  PauseChoice choice = PauseChoice::kNone;
  menu.begin("Paused", nav, 16.0f);
  if (menu.button("Resume (Esc)")) choice = PauseChoice::kResume;
  if (menu.button("Restart (R)")) choice = PauseChoice::kRestart;
  if (menu.button("Quit to menu (Q)")) choice = PauseChoice::kQuit;
  if (menu.back()) choice = PauseChoice::kResume;
  menu.end();
  if (!nav.suppressed && choice == PauseChoice::kNone && nav.pressed(GLFW_KEY_Q)) choice = PauseChoice::kQuit;
  return choice;
}

void draw_stats_and_saved(const std::vector<std::pair<std::string, std::string>>& stats, const std::string& saved) {
  ImGui::Separator();
  if (ImGui::BeginTable("stats", 2)) {
    for (const auto& [label, value] : stats) {
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%s", label.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(value.c_str());
    }
    ImGui::EndTable();
  }
  ImGui::Separator();
  ImGui::TextWrapped("%s", saved.c_str());
}

ResultsChoice draw_results(Menu& menu, const MenuNav& nav, const ResultsView& v) {
  ResultsChoice choice = ResultsChoice::kNone;
  menu.begin(v.title.c_str(), nav, 22.0f);
  ImGui::TextDisabled("%s", v.mode.c_str());
  ImGui::PushFont(ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1] : ImGui::GetFont());
  ImGui::TextUnformatted(headline(v.result).c_str());
  ImGui::PopFont();
  if (v.new_best) {
    ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.3f, 1.0f), "New personal best!");
  }
  if (v.previous_best) {
    ImGui::Text("Personal best before: %s", headline(*v.previous_best).c_str());
  } else if (!v.result.abandoned) {
    ImGui::TextDisabled("No earlier result in this mode");
  }
  if (!v.bot_line.empty()) ImGui::TextUnformatted(v.bot_line.c_str());
  draw_stats_and_saved(v.stats, v.saved);
  if (menu.button("Retry (R)")) choice = ResultsChoice::kRetry;
  if (menu.button("Back to menu (Esc)")) choice = ResultsChoice::kMenu;
  if (menu.back()) choice = ResultsChoice::kMenu;
  menu.end();
  return choice;
}

}  // namespace sr::client
