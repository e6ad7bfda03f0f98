// Which screen the app shows. A header of its own because the screens' state remembers where to go back to (the
// menu a solo game returns to, the screen the replay browser was opened from).
#pragma once

namespace sr::client {

enum class Screen { kMain, kSolo, kBot, kCustom, kPuzzles, kSettings, kGame, kBench, kNet, kReplays, kViewer, kLadder };

}  // namespace sr::client
