#include "client/bot/external_runner.h"

#include <ostream>

namespace sr::botcli {

int run_external(const SoloOptions& options, const std::string& command, std::ostream& out, std::ostream& err) {
  (void)options;
  (void)command;
  (void)out;
  err << "stackrace-bot: --external is not implemented yet\n";
  return 1;
}

}  // namespace sr::botcli
