// --bench-frames (app.cpp): the benchmark's boards and where they are drawn. Made by init() when the benchmark is
// asked for; the app does nothing else until it has printed its report and quits.
#pragma once

#include <vector>

#include "client/app/frame_bench.h"
#include "client/render/board_renderer.h"

namespace sr::client {

struct BenchScreen {
  FrameBench bench;
  std::vector<BoardLayout> layouts;  // laid out again every frame (the board count changes between phases)
};

}  // namespace sr::client
