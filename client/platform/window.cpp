#include "client/platform/window.h"

#include <glad/gl.h>
// glad first: it provides the GL declarations GLFW would otherwise include.
#include <GLFW/glfw3.h>

#include <cstdlib>

namespace sr::client {
namespace {

std::string g_last_glfw_error;

void error_callback(int code, const char* description) {
  g_last_glfw_error =
      std::string(description ? description : "unknown error") + " (GLFW error " + std::to_string(code) + ")";
}

}  // namespace

Window::~Window() { close(); }

sr::Status<std::string> Window::open(const WindowOptions& o) {
  glfwSetErrorCallback(error_callback);
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((display == nullptr || display[0] == '\0') && (wayland == nullptr || wayland[0] == '\0')) {
    return "there is no display ($DISPLAY and $WAYLAND_DISPLAY are empty), so the game window cannot open";
  }
  if (!glfwInit()) return "cannot start GLFW: " + g_last_glfw_error;
  glfw_ready_ = true;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_RESIZABLE, o.resizable ? GLFW_TRUE : GLFW_FALSE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  windowed_w_ = o.width;
  windowed_h_ = o.height;
  window_ = glfwCreateWindow(o.width, o.height, o.title.c_str(), nullptr, nullptr);
  if (window_ == nullptr) return "cannot open an OpenGL 3.3 core window: " + g_last_glfw_error;
  glfwSetWindowUserPointer(window_, this);
  glfwSetKeyCallback(window_, key_callback);
  glfwSetCharCallback(window_, [](GLFWwindow* w, unsigned) { note_input(w); });
  glfwSetMouseButtonCallback(window_, [](GLFWwindow* w, int, int, int) { note_input(w); });
  glfwSetScrollCallback(window_, [](GLFWwindow* w, double, double) { note_input(w); });
  glfwSetCursorPosCallback(window_, [](GLFWwindow* w, double, double) { note_input(w); });
  glfwSetCursorEnterCallback(window_, [](GLFWwindow* w, int) { note_input(w); });
  glfwSetWindowFocusCallback(window_, [](GLFWwindow* w, int) { note_input(w); });
  glfwSetWindowIconifyCallback(window_, [](GLFWwindow* w, int) { note_input(w); });
  glfwSetFramebufferSizeCallback(window_, [](GLFWwindow* w, int, int) { note_input(w); });
  glfwSetWindowRefreshCallback(window_, [](GLFWwindow* w) { note_input(w); });
  glfwMakeContextCurrent(window_);
  if (gladLoadGL(glfwGetProcAddress) == 0) return "cannot load OpenGL 3.3 functions (glad)";
  set_vsync(o.vsync);
  if (o.fullscreen) toggle_fullscreen();
  return {};
}

void Window::close() {
  if (window_ != nullptr) glfwDestroyWindow(window_);
  window_ = nullptr;
  if (glfw_ready_) glfwTerminate();
  glfw_ready_ = false;
}

bool Window::should_close() const { return window_ == nullptr || glfwWindowShouldClose(window_); }

bool Window::focused() const { return window_ != nullptr && glfwGetWindowAttrib(window_, GLFW_FOCUSED) == GLFW_TRUE; }

bool Window::iconified() const {
  return window_ != nullptr && glfwGetWindowAttrib(window_, GLFW_ICONIFIED) == GLFW_TRUE;
}

double Window::refresh_hz() const {
  GLFWmonitor* monitor = window_ != nullptr ? glfwGetWindowMonitor(window_) : nullptr;
  if (monitor == nullptr) monitor = glfwGetPrimaryMonitor();
  const GLFWvidmode* mode = monitor != nullptr ? glfwGetVideoMode(monitor) : nullptr;
  return mode != nullptr && mode->refreshRate > 0 ? mode->refreshRate : 0;
}

void Window::wait_events(double timeout_s) {
  if (timeout_s > 0) glfwWaitEventsTimeout(timeout_s);
}

bool Window::take_input_seen() {
  const bool seen = input_seen_;
  input_seen_ = false;
  return seen;
}

void Window::note_input(GLFWwindow* w) {
  auto* self = static_cast<Window*>(glfwGetWindowUserPointer(w));
  if (self != nullptr) self->input_seen_ = true;
}

void Window::set_vsync(bool on) { glfwSwapInterval(on ? 1 : 0); }

void Window::toggle_fullscreen() {
  if (window_ == nullptr) return;
  if (!fullscreen_) {
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
    if (mode == nullptr) return;
    glfwGetWindowPos(window_, &windowed_x_, &windowed_y_);
    glfwGetWindowSize(window_, &windowed_w_, &windowed_h_);
    glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    fullscreen_ = true;
  } else {
    glfwSetWindowMonitor(window_, nullptr, windowed_x_, windowed_y_, windowed_w_, windowed_h_, 0);
    fullscreen_ = false;
  }
}

void Window::key_callback(GLFWwindow* w, int key, int /*scancode*/, int action, int mods) {
  auto* self = static_cast<Window*>(glfwGetWindowUserPointer(w));
  if (self == nullptr) return;
  self->keys_.push_back({key, action, mods, glfwGetTime()});
  self->input_seen_ = true;
}

std::vector<KeyEvent> Window::take_key_events() {
  std::vector<KeyEvent> out;
  out.swap(keys_);
  return out;
}

float Window::content_scale() const {
  float x = 1, y = 1;
  if (window_ != nullptr) glfwGetWindowContentScale(window_, &x, &y);
  return x > 0 ? x : 1.0f;
}

void Window::size(int& w, int& h) const { glfwGetWindowSize(window_, &w, &h); }
void Window::framebuffer_size(int& w, int& h) const { glfwGetFramebufferSize(window_, &w, &h); }
double Window::now_s() { return glfwGetTime(); }

std::string Window::gl_description() const {
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  return std::string(renderer ? renderer : "?") + ", OpenGL " + (version ? version : "?");
}

}  // namespace sr::client
