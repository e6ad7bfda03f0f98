// ui::default_focus() (client/ui/menu.h) on a real ImGui context without a window or renderer: keyboard and pad
// start on the default item of a window that appears, and of a window that has the navigation with nothing focused
// (ImGui 1.86 sometimes leaves a new window so: the room's Ready button then took no Enter, and the window test
// ClientWindow.RecordsFromAFakeHubWithTheKeyboard failed about one run in three).
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <utility>

#include "client/ui/menu.h"

namespace sr::client {
namespace {

class ImGuiFrames : public ::testing::Test {
 protected:
  void SetUp() override {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1280, 720);
    io.DeltaTime = 1.0f / 60.0f;
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    io.KeyMap[ImGuiKey_Space] = 32;  // ImGui 1.86 asks for it with keyboard navigation (a backend's mapping)
    unsigned char* pixels = nullptr;
    int w = 0;
    int h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  void TearDown() override { ImGui::DestroyContext(); }

  // One frame of a window with two buttons, the second one the default; returns the second's id.
  static ImGuiID frame(bool use_default_focus) {
    ImGui::NewFrame();
    begin_full_screen("room###room");
    ImGui::Button("Watch instead");
    ImGui::Button("Ready");
    const ImGuiID ready = ImGui::GetItemID();
    if (use_default_focus) {
      default_focus();
    } else {
      ImGui::SetItemDefaultFocus();
    }
    ImGui::Button("Leave room");
    if (use_default_focus) restore_default_focus();
    ImGui::End();
    ImGui::Render();
    return ready;
  }
};

TEST_F(ImGuiFrames, AnAppearingWindowStartsOnItsDefaultItem) {
  const ImGuiID ready = frame(true);
  frame(true);
  EXPECT_EQ(GImGui->NavId, ready);
}

TEST_F(ImGuiFrames, AWindowWithTheNavigationAndNothingFocusedGetsItsDefaultItem) {
  const ImGuiID ready = frame(true);
  frame(true);
  GImGui->NavId = 0;  // as ImGui 1.86 sometimes leaves a window that has just appeared
  frame(true);
  frame(true);
  EXPECT_EQ(GImGui->NavId, ready);
  EXPECT_EQ(GImGui->NavWindow, ImGui::FindWindowByName("room###room"));
}

TEST_F(ImGuiFrames, AFocusOnAnItemTheWindowNoLongerDrawsGoesToTheDefaultItem) {
  const ImGuiID ready = frame(true);
  frame(true);
  ImGuiWindow* room = ImGui::FindWindowByName("room###room");
  GImGui->NavId = room->GetID("Apply settings");  // an id from before, not drawn in this window now
  frame(true);
  frame(true);
  EXPECT_EQ(GImGui->NavId, ready);
  // A focus on an item the window does draw stays where it is.
  const ImGuiID leave = room->GetID("Leave room");
  GImGui->NavId = leave;
  frame(true);
  frame(true);
  EXPECT_EQ(GImGui->NavId, leave);
}

// Enter in the frame whose default_focus() sets the focus (nothing was focused when ImGui read the key): the default
// item takes it; Enter with the focus set was ImGui's to apply, and another item is never pressed so.
TEST_F(ImGuiFrames, EnterThatPressedNothingPressesTheDefaultItemItsFrameFocused) {
  frame(true);
  frame(true);
  const auto accepted = [](bool activated_nothing) {
    MenuNav nav;
    nav.accept = true;
    nav.activated_nothing = activated_nothing;
    ImGui::NewFrame();
    begin_full_screen("room###room");
    ImGui::Button("Watch instead");
    const bool other = default_item_accepted(nav);  // not the default item
    ImGui::Button("Ready");
    default_focus();
    const bool ready = default_item_accepted(nav);
    ImGui::End();
    ImGui::Render();
    return std::make_pair(other, ready);
  };
  GImGui->NavId = 0;
  EXPECT_EQ(accepted(true), std::make_pair(false, true));
  EXPECT_EQ(accepted(false), std::make_pair(false, false));
}

TEST_F(ImGuiFrames, SetItemDefaultFocusAloneLeavesSuchAWindowUnfocused) {
  frame(false);
  frame(false);
  GImGui->NavId = 0;
  frame(false);
  frame(false);
  EXPECT_EQ(GImGui->NavId, 0u) << "what default_focus() is for";
}

}  // namespace
}  // namespace sr::client
