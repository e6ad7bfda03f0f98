// Main menu > Records (`stackrace --records`): the global record boards of a records hub (common/protocol/RECORDS.md,
// sections 4 and 5). The hubs are the server directories of the settings (Settings::directories: a stackrace-hub is
// both); what is shown and asked is client/lobby/records_browser.h's, drawn by client/ui/records_screen.h. Each GET
// runs on a thread of its own (client/web/background_get.h) and is polled every frame, so the screen and its keys never
// wait for a hub; every failure is said on the screen.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "client/app/screen_view.h"
#include "client/lobby/records_browser.h"
#include "client/ui/records_screen.h"
#include "client/web/background_get.h"

namespace sr::client {

class RecordsView final : public ScreenView {
 public:
  using ScreenView::ScreenView;
  // Shows the screen with the settings' hubs and asks the chosen hub again; Back returns to `back_to`.
  void open(Screen back_to);

  [[nodiscard]] std::string name() const override { return "records"; }
  void ui(double now_s, const MenuNav& nav) override;
  // While answers are awaited, a frame every 50 ms to take them (the screen is idle otherwise).
  [[nodiscard]] std::optional<double> wake_at(double now_s) const override;

 private:
  struct Fetch {
    RecordsRequest request;
    BackgroundGet get;
  };
  // Starts the browser's new requests, and hands it the answers that came (and starts what they asked for).
  void fetch();
  void start_requests();
  void log_answer(RecordsRequest::Kind kind) const;
  [[nodiscard]] OwnKey own_key() const;
  void act(const RecordsAction& action);

  RecordsBrowser records_;
  RecordsScreen screen_;
  std::vector<Fetch> fetches_;
  Screen back_to_ = Screen::kMain;
};

}  // namespace sr::client
