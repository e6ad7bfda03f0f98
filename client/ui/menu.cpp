#include "client/ui/menu.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>  // NavWindow / NavId / SetFocusID: default_focus()
#include <imgui_stdlib.h>

#include <algorithm>

namespace sr::client {

namespace {

// The default item default_focus() saw last: restore_default_focus() checks it at the end of its window.
struct DefaultItem {
  ImGuiWindow* window = nullptr;
  ImGuiID item = 0;
  int frame = -1;
};
DefaultItem g_default_item;

}  // namespace

void restore_default_focus() {
  const ImGuiContext& g = *GImGui;
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const DefaultItem& d = g_default_item;
  if (d.frame != g.FrameCount || d.window != window || d.item == 0) return;
  if (g.NavWindow == window->RootWindowForNav && g.NavId != 0 && !g.NavIdIsAlive && !g.NavInitRequest &&
      g.ActiveId == 0) {
    ImGui::SetFocusID(d.item, window);
  }
}

bool default_item_accepted(const MenuNav& nav) {
  const ImGuiContext& g = *GImGui;
  const ImGuiID item = ImGui::GetItemID();
  return nav.activated_nothing && item != 0 && (g.NavId == item || g.NavInitResultId == item) &&
         !ImGui::GetIO().WantTextInput;
}

void default_focus() {
  ImGui::SetItemDefaultFocus();
  const ImGuiContext& g = *GImGui;
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const ImGuiID item = ImGui::GetItemID();
  g_default_item = DefaultItem{window, item, g.FrameCount};
  if (item != 0 && g.NavWindow == window->RootWindowForNav && g.NavId == 0 && !g.NavInitRequest &&
      g.NavInitResultId == 0 && g.ActiveId == 0) {
    ImGui::SetFocusID(item, window);
  }
}

void begin_full_screen(const char* title) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.05f, io.DisplaySize.y * 0.05f), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x * 0.9f, io.DisplaySize.y * 0.9f), ImGuiCond_Always);
  ImGui::Begin(title, nullptr, ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse);
}

void begin_overlay(const char* title, float y_fraction, float bg_alpha, bool focus_on_appearing) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * y_fraction), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(bg_alpha);
  ImGui::Begin(title, nullptr,
               ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoSavedSettings |
                   (focus_on_appearing ? 0 : ImGuiWindowFlags_NoFocusOnAppearing));
}

float docked_panel_width(float display_w, float display_h, float font_size) {
  const float margin = std::min(display_w, display_h) * 0.02f;
  const float panel = 24.0f * font_size + 2 * margin;
  return display_w - panel >= display_w * 0.45f ? panel : 0.0f;
}

void Menu::begin(const char* title, const MenuNav& nav, float width_em) {
  nav_ = nav;
  count_ = 0;
  was_editing_ = editing_text_;
  const ImGuiIO& io = ImGui::GetIO();
  const float em = ImGui::GetFontSize();
  const float w = std::min(width_em * em, io.DisplaySize.x * 0.95f);
  if (docked_ && docked_panel_width(io.DisplaySize.x, io.DisplaySize.y, em) > 0) {
    const float margin = std::min(io.DisplaySize.x, io.DisplaySize.y) * 0.02f;
    ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - margin, io.DisplaySize.y * 0.5f), ImGuiCond_Always,
                            ImVec2(1.0f, 0.5f));
  } else {
    ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always,
                            ImVec2(0.5f, 0.5f));
  }
  ImGui::SetNextWindowSizeConstraints(ImVec2(w, 0), ImVec2(w, io.DisplaySize.y * 0.92f));
  ImGui::Begin(title, nullptr,
               ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoNav);
}

void Menu::end() {
  ImGui::End();
  if (count_ == 0) return;
  if (!editing_text_ && !nav_.suppressed) {
    if (nav_.up) selected_ = (selected_ - 1 + count_) % count_;
    if (nav_.down) selected_ = (selected_ + 1) % count_;
  }
  selected_ = std::clamp(selected_, 0, count_ - 1);
}

bool Menu::row(const std::string& label, const std::string& value, bool enabled, bool& activated) {
  const int index = count_++;
  const bool is_selected = index == selected_;
  activated = false;
  ImGui::PushID(index);
  if (!enabled) ImGui::BeginDisabled();
  const float full_w = ImGui::GetContentRegionAvail().x;
  const ImVec4 accent = ImGui::GetStyleColorVec4(ImGuiCol_HeaderActive);
  ImGui::PushStyleColor(ImGuiCol_Header, accent);
  ImGui::PushStyleColor(ImGuiCol_HeaderHovered, is_selected ? accent : ImVec4(1, 1, 1, 0.06f));
  if (ImGui::Selectable("##row", is_selected, 0, ImVec2(full_w, 0))) {
    selected_ = index;
    activated = true;
  }
  ImGui::PopStyleColor(2);
  const ImVec2 mouse_delta = ImGui::GetIO().MouseDelta;
  if (enabled && ImGui::IsItemHovered() && (mouse_delta.x != 0 || mouse_delta.y != 0)) selected_ = index;
  if (is_selected && (nav_.up || nav_.down)) ImGui::SetScrollHereY();
  ImGui::SameLine(ImGui::GetStyle().ItemSpacing.x);
  ImGui::TextUnformatted(label.c_str());
  if (!value.empty()) {
    const float vw = ImGui::CalcTextSize(value.c_str()).x;
    ImGui::SameLine(std::max(full_w - vw, ImGui::CalcTextSize(label.c_str()).x + 20.0f));
    ImGui::TextUnformatted(value.c_str());
  }
  if (!enabled) ImGui::EndDisabled();
  ImGui::PopID();
  if (is_selected && nav_.accept && enabled && !nav_.suppressed) activated = true;
  return is_selected && enabled && !nav_.suppressed;
}

bool Menu::button(const std::string& label, bool enabled) {
  bool activated = false;
  row(label, "", enabled, activated);
  return activated && enabled;
}

bool Menu::choice(const std::string& label, int& index, std::span<const std::string> options) {
  if (options.empty()) return false;
  index = std::clamp(index, 0, static_cast<int>(options.size()) - 1);
  bool activated = false;
  const std::string value = "< " + options[static_cast<std::size_t>(index)] + " >";
  const bool active = row(label, value, true, activated);
  const int n = static_cast<int>(options.size());
  const int before = index;
  if (active && nav_.left) index = (index - 1 + n) % n;
  if ((active && nav_.right) || activated) index = (index + 1) % n;
  return index != before;
}

bool Menu::picker(const std::string& label, int& index, std::span<const std::string> options) {
  if (options.empty()) return false;
  const int n = static_cast<int>(options.size());
  index = std::clamp(index, 0, n - 1);
  bool activated = false;
  const bool active = row(label, "< " + options[static_cast<std::size_t>(index)] + " >", true, activated);
  if (active && nav_.left) index = (index - 1 + n) % n;
  if (active && nav_.right) index = (index + 1) % n;
  return activated;
}

bool Menu::number(const std::string& label, int& value, int lo, int hi, int step, const char* unit,
                  const char* zero_text) {
  bool activated = false;
  std::string shown = (value == 0 && zero_text != nullptr) ? zero_text : std::to_string(value) + unit;
  const bool active = row(label, "< " + shown + " >", true, activated);
  const int before = value;
  if (ImGui::GetIO().KeyShift) step *= 10;  // Shift+Left/Right: big steps
  if (active && nav_.left) value = std::max(lo, value - step);
  if (active && nav_.right) value = std::min(hi, value + step);
  return value != before;
}

bool Menu::toggle(const std::string& label, bool& value) {
  bool activated = false;
  const bool active = row(label, value ? "< on >" : "< off >", true, activated);
  if (activated || (active && (nav_.left || nav_.right))) {
    value = !value;
    return true;
  }
  return false;
}

bool Menu::text(const std::string& label, std::string& value, std::size_t max_len) {
  const int index = count_;
  if (editing_text_ && editing_index_ == index) {
    ++count_;
    ImGui::PushID(index);
    ImGui::TextUnformatted(label.c_str());
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    ImGui::SetKeyboardFocusHere();
    bool done = ImGui::InputText("##edit", &value, ImGuiInputTextFlags_EnterReturnsTrue);
    if (value.size() > max_len) value.resize(max_len);
    if (nav_.pressed(GLFW_KEY_ESCAPE) || nav_.pressed(GLFW_KEY_ENTER) || nav_.pressed(GLFW_KEY_KP_ENTER)) done = true;
    ImGui::PopID();
    if (done) {
      editing_text_ = false;
      editing_index_ = -1;
      return true;
    }
    return false;
  }
  bool activated = false;
  row(label, value + "  (Enter to edit)", true, activated);
  if (activated) {
    editing_text_ = true;
    editing_index_ = index;
  }
  return false;
}

void Menu::heading(const std::string& label) {
  ImGui::Spacing();
  ImGui::TextDisabled("%s", label.c_str());
  ImGui::Separator();
}

}  // namespace sr::client
