// The replay browser (games on this computer and on the server we are connected to) and the replay viewer, one screen
// type each. Both are opened from elsewhere too: the browser from the main menu and the lobby; the viewer from the
// command line (a file or a game's web link), the browser, a race's results and the contest ladder (downloads).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "client/app/replay_browser_state.h"
#include "client/app/screen_view.h"
#include "client/app/viewer_state.h"
#include "common/result.h"

namespace sr::client {

class ReplaysView final : public ScreenView {
 public:
  using ScreenView::ScreenView;
  // Opened from the main menu or the lobby: a fresh browser that goes back there. Opened again from the browser (a
  // refresh) or the viewer: the same browser, its listing read again.
  void open();
  // The browser is dropped (its problem, filters and server list with it).
  void close() { browser_.reset(); }
  [[nodiscard]] bool is_open() const { return browser_.has_value(); }
  // Said in the browser, when it is open.
  void set_problem(std::string text);

  [[nodiscard]] std::string name() const override { return "replays"; }
  void ui(double now_s, const MenuNav& nav) override;
  void net_message(const protocol::Message& message, double now_s) override;

 private:
  std::optional<ReplayBrowserState> browser_;
};

class ViewerView final : public ScreenView {
 public:
  using ScreenView::ScreenView;
  // Opens the viewer on `file`; when it cannot, the browser (opened) says why, and so does the error returned.
  [[nodiscard]] sr::Status<std::string> open_file(const std::filesystem::path& file);
  // `stackrace LINK`: downloads the replay of a game's web link (client/web/replay_fetch.h, blocking up to its
  // timeout) and opens the viewer on it. Ok or the sentence saying why not.
  [[nodiscard]] sr::Status<std::string> open_link(const std::string& link);
  // Asks the server we are connected to for stored game `game_id`, shown in the viewer when it has arrived. False
  // when it cannot be asked.
  [[nodiscard]] bool download(std::uint64_t game_id);
  [[nodiscard]] bool downloading() const { return pending_download_.has_value(); }

  [[nodiscard]] std::string name() const override { return "replay viewer"; }
  void ui(double now_s, const MenuNav& nav) override;
  void render(const BoardLook& look, float w, float h, double now_s) override;
  [[nodiscard]] const std::vector<BoardLayout>& layouts() const override;
  [[nodiscard]] Activity activity() const override;
  void net_message(const protocol::Message& message, double now_s) override;
  void net_polled(double now_s) override;
  void connection_closed() override { pending_download_.reset(); }

 private:
  void layout(float w, float h);
  // A replay could not be shown: said in the browser, on the ladder, or among the server's messages.
  void problem(std::string text);

  std::unique_ptr<ViewerState> viewer_;
  std::optional<std::uint64_t> pending_download_;  // a replay asked of the server
};

}  // namespace sr::client
