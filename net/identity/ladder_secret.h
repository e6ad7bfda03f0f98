// The secret that holds a contest ladder entrant's name (PROTOCOL.md "Contest ladder"): 128 random bits kept in a
// file the team owns, created on first use. Whoever has the file can spend the entrant's ranked games: keep it like a
// password (the file is created readable by its owner only). Used by stackrace-bot (--ladder) and by the game's
// "Contest ladder" screen, so that a team's bot and its members' game on one machine share one file per entrant.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "common/protocol/records.h"
#include "common/result.h"

namespace sr::net {

// The secret file's name for an entrant: "name.secret", in lower case because the server compares names ignoring case
// ("Rocket" and "rocket" are one entrant, held by one secret), each '/' of the name (allowed in names, not in a file
// name) written as '_'. Every other character of a name (printable ASCII) is kept: "Team 7" gives "team 7.secret".
[[nodiscard]] std::string ladder_secret_file_name(std::string_view entrant);

// The entrant's secret file in `dir`: dir/ladder_secret_file_name(entrant), or, when only a file of the name's exact
// spelling is there (made by a version that kept the case), that file.
[[nodiscard]] std::filesystem::path ladder_secret_file_in(const std::filesystem::path& dir, std::string_view entrant);

// ladder_secret_file_in($XDG_CONFIG_HOME/stackrace/ladder, NAME), or in ~/.config/stackrace/ladder without it. An
// error sentence when neither XDG_CONFIG_HOME nor HOME is set.
[[nodiscard]] sr::Result<std::filesystem::path, std::string> default_secret_file(const std::string& entrant);

// Reads the secret from `file` (32 hexadecimal digits and a newline), or, if the file does not exist, creates it
// (and its directory, mode 0700) with 128 bits from the system's random source, mode 0600. `created` says which.
// An error sentence naming the file when it cannot be read, written or parsed.
[[nodiscard]] sr::Result<protocol::LadderSecret, std::string> load_or_create_secret(const std::filesystem::path& file,
                                                                                    bool& created);

}  // namespace sr::net
