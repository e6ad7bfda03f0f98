#include "client/app/replay_views.h"

#include "client/app/app.h"

namespace sr::client {

void ReplaysView::ui(double /*now_s*/, const MenuNav& nav) { app_.browser_ui(nav); }

void ViewerView::ui(double now_s, const MenuNav& nav) { app_.viewer_ui(now_s, nav); }

void ViewerView::render(const BoardLook& look, float w, float h, double now_s) {
  app_.layout_viewer(w, h);
  app_.render_viewer(look, now_s);
}

const std::vector<BoardLayout>& ViewerView::layouts() const { return app_.viewer_layouts(); }

Activity ViewerView::activity() const { return app_.viewer_playing() ? Activity::kAnimating : Activity::kIdle; }

}  // namespace sr::client
