// The render thread's OpenGL context on an X connection of its own (client/README.md, "Threads"). The window's
// events arrive on GLFW's connection, which the main thread waits on; if the render thread drew through that same
// connection, Xlib's lock would make the main thread wait for every swap (a llvmpipe swap sends the whole image),
// and the swap could read the window's events off the socket while the main thread sleeps on it. So the render
// thread opens its own connection and a GLX context like the one GLFW made for the window (the same frame buffer
// configuration, OpenGL 3.3 core) and draws into the window by its X id. X11 and GLX only; where that cannot be
// done, the window falls back to GLFW's own context (Window::make_current).
#pragma once

#include <string>

struct GLFWwindow;

namespace sr::client {

class RenderContext {
 public:
  RenderContext() = default;
  ~RenderContext() { close(); }
  RenderContext(const RenderContext&) = delete;
  RenderContext& operator=(const RenderContext&) = delete;

  // On the thread that will draw: opens the connection and the context and makes it current. Returns false, with
  // `why` said and nothing kept, when it cannot (not X11, no GLX 1.3 or GLX_ARB_create_context, no such config).
  [[nodiscard]] bool open(GLFWwindow* window, std::string& why);
  // On the same thread: releases and destroys the context and closes the connection.
  void close();
  [[nodiscard]] bool is_open() const { return context_ != nullptr; }

  void swap();
  // 1: wait for the monitor's refresh; 0: do not. Through GLX_EXT_swap_control, else GLX_MESA_swap_control.
  void set_swap_interval(int interval);

  // An OpenGL function by name (for glad); does not depend on a context.
  static void* proc_address(const char* name);

 private:
  void* display_ = nullptr;   // Display*
  unsigned long window_ = 0;  // the X window
  void* context_ = nullptr;   // GLXContext
};

}  // namespace sr::client
