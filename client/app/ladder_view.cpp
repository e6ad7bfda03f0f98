#include "client/app/ladder_view.h"

#include "client/app/app.h"

namespace sr::client {

void LadderView::ui(double /*now_s*/, const MenuNav& nav) { app_.ladder_ui(nav); }

}  // namespace sr::client
