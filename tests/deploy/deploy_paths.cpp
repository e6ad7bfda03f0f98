#include "tests/deploy/deploy_paths.h"

#include <sstream>

#include "server/server_config.h"

namespace sr::test {

std::string check_server_args(const std::vector<std::string>& args) {
  server::ServerConfig config;
  CLI::App app;
  server::add_server_options(app, config);
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return e.get_name() + ": " + e.what();
  }
  return "";
}

std::vector<std::string> split_words(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  std::string word;
  while (in >> word) words.push_back(word);
  return words;
}

}  // namespace sr::test
