// The Records screen (common/protocol/RECORDS.md, section 5): a records hub's boards and, for the chosen board, one
// page of its trusted or other list. A hub selector when the settings list several hubs (the server directories:
// a stackrace-hub is both), the board selector (each board's mode and limit, "custom settings" marked, and how many
// entries its lists hold), the switch between the two lists with a line saying what each holds, the entries (place,
// player and key id, result, rules version, server, date; the player's own highlighted), paging, Refresh and Back.
// Mouse, or keyboard and pad through ImGui's navigation like the other list screens: the focus starts on the board
// selector (Enter opens it, Up/Down choose, Enter takes one), Down reaches the lists and the page buttons, Page Up /
// Page Down (pad LB / RB) turn pages, Esc / B goes back (or closes an open selector). What it shows comes from
// client/lobby/records_browser.h; what the player chose is returned for the app to do.
#pragma once

#include <cstddef>
#include <string>

#include "client/lobby/records_browser.h"
#include "client/ui/menu.h"

namespace sr::client {

struct RecordsAction {
  enum Kind { kNone, kBack, kRefresh, kHub, kBoard, kList, kNextPage, kPreviousPage } kind = kNone;
  std::size_t index = 0;                   // kHub, kBoard
  RecordList list = RecordList::kTrusted;  // kList
};

class RecordsScreen {
 public:
  // `own`: the player's key (their entries are highlighted).
  RecordsAction draw(const RecordsBrowser& records, const OwnKey& own, const MenuNav& nav);
  // The screen is shown again: the keys go to the board selector as soon as it is there.
  void opened();

 private:
  bool popup_was_open_ = false;   // a selector was open at the end of the last frame: its Esc closed it
  bool board_was_shown_ = false;  // the board selector was drawn last frame (when it appears, it takes the keys)
};

}  // namespace sr::client
