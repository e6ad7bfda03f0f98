// The secret files that held contest ladder entrants' names before player keys (PROTOCOL.md "Contest ladder"): 128
// random bits in a file per entrant. Entrants are held by player keys now (player_key.h); an old file is only read,
// never made, and sent once with LadderEnter so that the entrant it held passes to the player's key. Used by
// stackrace-bot (--ladder) and by the game's "Contest ladder" screen.
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

// $XDG_CONFIG_HOME/stackrace, or ~/.config/stackrace without it: where the game and the bots keep their keys and
// secrets. An error sentence (naming `option`, the command-line option that gives the file instead) when neither
// XDG_CONFIG_HOME nor HOME is set.
[[nodiscard]] sr::Result<std::filesystem::path, std::string> config_dir(std::string_view option);

// ladder_secret_file_in($XDG_CONFIG_HOME/stackrace/ladder, NAME), or in ~/.config/stackrace/ladder without it. An
// error sentence when neither XDG_CONFIG_HOME nor HOME is set.
[[nodiscard]] sr::Result<std::filesystem::path, std::string> default_secret_file(const std::string& entrant);

// The secret in `file` if there is one (an entrant claimed before player keys; PROTOCOL.md "Contest ladder"), nullopt
// when the file does not exist. An error sentence naming the file when it cannot be read or parsed.
[[nodiscard]] sr::Result<std::optional<protocol::LadderSecret>, std::string> read_legacy_secret(
    const std::filesystem::path& file);

}  // namespace sr::net
