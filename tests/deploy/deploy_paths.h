// Where the deployment files and the built programs are, and checking a stackrace-server command line against the
// server's own option table.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace sr::test {

[[nodiscard]] inline std::filesystem::path source_dir() { return STACKRACE_SOURCE_DIR; }
[[nodiscard]] inline std::filesystem::path deploy_dir() { return source_dir() / "deploy"; }
[[nodiscard]] inline std::filesystem::path example_config_path() { return deploy_dir() / "server.example.toml"; }

// Parses stackrace-server arguments (without the program name) with the server's option table, as the server would.
// Empty on success, else CLI11's complaint. A --config path is read, so pass files that exist here.
[[nodiscard]] std::string check_server_args(const std::vector<std::string>& args);

// Splits a command line on spaces (no quoting: the deployment files use none).
[[nodiscard]] std::vector<std::string> split_words(const std::string& line);

}  // namespace sr::test
