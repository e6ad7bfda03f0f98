// stackrace: the game client. Two threads (client/README.md, "Threads"):
//   main:   opens the window, then only waits for its events: each key is stamped in its GLFW callback the moment it
//           arrives and queued (Window::run_events), however long a frame takes to draw;
//   render: owns the OpenGL context, Dear ImGui and the App, and reads top to bottom like Dear ImGui's
//           example_glfw_opengl3: set up, loop (take the queued events, new frame, UI, render, swap, wait), shut down
//           in reverse order.
#include <glad/gl.h>
// glad before GLFW
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <string>
#include <thread>

#include "client/app/app.h"
#include "client/app/cli.h"
#include "client/app/imgui_input.h"
#include "client/platform/window.h"
#include "client/ui/fonts.h"

namespace {

using namespace sr::client;

// Ctrl+C or a TERM signal ends the loop normally, so a game in progress is still saved as abandoned.
volatile std::sig_atomic_t g_stop = 0;
extern "C" void on_stop_signal(int) { g_stop = 1; }

struct RenderOutcome {
  int exit_code = 0;
  std::string error;  // App::init's sentence
};

// The render thread: everything but the window's events.
RenderOutcome render_thread(const AppOptions& options, Window& window) {
  RenderOutcome out;
  window.make_current(true);
  window.set_vsync(options.vsync);
  spdlog::info("OpenGL: {} ({})", window.gl_description(), window.context_kind());
  std::vector<InputEvent> events = window.take_events();  // the window's state so far (sizes, scale, focus)

  // Dear ImGui: its OpenGL backend, and our own platform side (ImGuiInput) instead of imgui_impl_glfw.
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // screens are laid out by code; nothing to remember
  // Every screen works without a mouse: our own menus read keys and pads themselves, the multiplayer and replay
  // screens use ImGui's navigation (fed by App::nav_inputs, which turns it off while a race is played).
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard | ImGuiConfigFlags_NavEnableGamepad;
  ImGui::StyleColorsDark();
  const float dpi_scale = window.content_scale();
  ImGui::GetStyle().ScaleAllSizes(dpi_scale);
  const Fonts fonts = load_fonts(dpi_scale);
  ImGuiInput imgui_input(window);
  ImGui_ImplOpenGL3_Init("#version 330 core");

  {
    App app(options, window, fonts);
    if (const auto started = app.init(); !started) {
      out.exit_code = 1;
      out.error = started.error();
    } else {
      while (!app.done() && g_stop == 0) {
        // Closing the window while others play on the server we host asks first (App::close_requested).
        if (window.should_close()) {
          if (app.close_requested()) break;
          window.cancel_close();
        }
        const double frame_start = Window::now_s();
        for (InputEvent& e : window.take_events()) events.push_back(e);
        imgui_input.events(events);
        // Keys were stamped on arrival (InputEvent::time_s); `frame_start`, read before taking them, is never later
        // than a stamp still to come.
        app.input(events, frame_start);
        events.clear();

        ImGui_ImplOpenGL3_NewFrame();
        imgui_input.new_frame(Window::now_s());
        app.nav_inputs();  // keys and pads for menus and ImGui's navigation
        ImGui::NewFrame();
        app.ui(Window::now_s());
        ImGui::Render();
        imgui_input.end_frame();

        int fb_w = 0, fb_h = 0;
        window.framebuffer_size(fb_w, fb_h);
        glViewport(0, 0, fb_w, fb_h);
        glClearColor(0.063f, 0.067f, 0.094f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        app.render(fb_w, fb_h, Window::now_s());  // boards: our batched renderer
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        app.after_render(fb_w, fb_h);  // screenshots read the finished back buffer
        window.swap_buffers();
        app.end_frame(frame_start, Window::now_s());
        // Frame pacing (client/README.md): wait for events until the next frame is due; a key ends the wait at
        // once. Vsync alone cannot be trusted to pace the loop: many setups ignore it.
        app.wait_for_next_frame();
      }
      app.shutdown(Window::now_s());
      out.exit_code = app.exit_code();
    }
  }

  // Shut down in reverse order.
  ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext();
  window.make_current(false);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  // Command line.
  AppOptions options;
  if (auto exit_code = parse_command_line(argc, argv, options)) return *exit_code;
  spdlog::set_level(spdlog::level::from_str(options.log_level));

  // The window (GLFW + glad), on the main thread. Without a display, say so and point to what works headless.
  Window window;
  WindowOptions window_options;
  window_options.width = options.width;
  window_options.height = options.height;
  window_options.fullscreen = options.fullscreen;
  if (const auto opened = window.open(window_options); !opened) {
    std::fprintf(stderr,
                 "stackrace: %s.\n"
                 "Without a display you can run a server (./stackrace.sh server) or let the headless bot play "
                 "(stackrace-bot).\n",
                 opened.error().c_str());
    return 2;
  }

  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  RenderOutcome outcome;
  std::atomic<bool> render_done{false};
  std::thread render([&] {
    outcome = render_thread(options, window);
    render_done = true;
    Window::stop_events();
  });
  // The main thread handles the window's events until the render thread is done.
  window.run_events([&] { return render_done.load(); });
  render.join();
  window.close();
  if (!outcome.error.empty()) std::fprintf(stderr, "stackrace: %s\n", outcome.error.c_str());
  return outcome.exit_code;
}
