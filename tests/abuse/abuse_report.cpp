#include "tests/abuse/abuse_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace sr::abuse {
namespace {

std::string ms_text(std::optional<std::int64_t> us) {
  return us ? fmt::format("{:.1f}", static_cast<double>(*us) / 1000.0) : std::string("-");
}

std::string probe_text(const ProbeOutcome& p) {
  if (!p.tried) return "-";
  if (!p.connected) return "no";
  return fmt::format("{} ms{}", (p.connect_us + 500) / 1000, p.created ? "" : ", no room");
}

std::string bystander_text(const AttackOutcome& o) {
  if (o.bystander_asked == 0) return "-";
  return fmt::format("{}/{}", o.bystander_answered, o.bystander_asked);
}

std::string watch_text(const ProbeOutcome& p) {
  if (!p.watched) return p.created ? "no" : "-";
  return fmt::format("{} ms", (p.catch_up_us + 500) / 1000);
}

constexpr std::size_t kColumns = 11;
using Row = std::array<std::string, kColumns>;

Row row_of(const AttackOutcome& o) {
  const auto fails = judge(o);
  return {fmt::format("{}{}", o.attack, o.addresses > 1 ? fmt::format(" x{}", o.addresses) : ""),
          fmt::format("{}/{}", o.races_finished, o.races_planned),
          fmt::format("{}/{}", o.racers_finished, o.racers_planned),
          std::to_string(o.removed),
          ms_text(percentile(o.relay_delays_us, 0.5)),
          ms_text(percentile(o.relay_delays_us, 0.99)),
          fmt::format("{}{}{}", (o.peak_rss_kb + 512) / 1024, o.memory_guard ? "+" : "", o.server_died ? " died" : ""),
          probe_text(o.probe),
          watch_text(o.probe),
          bystander_text(o),
          fails.empty() ? "ok" : "FAIL"};
}

}  // namespace

std::vector<std::string> judge(const AttackOutcome& o) {
  std::vector<std::string> out;
  if (o.server_died) out.push_back("the server died");
  if (o.races_finished < o.races_planned) {
    out.push_back(fmt::format("{} of {} races finished", o.races_finished, o.races_planned));
  }
  if (o.racers_finished < o.racers_planned) {
    out.push_back(fmt::format("{} of {} racers finished", o.racers_finished, o.racers_planned));
  }
  if (o.removed > 0) out.push_back(fmt::format("{} removed", o.removed));
  const auto p99 = percentile(o.relay_delays_us, 0.99);
  if (!p99) {
    out.push_back("no relay measured");
  } else if (*p99 >= o.relay_p99_goal_us) {
    out.push_back(fmt::format("relay p99 {} ms", ms_text(p99)));
  }
  if (o.peak_rss_kb >= kMaxServerKb || o.memory_guard) {
    out.push_back(fmt::format("server memory {} MB", (o.peak_rss_kb + 512) / 1024));
  }
  if (!o.probe.tried) {
    out.push_back("honest connect not tried");
  } else if (!o.probe.connected) {
    out.push_back("honest connect failed");
  } else if (!o.probe.created) {
    out.push_back("honest create failed");
  } else if (!o.probe.watched) {
    out.push_back("honest catch-up failed");
  }
  if (o.bystander_asked == 0) {
    out.push_back("bystander not tried");
  } else if (o.bystander_answered * 10 < o.bystander_asked * kMinBystanderTenths) {
    out.push_back(fmt::format("bystander answered {} of {}", o.bystander_answered, o.bystander_asked));
  }
  if (o.seats_taken > 0) out.push_back(fmt::format("{} seats taken with a seen token", o.seats_taken));
  return out;
}

std::string format_table(const std::vector<AttackOutcome>& outcomes) {
  // The attack's name reads left-aligned, the figures right-aligned.
  std::vector<std::vector<std::string>> rows{{"attack", "races", "racers", "removed", "p50 ms", "p99 ms", "server MB",
                                              "connect", "catch-up", "bystander", "goals"}};
  for (const AttackOutcome& o : outcomes) {
    const Row row = row_of(o);
    rows.emplace_back(row.begin(), row.end());
  }
  return netsim::align_columns(rows);
}

std::string format_details(const std::vector<AttackOutcome>& outcomes) {
  std::string out;
  for (const AttackOutcome& o : outcomes) {
    out += fmt::format("{} ({:.0f} s):\n", o.attack, o.wall_s);
    if (!o.attacker.empty()) out += "  attacker: " + o.attacker + "\n";
    if (o.probe.tried && !o.probe.failure.empty()) out += "  honest probe: " + o.probe.failure + "\n";
    std::string moved;
    for (const std::string& m : o.metrics_moved) moved += (moved.empty() ? "" : ", ") + m;
    out += "  metrics moved: " + (moved.empty() ? std::string("none") : moved) + "\n";
    for (const std::string& f : judge(o)) out += "  goal missed: " + f + "\n";
    // A run that went badly piles up problems (every removal); the first few say what happened.
    constexpr std::size_t kShown = 8;
    for (std::size_t i = 0; i < o.problems.size() && i < kShown; ++i) out += "  " + o.problems[i] + "\n";
    if (o.problems.size() > kShown) out += fmt::format("  ... and {} more\n", o.problems.size() - kShown);
  }
  return out;
}

std::string format_verdict(const std::vector<AttackOutcome>& outcomes) {
  std::string failed;
  for (const AttackOutcome& o : outcomes) {
    const auto fails = judge(o);
    if (fails.empty()) continue;
    std::string reasons;
    for (const std::string& f : fails) reasons += (reasons.empty() ? "" : ", ") + f;
    failed += fmt::format("{}{}: {}", failed.empty() ? "" : "; ", o.attack, reasons);
  }
  if (outcomes.empty()) return "abuse: FAIL (nothing ran)";
  return failed.empty() ? fmt::format("abuse: PASS ({} attacks)", outcomes.size()) : "abuse: FAIL (" + failed + ")";
}

}  // namespace sr::abuse
