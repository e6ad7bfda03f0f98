#include "client/app/net_view.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include "client/app/app.h"

namespace sr::client {

std::string NetView::name() const {
  switch (app_.net().session().state()) {
    case net::Session::State::kLobby: return "lobby";
    case net::Session::State::kRoom:
    case net::Session::State::kReconnecting: {
      const auto* race = app_.shown_race();
      if (race == nullptr) return "room";
      const auto& results = app_.net().session().results();
      return results && results->race_id == race->race_id() ? "race results" : "race";
    }
    default: return "multiplayer menu";
  }
}

bool NetView::playing() const { return app_.racing_now(); }

void NetView::key(const KeyEvent& ev) {
  // In a race only a text field being typed in (the chat) keeps keys from the game: the menus' keyboard navigation
  // never does (releases always go through so the held state stays true).
  if (app_.shown_race() && (!ImGui::GetIO().WantTextInput || ev.action == GLFW_RELEASE)) app_.race_key(ev);
}

void NetView::pad(const PadChange& c, double when_s) {
  if (!app_.shown_race()) return;  // our race (spectators' pads only navigate)
  app_.race_pad(c, when_s);
}

void NetView::ui(double now_s, const MenuNav& nav) { app_.net_ui(now_s, nav); }

void NetView::render(const BoardLook& look, float w, float h, double now_s) {
  app_.layout_race(w, h);
  app_.render_race(look, now_s);
}

const std::vector<BoardLayout>& NetView::layouts() const { return app_.race_layouts(); }

std::vector<std::string> NetView::layout_notes() const { return app_.race_layout_notes(); }

Activity NetView::activity() const {
  // A race on screen (played or watched) moves until its results are shown.
  const auto* race = app_.shown_race();
  const auto& results = app_.net().session().results();
  return race != nullptr && !(results && results->race_id == race->race_id()) ? Activity::kAnimating : Activity::kIdle;
}

}  // namespace sr::client
