// The records hub's lines of the hub's /metrics (Prometheus text, version 0.0.4).
#pragma once

#include <cstddef>
#include <string>

#include "hub/records/records_hub.h"

namespace sr::hub::records {

// stackrace_hub_submissions_total{result="..."} (every SubmitResult, 0 included),
// stackrace_hub_runs_total{result="accepted"} and {result="refused",reason="..."} (every RunOutcome),
// stackrace_hub_records_enabled (1 with a data directory), stackrace_hub_verifying and
// stackrace_hub_verify_slots (re-simulations running, and at most).
[[nodiscard]] std::string records_metrics_text(const SubmitCounts& counts, bool enabled, std::size_t verifying,
                                               std::size_t slots);

}  // namespace sr::hub::records
