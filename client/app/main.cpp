// stackrace: the game client. Reads top to bottom like Dear ImGui's example_glfw_opengl3: set up, loop (poll,
// new frame, UI, render, swap, wait), shut down in reverse order. Everything else lives in App.
#include <glad/gl.h>
// glad before GLFW
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <spdlog/spdlog.h>

#include <csignal>
#include <cstdio>

#include "client/app/app.h"
#include "client/app/cli.h"
#include "client/platform/window.h"
#include "client/ui/fonts.h"

namespace {

// Ctrl+C or a TERM signal ends the loop normally, so a game in progress is still saved as abandoned.
volatile std::sig_atomic_t g_stop = 0;
extern "C" void on_stop_signal(int) { g_stop = 1; }

}  // namespace

int main(int argc, char** argv) {
  using namespace sr::client;

  // Command line.
  AppOptions options;
  if (auto exit_code = parse_command_line(argc, argv, options)) return *exit_code;
  spdlog::set_level(spdlog::level::from_str(options.log_level));

  // Window and OpenGL context (GLFW + glad). Without a display, say so and point to what works headless.
  Window window;
  WindowOptions window_options;
  window_options.width = options.width;
  window_options.height = options.height;
  window_options.fullscreen = options.fullscreen;
  window_options.vsync = options.vsync;
  if (const auto opened = window.open(window_options); !opened) {
    std::fprintf(stderr,
                 "stackrace: %s.\n"
                 "Without a display you can run a server (./stackrace.sh server) or let the headless bot play "
                 "(stackrace-bot).\n",
                 opened.error().c_str());
    return 2;
  }
  spdlog::info("OpenGL: {}", window.gl_description());

  // Dear ImGui, with our key callback installed first so ImGui's chains to it.
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
  ImGui_ImplGlfw_InitForOpenGL(window.handle(), true);
  ImGui_ImplOpenGL3_Init("#version 330 core");

  // The application.
  App app(options, window, fonts);
  if (const auto started = app.init(); !started) {
    std::fprintf(stderr, "stackrace: %s\n", started.error().c_str());
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    return 1;
  }

  // Main loop.
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  while (!window.should_close() && !app.done() && g_stop == 0) {
    const double frame_start = Window::now_s();
    glfwPollEvents();  // key callbacks stamp each event with glfwGetTime()
    app.input(Window::now_s());

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    app.nav_inputs();  // keys and pads for menus and ImGui's navigation
    ImGui::NewFrame();
    app.ui(Window::now_s());
    ImGui::Render();

    int fb_w = 0, fb_h = 0;
    window.framebuffer_size(fb_w, fb_h);
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(0.063f, 0.067f, 0.094f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    app.render(fb_w, fb_h, Window::now_s());  // boards: our batched renderer
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    app.after_render(fb_w, fb_h);  // screenshots read the finished back buffer
    glfwSwapBuffers(window.handle());
    app.end_frame(frame_start, Window::now_s());
    // Frame pacing (client/README.md): wait for events until the next frame is due; a key ends the wait at once. Vsync
    // alone cannot be trusted to pace the loop: many setups ignore it.
    app.wait_for_next_frame();
  }

  // Shut down in reverse order.
  app.shutdown(Window::now_s());
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  window.close();
  return app.exit_code();
}
