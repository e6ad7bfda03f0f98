// Our batched renderer: every coloured rectangle of a frame goes into one vertex buffer and is drawn with two
// glDrawArrays calls, opaque rectangles first with blending off (cheaper for software rasterisers), then the
// translucent ones in the order they were added. Sixteen boards cost the same number of GL calls as one.
// Coordinates are window coordinates (the same ones ImGui uses), origin top-left, y down.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"

namespace sr::client {

struct Rgba {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
  [[nodiscard]] Rgba with_alpha(float alpha) const;
  // Mixes toward white (t > 0) or black (t < 0), |t| in 0..1.
  [[nodiscard]] Rgba shade(float t) const;
};

class QuadBatch {
 public:
  QuadBatch() = default;
  ~QuadBatch();
  QuadBatch(const QuadBatch&) = delete;
  QuadBatch& operator=(const QuadBatch&) = delete;

  // Compiles the shader and makes the buffers. Needs a current OpenGL 3.3 core context (glad loaded).
  // Returns ok or an error sentence.
  [[nodiscard]] sr::Status<std::string> init();
  void shutdown();

  void rect(float x, float y, float w, float h, Rgba c);
  // A rectangle outline of thickness t inside (x, y, w, h).
  void frame(float x, float y, float w, float h, float t, Rgba c);
  [[nodiscard]] std::size_t quads() const { return (opaque_.size() + blended_.size()) / 6; }

  // Draws everything added since the last flush, onto a viewport of fb_w x fb_h pixels showing a window
  // of win_w x win_h coordinates, with alpha blending. Clears the batch.
  void flush(int fb_w, int fb_h, float win_w, float win_h);

 private:
  struct Vertex {
    float x, y;
    Rgba c;
  };
  std::vector<Vertex> opaque_;   // alpha 255: order among them is kept, they never blend
  std::vector<Vertex> blended_;  // drawn after every opaque rectangle
  unsigned program_ = 0, vao_ = 0, vbo_ = 0;
  int scale_loc_ = -1;
  std::size_t capacity_ = 0;  // vertices the GL buffer holds
};

}  // namespace sr::client
