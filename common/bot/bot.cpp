#include "common/bot/bot.h"

#include <algorithm>
#include <cassert>

namespace sr::bot {

using engine::TimeUs;

Bot::Bot(BotSettings settings) : settings_(std::move(settings)) {}

void Bot::set_targets(std::vector<Target> targets) { targets_ = std::move(targets); }

bool Bot::needs_decision(const engine::Game& game) const {
  return !game.over() && !forfeited_ && plan_pos_ >= plan_.size() && game.now() >= plan_end_us_ &&
         game.active().has_value();
}

std::optional<Step> Bot::next(const engine::Game& game) {
  if (game.over() || forfeited_) return std::nullopt;
  if (!seeded_) {
    // SplitMix-style mixing keeps nearby seeds from giving related timing streams.
    rng_ = engine::Random(game.seed() ^ (settings_.timing_seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull));
    seeded_ = true;
  }
  if (plan_pos_ >= plan_.size() && game.now() < plan_end_us_) return Step{plan_end_us_, std::nullopt};
  if (plan_pos_ >= plan_.size() && game.active()) {
    decide(game);
    if (forfeited_) return std::nullopt;
  }
  if (plan_pos_ < plan_.size()) {
    const engine::InputChange e = plan_[plan_pos_++];
    last_input_us_ = e.time_us;
    return Step{e.time_us, e.buttons};
  }
  if (game.active()) return Step{game.now() + 1000, std::nullopt};  // let the lock timer do its work

  // No piece out: waiting for a spawn. A key left held from the last piece goes up first.
  const engine::GameState& state = game.state();
  if (carry_.buttons & state.held) {
    const TimeUs t = ceil_ms(std::max({carry_.release_us, game.now(), last_input_us_ + 1}));
    const auto buttons = static_cast<engine::Buttons>(state.held & ~carry_.buttons);
    carry_ = Carry{};
    last_input_us_ = t;
    return Step{t, buttons};
  }
  return Step{std::max(state.spawn_at == engine::kNever ? game.now() + 1000 : state.spawn_at, game.now()),
              std::nullopt};
}

void Bot::adopt(PlanResult result) {
  plan_ = std::move(result.inputs);
  plan_pos_ = 0;
  plan_end_us_ = result.lock_us;
  carry_ = result.carry;
}

void Bot::play_targets(const engine::Game& game, const PlanRequest& base) {
  std::vector<ReachGoal> goals;
  for (const Target& t : *targets_) goals.push_back(ReachGoal{t.state, t.spin});
  targets_.reset();
  const ReachRequest request{base.after_us, base.lock_not_before_us, base.carry, settings_.timing};
  ++counters_.plan_attempts;
  auto found = reach_.plan(game, goals, request);
  if (!found) {
    forfeited_ = true;
    return;
  }
  if (found->goal >= 0) {
    played_target_ = found->goal;
    played_ = Target{found->locked, found->spin};
  }
  adopt(std::move(found->plan));
}

void Bot::decide(const engine::Game& game) {
  if (!weights_set_) {
    weights_ = settings_.weights ? *settings_.weights
                                 : weights_by_name(default_weights_name(game.config().mode)).value_or(Weights{});
    weights_set_ = true;
  }
  ++counters_.decisions;
  played_target_ = -1;
  played_.reset();
  const BotView view = view_of(game, settings_.instant_gravity_us);
  PlanRequest base;
  base.after_us = last_input_us_;
  base.carry = carry_;
  if (settings_.pps_milli > 0) {
    base.lock_not_before_us = ceil_ms((game.stats().pieces + 1) * 1'000'000'000 / settings_.pps_milli);
  }

  if (targets_) {
    play_targets(game, base);
    return;
  }

  const auto ranked = chooser_.rank(view, weights_, settings_.chooser);
  const Piece alt = chooser_.alternative_piece();
  int tries = 0;
  for (const Candidate& c : ranked) {
    if (tries++ >= settings_.max_attempts) break;
    if (try_candidate(game, chooser_.search(c.hold), c.placement, c.hold, alt, base)) return;
    const auto start = c.hold ? spawn_state(view.board, alt) : std::optional<PieceState>(view.active);
    if (start && try_other_model(game, view, *start, c.placement.state, c.placement.spin, c.hold, base)) return;
  }
  ++counters_.fallbacks;
  adopt(plan_hard_drop(game, last_input_us_, carry_));
}

bool Bot::try_candidate(const engine::Game& game, const PlacementSearch& search, const Placement& placement, bool hold,
                        Piece hold_piece, const PlanRequest& base) {
  search.path(placement, actions_);
  search.path_states(placement, states_);
  if (hold) {
    actions_.insert(actions_.begin(), Action::kHold);
    states_.insert(states_.begin(), PieceState{hold_piece, Rotation::kNorth, 0, 0});
  }
  PlanRequest request = base;
  request.actions = actions_;
  request.expected = states_;
  request.target = placement.state;
  ++counters_.plan_attempts;
  auto result = plan_inputs(game, request, settings_.timing, rng_);
  if (!result) return false;
  adopt(std::move(*result));
  return true;
}

bool Bot::try_other_model(const engine::Game& game, const BotView& view, const PieceState& start,
                          const PieceState& cells, engine::SpinKind spin, bool hold, const PlanRequest& base) {
  SearchOptions options = view.options;
  options.tucks = true;
  options.model = options.model == MoveModel::kStatic ? MoveModel::kInstantGravity : MoveModel::kStatic;
  const Placement* match = nullptr;
  for (const Placement& p : spare_.run(view.board, start, options)) {
    if (!same_cells(p.state, cells)) continue;
    if (p.spin == spin) {
      match = &p;
      break;
    }
    if (!match) match = &p;
  }
  return match && try_candidate(game, spare_, *match, hold, start.piece, base);
}

void play_to_end(engine::RacerRun& run, Bot& bot, TimeUs stop_us) {
  while (const auto step = bot.next(run.game())) {
    if (step->time_us > stop_us) break;
    const engine::UpdateResult r = run.update(step->time_us, step->buttons);
    assert(r.error == engine::UpdateError::kOk);
    if (r.error != engine::UpdateError::kOk) break;
  }
}

}  // namespace sr::bot
