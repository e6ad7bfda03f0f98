#include "client/platform/render_context.h"

#include <GL/glx.h>
#include <X11/Xlib.h>
#include <dlfcn.h>

namespace sr::client {
namespace {

// GLFW's X11 and GLX accessors, looked up at run time: a GLFW built for Wayland alone has none (then: fallback).
using GetX11Display = Display* (*)();
using GetX11Window = Window (*)(GLFWwindow*);
using GetGlxContext = GLXContext (*)(GLFWwindow*);

template <typename Fn>
Fn glfw_native(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, name));
}

using CreateContextAttribs = GLXContext (*)(Display*, GLXFBConfig, GLXContext, Bool, const int*);
using SwapIntervalExt = void (*)(Display*, GLXDrawable, int);
using SwapIntervalMesa = int (*)(unsigned);

void* glx_proc(const char* name) {
  return reinterpret_cast<void*>(glXGetProcAddressARB(reinterpret_cast<const GLubyte*>(name)));
}

// Xlib reports a failed request (a context it cannot make) through this handler, which would otherwise exit.
bool g_x_error = false;
int note_x_error(Display*, XErrorEvent*) {
  g_x_error = true;
  return 0;
}

}  // namespace

void* RenderContext::proc_address(const char* name) { return glx_proc(name); }

bool RenderContext::open(GLFWwindow* window, std::string& why) {
  close();
  const auto get_display = glfw_native<GetX11Display>("glfwGetX11Display");
  const auto get_window = glfw_native<GetX11Window>("glfwGetX11Window");
  const auto get_context = glfw_native<GetGlxContext>("glfwGetGLXContext");
  if (get_display == nullptr || get_window == nullptr || get_context == nullptr) {
    why = "GLFW has no X11 window";
    return false;
  }
  Display* glfw_display = get_display();
  GLXContext glfw_context = get_context(window);
  const Window xwindow = get_window(window);
  if (glfw_display == nullptr || glfw_context == nullptr || xwindow == 0) {
    why = "GLFW made no GLX context";
    return false;
  }
  int config_id = 0;
  if (glXQueryContext(glfw_display, glfw_context, GLX_FBCONFIG_ID, &config_id) != Success) {
    why = "cannot ask GLX for the window's frame buffer configuration";
    return false;
  }
  Display* display = XOpenDisplay(DisplayString(glfw_display));
  if (display == nullptr) {
    why = "cannot open a second X connection";
    return false;
  }
  const int wanted[] = {GLX_FBCONFIG_ID, config_id, None};
  int count = 0;
  GLXFBConfig* configs = glXChooseFBConfig(display, DefaultScreen(display), wanted, &count);
  const auto create = reinterpret_cast<CreateContextAttribs>(glx_proc("glXCreateContextAttribsARB"));
  GLXContext context = nullptr;
  if (configs != nullptr && count > 0 && create != nullptr) {
    const int attributes[] = {GLX_CONTEXT_MAJOR_VERSION_ARB,
                              3,
                              GLX_CONTEXT_MINOR_VERSION_ARB,
                              3,
                              GLX_CONTEXT_PROFILE_MASK_ARB,
                              GLX_CONTEXT_CORE_PROFILE_BIT_ARB,
                              GLX_CONTEXT_FLAGS_ARB,
                              GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB,
                              None};
    g_x_error = false;
    auto* const previous = XSetErrorHandler(note_x_error);
    context = create(display, configs[0], nullptr, True, attributes);
    XSync(display, False);
    XSetErrorHandler(previous);
    if (g_x_error) context = nullptr;  // (a failed request may still return a handle)
  }
  if (configs != nullptr) XFree(configs);
  if (context == nullptr || !glXMakeCurrent(display, xwindow, context)) {
    if (context != nullptr) glXDestroyContext(display, context);
    XCloseDisplay(display);
    why = "cannot make an OpenGL 3.3 core context on a second X connection";
    return false;
  }
  display_ = display;
  window_ = xwindow;
  context_ = context;
  return true;
}

void RenderContext::close() {
  if (context_ == nullptr) return;
  auto* display = static_cast<Display*>(display_);
  glXMakeCurrent(display, None, nullptr);
  glXDestroyContext(display, static_cast<GLXContext>(context_));
  XCloseDisplay(display);
  display_ = nullptr;
  context_ = nullptr;
  window_ = 0;
}

void RenderContext::swap() {
  if (context_ != nullptr) glXSwapBuffers(static_cast<Display*>(display_), window_);
}

void RenderContext::set_swap_interval(int interval) {
  if (context_ == nullptr) return;
  if (const auto ext = reinterpret_cast<SwapIntervalExt>(glx_proc("glXSwapIntervalEXT"))) {
    ext(static_cast<Display*>(display_), window_, interval);
  } else if (const auto mesa = reinterpret_cast<SwapIntervalMesa>(glx_proc("glXSwapIntervalMESA"))) {
    mesa(static_cast<unsigned>(interval));
  }
}

}  // namespace sr::client
