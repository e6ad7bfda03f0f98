#include "client/settings/paths.h"

#include <cstdlib>

#include "net/identity/ladder_secret.h"

namespace sr::client {
namespace {

std::filesystem::path base_dir(const char* xdg_var, const char* home_suffix) {
  if (const char* v = std::getenv(xdg_var); v != nullptr && v[0] == '/') return v;
  if (const char* home = std::getenv("HOME"); home != nullptr && home[0] != '\0') {
    return std::filesystem::path(home) / home_suffix;
  }
  return std::filesystem::current_path();
}

}  // namespace

std::filesystem::path Paths::ladder_secret_file(std::string_view entrant) const {
  return net::ladder_secret_file_in(config_dir / "ladder", entrant);
}

Paths resolve_paths(const std::optional<std::filesystem::path>& config_override,
                    const std::optional<std::filesystem::path>& data_override) {
  Paths p;
  p.config_dir = config_override ? *config_override : base_dir("XDG_CONFIG_HOME", ".config") / "stackrace";
  p.data_dir = data_override ? *data_override : base_dir("XDG_DATA_HOME", ".local/share") / "stackrace";
  return p;
}

}  // namespace sr::client
