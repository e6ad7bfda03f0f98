// Screenshots: the frame being drawn, read back with glReadPixels and written as PNG. Used by F12 and
// --screenshot, and by the Xvfb test to check the pixels without any X tools.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "client/render/board_renderer.h"
#include "common/result.h"

namespace sr::client {

// Reads the current framebuffer (fb_w x fb_h, call before swapping buffers) and writes it to `path` as an RGB PNG.
// Returns ok or an error sentence.
[[nodiscard]] sr::Status<std::string> write_screenshot(const std::filesystem::path& path, int fb_w, int fb_h);

// Writes `path` + ".layout": one line per board, "board INDEX MATRIX_X MATRIX_Y CELL" in framebuffer pixels
// (MATRIX_X/Y: top-left of visible row 19), so a test can find each cell in the PNG. With `notes` (one per board),
// each line goes on with its note (the race screen: "GAME_TIME_US PIECES NAME", what the board shows).
[[nodiscard]] sr::Status<std::string> write_layout(const std::filesystem::path& path,
                                                   const std::vector<BoardLayout>& boards, float framebuffer_scale,
                                                   const std::vector<std::string>& notes = {});

}  // namespace sr::client
