#include "client/render/quad_batch.h"

#include <glad/gl.h>

#include <algorithm>
#include <cstddef>

namespace sr::client {
namespace {

constexpr const char* kVertexShader = R"(#version 330 core
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color;
uniform vec2 scale;  // 2 / window size
out vec4 v_color;
void main() {
  gl_Position = vec4(pos.x * scale.x - 1.0, 1.0 - pos.y * scale.y, 0.0, 1.0);
  v_color = color;
}
)";

constexpr const char* kFragmentShader = R"(#version 330 core
in vec4 v_color;
out vec4 frag;
void main() { frag = v_color; }
)";

std::string compile(GLenum kind, const char* source, GLuint& out) {
  out = glCreateShader(kind);
  glShaderSource(out, 1, &source, nullptr);
  glCompileShader(out);
  GLint ok = 0;
  glGetShaderiv(out, GL_COMPILE_STATUS, &ok);
  if (ok) return {};
  char log[1024] = {};
  glGetShaderInfoLog(out, sizeof log, nullptr, log);
  return std::string("shader compile failed: ") + log;
}

std::uint8_t mix(std::uint8_t from, std::uint8_t to, float t) {
  return static_cast<std::uint8_t>(static_cast<float>(from) + (static_cast<float>(to) - static_cast<float>(from)) * t);
}

}  // namespace

Rgba Rgba::with_alpha(float alpha) const {
  return {r, g, b, static_cast<std::uint8_t>(std::clamp(alpha, 0.0f, 1.0f) * static_cast<float>(a))};
}

Rgba Rgba::shade(float t) const {
  const std::uint8_t target = t >= 0 ? 255 : 0;
  const float k = std::clamp(t >= 0 ? t : -t, 0.0f, 1.0f);
  return {mix(r, target, k), mix(g, target, k), mix(b, target, k), a};
}

QuadBatch::~QuadBatch() { shutdown(); }

sr::Status<std::string> QuadBatch::init() {
  GLuint vs = 0, fs = 0;
  std::string err = compile(GL_VERTEX_SHADER, kVertexShader, vs);
  if (err.empty()) err = compile(GL_FRAGMENT_SHADER, kFragmentShader, fs);
  if (err.empty()) {
    program_ = glCreateProgram();
    glAttachShader(program_, vs);
    glAttachShader(program_, fs);
    glLinkProgram(program_);
    GLint ok = 0;
    glGetProgramiv(program_, GL_LINK_STATUS, &ok);
    if (!ok) err = "shader link failed";
  }
  if (vs) glDeleteShader(vs);
  if (fs) glDeleteShader(fs);
  if (!err.empty()) return err;
  scale_loc_ = glGetUniformLocation(program_, "scale");

  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(Vertex), reinterpret_cast<void*>(offsetof(Vertex, x)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(Vertex), reinterpret_cast<void*>(offsetof(Vertex, c)));
  glBindVertexArray(0);
  opaque_.reserve(6 * 4096);
  blended_.reserve(6 * 1024);
  return {};
}

void QuadBatch::shutdown() {
  if (vbo_) glDeleteBuffers(1, &vbo_);
  if (vao_) glDeleteVertexArrays(1, &vao_);
  if (program_) glDeleteProgram(program_);
  vbo_ = vao_ = program_ = 0;
  capacity_ = 0;
}

void QuadBatch::rect(float x, float y, float w, float h, Rgba c) {
  if (w <= 0 || h <= 0 || c.a == 0) return;
  const float x1 = x + w, y1 = y + h;
  auto& v = c.a == 255 ? opaque_ : blended_;
  v.insert(v.end(), {{x, y, c}, {x1, y, c}, {x1, y1, c}, {x, y, c}, {x1, y1, c}, {x, y1, c}});
}

void QuadBatch::frame(float x, float y, float w, float h, float t, Rgba c) {
  rect(x, y, w, t, c);
  rect(x, y + h - t, w, t, c);
  rect(x, y + t, t, h - 2 * t, c);
  rect(x + w - t, y + t, t, h - 2 * t, c);
}

void QuadBatch::flush(int fb_w, int fb_h, float win_w, float win_h) {
  const std::size_t total = opaque_.size() + blended_.size();
  if (total == 0 || program_ == 0 || win_w <= 0 || win_h <= 0) {
    opaque_.clear();
    blended_.clear();
    return;
  }
  glViewport(0, 0, fb_w, fb_h);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glDisable(GL_SCISSOR_TEST);
  glUseProgram(program_);
  glUniform2f(scale_loc_, 2.0f / win_w, 2.0f / win_h);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  // Allocate only to grow: re-allocating every frame costs a software driver an mmap and page faults per frame,
  // and last frame's draw is long finished (the buffers were swapped since).
  if (total > capacity_) {
    capacity_ = std::max<std::size_t>(total * 2, 6 * 8192);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(capacity_ * sizeof(Vertex)), nullptr, GL_STREAM_DRAW);
  }
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(opaque_.size() * sizeof(Vertex)), opaque_.data());
  glBufferSubData(GL_ARRAY_BUFFER, static_cast<GLintptr>(opaque_.size() * sizeof(Vertex)),
                  static_cast<GLsizeiptr>(blended_.size() * sizeof(Vertex)), blended_.data());
  glDisable(GL_BLEND);
  if (!opaque_.empty()) glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(opaque_.size()));
  if (!blended_.empty()) {
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDrawArrays(GL_TRIANGLES, static_cast<GLint>(opaque_.size()), static_cast<GLsizei>(blended_.size()));
  }
  glBindVertexArray(0);
  glUseProgram(0);
  opaque_.clear();
  blended_.clear();
}

}  // namespace sr::client
