#include "client/platform/window.h"

#include <glad/gl.h>
// glad first: it provides the GL declarations GLFW would otherwise include.
#include <GLFW/glfw3.h>

#include <chrono>
#include <cstdlib>
#include <future>
#include <memory>

#include "client/platform/gamepad.h"

namespace sr::client {
namespace {

// GLFW reports errors on the thread that called it: the main thread or the render thread.
std::mutex g_error_mutex;
std::string g_last_glfw_error;

std::string last_glfw_error() {
  std::lock_guard lock(g_error_mutex);
  return g_last_glfw_error;
}

void error_callback(int code, const char* description) {
  std::lock_guard lock(g_error_mutex);
  g_last_glfw_error =
      std::string(description ? description : "unknown error") + " (GLFW error " + std::to_string(code) + ")";
}

double monitor_refresh_hz(GLFWwindow* window) {
  GLFWmonitor* monitor = window != nullptr ? glfwGetWindowMonitor(window) : nullptr;
  if (monitor == nullptr) monitor = glfwGetPrimaryMonitor();
  const GLFWvidmode* mode = monitor != nullptr ? glfwGetVideoMode(monitor) : nullptr;
  return mode != nullptr && mode->refreshRate > 0 ? mode->refreshRate : 0;
}

InputEvent event(InputType type) {
  InputEvent e;
  e.type = type;
  return e;
}

InputEvent xy_event(InputType type, double x, double y) {
  InputEvent e = event(type);
  e.x = x;
  e.y = y;
  return e;
}

InputEvent on_event(InputType type, bool on) {
  InputEvent e = event(type);
  e.on = on;
  return e;
}

}  // namespace

Window::Window() : queue_(&Window::now_s) {}

Window::~Window() { close(); }

Window* Window::self(GLFWwindow* w) { return static_cast<Window*>(glfwGetWindowUserPointer(w)); }

sr::Status<std::string> Window::open(const WindowOptions& o) {
  glfwSetErrorCallback(error_callback);
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((display == nullptr || display[0] == '\0') && (wayland == nullptr || wayland[0] == '\0')) {
    return "there is no display ($DISPLAY and $WAYLAND_DISPLAY are empty), so the game window cannot open";
  }
  if (!glfwInit()) return "cannot start GLFW: " + last_glfw_error();
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
  if (window_ == nullptr) return "cannot open an OpenGL 3.3 core window: " + last_glfw_error();
  glfwSetWindowUserPointer(window_, this);
  // Every callback stamps and queues; the render thread does the rest.
  glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int /*scancode*/, int action, int mods) {
    InputEvent e = event(InputType::kKey);
    e.key = key;
    e.action = action;
    e.mods = mods;
    self(w)->push(e);
  });
  glfwSetCharCallback(window_, [](GLFWwindow* w, unsigned c) {
    InputEvent e = event(InputType::kChar);
    e.codepoint = c;
    self(w)->push(e);
  });
  glfwSetMouseButtonCallback(window_, [](GLFWwindow* w, int button, int action, int mods) {
    InputEvent e = event(InputType::kMouseButton);
    e.key = button;
    e.action = action;
    e.mods = mods;
    self(w)->push(e);
  });
  glfwSetScrollCallback(window_,
                        [](GLFWwindow* w, double x, double y) { self(w)->push(xy_event(InputType::kScroll, x, y)); });
  glfwSetCursorPosCallback(
      window_, [](GLFWwindow* w, double x, double y) { self(w)->push(xy_event(InputType::kCursorPos, x, y)); });
  glfwSetCursorEnterCallback(
      window_, [](GLFWwindow* w, int in) { self(w)->push(on_event(InputType::kCursorEnter, in == GLFW_TRUE)); });
  glfwSetWindowFocusCallback(
      window_, [](GLFWwindow* w, int focused) { self(w)->push(on_event(InputType::kFocus, focused == GLFW_TRUE)); });
  glfwSetWindowIconifyCallback(window_, [](GLFWwindow* w, int iconified) {
    self(w)->push(on_event(InputType::kIconify, iconified == GLFW_TRUE));
  });
  glfwSetWindowSizeCallback(window_, [](GLFWwindow* w, int width, int height) {
    self(w)->push(xy_event(InputType::kWindowSize, width, height));
  });
  glfwSetFramebufferSizeCallback(window_, [](GLFWwindow* w, int width, int height) {
    self(w)->push(xy_event(InputType::kFramebufferSize, width, height));
  });
  glfwSetWindowContentScaleCallback(
      window_, [](GLFWwindow* w, float x, float /*y*/) { self(w)->push(xy_event(InputType::kContentScale, x, 0)); });
  glfwSetWindowRefreshCallback(window_, [](GLFWwindow* w) { self(w)->push(event(InputType::kExposed)); });
  glfwSetWindowCloseCallback(window_, [](GLFWwindow* w) { self(w)->push(event(InputType::kClose)); });

  glfwMakeContextCurrent(window_);
  if (gladLoadGL(glfwGetProcAddress) == 0) return "cannot load OpenGL 3.3 functions (glad)";
  glfwMakeContextCurrent(nullptr);
  // ImGui's cursor shapes, in ImGuiMouseCursor order (GLFW 3.3 has no diagonal, all-ways or not-allowed shapes).
  const int shapes[kCursorShapes] = {GLFW_ARROW_CURSOR,   GLFW_IBEAM_CURSOR,   GLFW_ARROW_CURSOR,
                                     GLFW_VRESIZE_CURSOR, GLFW_HRESIZE_CURSOR, GLFW_ARROW_CURSOR,
                                     GLFW_ARROW_CURSOR,   GLFW_HAND_CURSOR,    GLFW_ARROW_CURSOR};
  for (int i = 0; i < kCursorShapes; ++i) cursors_[static_cast<std::size_t>(i)] = glfwCreateStandardCursor(shapes[i]);

  if (o.fullscreen) do_toggle_fullscreen();
  // The state so far, as the first events (the callbacks tell only of changes).
  int w = 0, h = 0;
  glfwGetWindowSize(window_, &w, &h);
  push(xy_event(InputType::kWindowSize, w, h));
  glfwGetFramebufferSize(window_, &w, &h);
  push(xy_event(InputType::kFramebufferSize, w, h));
  float sx = 1, sy = 1;
  glfwGetWindowContentScale(window_, &sx, &sy);
  push(xy_event(InputType::kContentScale, sx, 0));
  push(xy_event(InputType::kRefreshRate, monitor_refresh_hz(window_), 0));
  push(on_event(InputType::kFocus, glfwGetWindowAttrib(window_, GLFW_FOCUSED) == GLFW_TRUE));
  push(on_event(InputType::kFullscreen, fullscreen_));
  read_pads();
  return {};
}

void Window::close() {
  for (GLFWcursor*& c : cursors_) {
    if (c != nullptr) glfwDestroyCursor(c);
    c = nullptr;
  }
  if (window_ != nullptr) glfwDestroyWindow(window_);
  window_ = nullptr;
  if (glfw_ready_) glfwTerminate();
  glfw_ready_ = false;
}

void Window::run_events(const std::function<bool()>& stop) {
  while (!stop()) {
    // A key wakes the wait at once and is stamped in its callback (unless the render thread shares the connection
    // and read it first: see set_playing). A pad has no events: it is read every 1 ms while playing.
    const bool playing = playing_.load();
    if (playing && (shared_connection_.load() || pad_connected_)) {
      glfwWaitEventsTimeout(kPlayingPollS);
    } else if (pad_connected_) {
      glfwWaitEventsTimeout(kPadPollS);
    } else {
      glfwWaitEvents();
    }
    run_posted();
    read_pads();
  }
}

void Window::stop_events() { glfwPostEmptyEvent(); }

void Window::read_pads() {
  const auto bits = read_first_gamepad();
  const bool connected = bits.has_value();
  if (connected == pad_connected_ && bits.value_or(0) == pads_) return;
  pad_connected_ = connected;
  pads_ = bits.value_or(0);
  InputEvent e = on_event(InputType::kPads, connected);
  e.pads = pads_;
  push(e);
}

void Window::post(std::function<void()> fn) {
  {
    std::lock_guard lock(posted_mutex_);
    posted_.push_back(std::move(fn));
  }
  glfwPostEmptyEvent();
}

void Window::run_posted() {
  std::vector<std::function<void()>> fns;
  {
    std::lock_guard lock(posted_mutex_);
    fns.swap(posted_);
  }
  for (auto& fn : fns) fn();
}

double Window::now_s() { return glfwGetTime(); }

void Window::make_current(bool on) {
  if (!on) {
    own_context_.close();
    glfwMakeContextCurrent(nullptr);
    return;
  }
  const char* force_glfw = std::getenv("STACKRACE_GLFW_CONTEXT");
  std::string why = "STACKRACE_GLFW_CONTEXT is set";
  if ((force_glfw == nullptr || std::string(force_glfw) != "1") && own_context_.open(window_, why) &&
      gladLoadGL(reinterpret_cast<GLADloadfunc>(&RenderContext::proc_address)) != 0) {
    shared_connection_ = false;
    context_kind_ = "own X connection";
    return;
  }
  own_context_.close();
  glfwMakeContextCurrent(window_);
  shared_connection_ = true;
  context_kind_ = "GLFW's context on the window's X connection (" + why + ")";
}

void Window::swap_buffers() {
  if (own_context_.is_open()) {
    own_context_.swap();
    return;
  }
  glfwSwapBuffers(window_);
  if (!playing_.load()) glfwPostEmptyEvent();
}

std::vector<InputEvent> Window::take_events() {
  std::vector<InputEvent> events = queue_.take();
  for (const InputEvent& e : events) state_.apply(e);
  return events;
}

void Window::size(int& w, int& h) const {
  w = state_.width;
  h = state_.height;
}

void Window::framebuffer_size(int& w, int& h) const {
  w = state_.fb_width;
  h = state_.fb_height;
}

void Window::set_vsync(bool on) {
  if (own_context_.is_open()) {
    own_context_.set_swap_interval(on ? 1 : 0);
  } else {
    glfwSwapInterval(on ? 1 : 0);
  }
}

void Window::toggle_fullscreen() {
  post([this] { do_toggle_fullscreen(); });
}

void Window::do_toggle_fullscreen() {
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
  push(on_event(InputType::kFullscreen, fullscreen_));
  push(xy_event(InputType::kRefreshRate, monitor_refresh_hz(window_), 0));
}

void Window::set_cursor_shape(int shape) {
  post([this, shape] {
    if (window_ == nullptr || shape == cursor_shape_) return;
    cursor_shape_ = shape;
    if (shape < 0) {
      glfwSetInputMode(window_, GLFW_CURSOR, GLFW_CURSOR_HIDDEN);
      return;
    }
    glfwSetCursor(window_, cursors_[static_cast<std::size_t>(shape < kCursorShapes ? shape : 0)]);
    glfwSetInputMode(window_, GLFW_CURSOR, GLFW_CURSOR_NORMAL);
  });
}

void Window::set_clipboard(std::string text) {
  post([this, text = std::move(text)] {
    if (window_ != nullptr) glfwSetClipboardString(window_, text.c_str());
  });
}

std::string Window::clipboard() {
  auto promise = std::make_shared<std::promise<std::string>>();
  std::future<std::string> text = promise->get_future();
  post([this, promise] {
    const char* s = window_ != nullptr ? glfwGetClipboardString(window_) : nullptr;
    promise->set_value(s != nullptr ? s : "");
  });
  if (text.wait_for(std::chrono::milliseconds(250)) != std::future_status::ready) return "";
  return text.get();
}

std::string Window::gl_description() const {
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  return std::string(renderer ? renderer : "?") + ", OpenGL " + (version ? version : "?");
}

void Window::cancel_close() {
  state_.close_requested = false;
  glfwSetWindowShouldClose(window_, GLFW_FALSE);
}

}  // namespace sr::client
