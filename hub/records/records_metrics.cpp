#include "hub/records/records_metrics.h"

#include <fmt/format.h>

namespace sr::hub::records {

std::string records_metrics_text(const SubmitCounts& counts, bool enabled, std::size_t verifying, std::size_t slots) {
  std::string out;
  out += "# HELP stackrace_hub_records_enabled 1 when the hub keeps records (it has a data directory).\n";
  out += "# TYPE stackrace_hub_records_enabled gauge\n";
  out += fmt::format("stackrace_hub_records_enabled {}\n", enabled ? 1 : 0);
  out += "# HELP stackrace_hub_submissions_total Records submissions answered, by result.\n";
  out += "# TYPE stackrace_hub_submissions_total counter\n";
  for (int i = 0; i < kSubmitResultCount; ++i) {
    out +=
        fmt::format("stackrace_hub_submissions_total{{result=\"{}\"}} {}\n",
                    submit_result_name(static_cast<SubmitResult>(i)), counts.submissions[static_cast<std::size_t>(i)]);
  }
  out +=
      "# HELP stackrace_hub_runs_total Runs named by submissions that were re-simulated, by result (refusals by "
      "reason).\n";
  out += "# TYPE stackrace_hub_runs_total counter\n";
  for (int i = 0; i < kRunOutcomeCount; ++i) {
    const auto o = static_cast<RunOutcome>(i);
    const std::uint64_t n = counts.runs[static_cast<std::size_t>(i)];
    if (o == RunOutcome::kAccepted) {
      out += fmt::format("stackrace_hub_runs_total{{result=\"accepted\"}} {}\n", n);
    } else {
      out += fmt::format("stackrace_hub_runs_total{{result=\"refused\",reason=\"{}\"}} {}\n", run_outcome_name(o), n);
    }
  }
  out += "# HELP stackrace_hub_verifying Submissions being re-simulated now.\n";
  out += "# TYPE stackrace_hub_verifying gauge\n";
  out += fmt::format("stackrace_hub_verifying {}\n", verifying);
  out += "# HELP stackrace_hub_verify_slots Submissions the hub re-simulates at once, at most.\n";
  out += "# TYPE stackrace_hub_verify_slots gauge\n";
  out += fmt::format("stackrace_hub_verify_slots {}\n", slots);
  return out;
}

}  // namespace sr::hub::records
