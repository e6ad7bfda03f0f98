// The replay viewer (replay_views.cpp): the replay being watched, its controls, the playback clock and the boards'
// layout. Made for each replay opened (a file, or a download) and dropped when the viewer's Back is taken, so one
// replay's position, speed or followed racer never carries into the next.
#pragma once

#include <vector>

#include "client/render/board_renderer.h"
#include "client/replay/replay_viewer.h"
#include "client/ui/replay_screens.h"

namespace sr::client {

struct ViewerState {
  ReplayViewer viewer;
  ViewerControls controls;
  double last_s = 0;                 // the frame time playback last advanced to (0 = not yet)
  std::vector<BoardLayout> layouts;  // laid out every frame
};

}  // namespace sr::client
