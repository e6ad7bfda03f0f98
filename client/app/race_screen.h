// A room and its races on screen (net_view.cpp): our held buttons, the boards' layout, the race whose
// results were closed, the chat line being typed, when the results arrived. Made when we enter a room (RoomJoined)
// and dropped when we leave it or the connection ends, so nothing of one room carries into the next; what belongs
// to one race alone (`race`) is reset again when each race starts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "client/audio/game_cues.h"
#include "client/lobby/record_place.h"
#include "client/render/board_renderer.h"
#include "client/web/background_get.h"
#include "common/engine/types.h"

namespace sr::client {

// Seconds after the results appear during which their buttons take no keys (hard drops still being pressed).
inline constexpr double kResultsKeyGraceS = 1.5;

struct RaceScreenState {
  struct Race {
    engine::Buttons buttons = 0;                // held now (in the countdown: held at the start)
    engine::TimeUs last_press_us = 0;           // race time of our last button change sent
    std::uint32_t enlarged = 0;                 // spectating: the player whose board was clicked large (0 = none)
    audio::CountdownBeeps beeps;                // our race's countdown
    std::vector<std::uint32_t> finished_heard;  // racers whose finish was chimed (or had finished when we came)
    bool finishes_seen = false;                 // finished_heard holds those who had finished when we came
    bool leave_asked = false;  // Esc while racing: "leave the race?" is up (our game goes on meanwhile)
    int leave_choice = 0;      // its highlighted choice (LeaveChoice)
    std::string link_note;     // the results' Copy web link: "link copied: http://..." or why there is no link
    // Where our result would place on the records of the settings' first hub (lobby/record_place.h): asked in the
    // background once the results came, when it counts on its board; the answer is taken at a frame (NetView::tick).
    std::optional<RecordPlaceAsk> record_place;
    std::optional<BackgroundGet> record_place_get;
  } race;
  std::uint32_t dismissed_race = 0;    // results of this race were closed: show the room
  double results_shown_s = 0;          // when the last results arrived (their buttons wait a moment)
  float results_h = 0;                 // height of the results' windows last frame (0: none): boards stay above
  bool exit_screenshot_taken = false;  // --exit-after-race --screenshot: the results are on record
  char chat[201] = "";
  std::vector<BoardLayout> layouts;  // laid out every frame
  std::vector<std::size_t> order;    // race board i -> layouts index
};

}  // namespace sr::client
