// Multiplayer > Browse servers (common/protocol/DIRECTORY.md): every server the configured directories list (their
// GET /api/servers, fetched off the frame loop), every server on the local network (LAN discovery), and the saved and
// recent servers, each asked for its facts and pinged by the game itself over UDP. The list (client/lobby/
// server_browser.h) is sorted by any column (its header), filtered by text, "has players" and "saved only", and
// joined with Enter (or a double click) on a row; a server of another protocol version says it cannot be joined.
// Everything works by keyboard and pad, as every other screen.
#pragma once

#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/app/screen_view.h"
#include "client/lobby/server_browser.h"
#include "net/discovery/server_info.h"

namespace sr::net {
class ServerQuery;
}

namespace sr::client {

class BrowseView final : public ScreenView {
 public:
  explicit BrowseView(App& app);
  ~BrowseView() override;
  // Shows the browser and refreshes it.
  void open();

  [[nodiscard]] std::string name() const override { return "server browser"; }
  void ui(double now_s, const MenuNav& nav) override;
  // Frames keep coming while answers may still arrive (pings, directory lists), then the screen idles.
  [[nodiscard]] Activity activity() const override;

 private:
  struct Fetch {
    std::string url;
    std::future<sr::Result<std::vector<net::ListedServer>, std::string>> result;
  };
  void refresh();
  void poll();
  // Asks host:port for its facts and ping (DIRECTORY.md, "1. Server queries (UDP, on the game port)"); a host that does
  // not resolve is said.
  void ask(const std::string& host, std::uint16_t port);
  void join(const BrowserEntry& entry);
  void toggle_saved(const BrowserEntry& entry);
  void table(const MenuNav& nav);
  // The directories (Settings::directories): each with Remove, and a field to add one.
  void directories();

  ServerBrowser browser_;
  BrowserView view_;
  char filter_[64] = "";
  bool focus_filter_ = false;     // on the next frame: the keyboard goes to the filter
  bool focus_first_row_ = false;  // on the next frame: the keyboard goes to the first row
  char directory_[200] = "";
  std::string current_;  // the address of the row last focused or clicked
  std::vector<Fetch> fetches_;
  std::unique_ptr<net::ServerQuery> query_;
  std::vector<std::string> status_;  // one line per directory, and the query's
  double answers_until_s_ = 0;       // answers are waited for (frames drawn) until then
};

}  // namespace sr::client
