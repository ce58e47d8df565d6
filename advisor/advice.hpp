// The strategy advisor's content (docs/advisor.md): the configurations it sizes, how each one was
// priced and why it won or lost, the Pareto front of monthly cost against the worst tenant's SLA
// margin, and the plain-words explanation; with their JSON, CSV and Markdown. The simulations are
// the caller's (cli/cmd_advise.cpp runs them through the sizing search).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "pricing/price_table.hpp"
#include "pricing/roi.hpp"
#include "scenario/catalogs.hpp"
#include "scenario/scenario.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::advisor {

/// What the advisor may search; empty lists mean "everything that applies".
struct AdviceSelection {
  std::vector<models::StrategyKind> kinds;
  std::vector<std::string> gpus;                 ///< catalog ids
  std::vector<pricing::PurchaseOption> options;  ///< empty = the scenario's option
  int max_gpus = 16;                             ///< the most GPUs a sized fleet may have
};

/// One configuration to size: a strategy with its settings on a GPU type, and the pools of whole
/// GPUs (of that type or another) reserved for tenants that the strategy's devices cannot hold.
struct AdviceCandidate {
  std::string label;                ///< "mig 3g.40gb+2g.20gb+1g.10gb+1g.10gb on A100-80GB"
  std::string gpu;                  ///< the GPU type the strategy shares (or partitions)
  scenario::StrategySpec strategy;  ///< sizing = sla
  bool baseline = false;            ///< the dedicated baseline on the scenario's own GPU
  /// Tenants whose priority the candidate sets (time slicing with the tightest tenants first:
  /// with_baseline_settings); every other tenant keeps the scenario's.
  std::map<std::string, scenario::Priority> priorities;
  /// Tenants that run alone on whole GPUs of a pool reserved for them (scenario::FleetEntry::tenants):
  /// tenant -> the pool's GPU type. A model that needs several GPUs (tensor parallel) and a tenant
  /// that fits none of the strategy's devices run there.
  std::map<std::string, std::string> pools;
  /// Tenants whose engine's tensor_parallel the candidate raises to hold its model on its pool's
  /// GPUs: tenant -> GPUs per context.
  std::map<std::string, int> tensor_parallel;
};

/// The candidates, the baseline first: per GPU type (the selection's, or every catalog GPU the
/// price table sells in the region) and strategy kind, the settings worth sizing (MIG: every
/// maximal layout; MPS: no cap and 50 % active threads; HAMi: no cap and 50 % cores; vGPU: 2, 4
/// and 8 profiles per GPU); with_baseline_settings adds the per-tenant ones. Time-slicing replicas
/// are not searched: a replica limit only constrains packing, so the sized fleet's most contexts per
/// GPU is the value to deploy.
///
/// A tenant that the strategy's devices cannot hold (a model bigger than the GPU, the MIG layout's
/// largest instance or the vGPU profile), or whose model spans several GPUs (tensor_parallel),
/// runs in a pool of whole GPUs of its own: on the candidate's GPU type, with the fewest GPUs per
/// context that hold it, and, where another type would cost less, in a second candidate on the
/// cheapest type that holds it. A candidate in which no tenant is left to share is not searched
/// (dedicated excepted); a GPU type on which some tenant fits no pool either is skipped.
///
/// Throws ConfigError naming an unknown GPU, or a selection that leaves nothing to search. vGPU is
/// not offered on a public-cloud table (aws, gcp, azure, or one extending them): it needs a host
/// running NVIDIA's vGPU manager.
std::vector<AdviceCandidate> advice_candidates(const scenario::Scenario& scenario, const scenario::Catalogs& catalogs,
                                               const pricing::PriceTable& table, const AdviceSelection& selection);

/// True for a shipped public-cloud price table or one that extends it.
bool public_cloud_table(const pricing::PriceTable& table);

/// A tenant's SLA slack in a run: its tightest target over its figure at the quantile its SLA
/// allows (2: it could run twice as slow and still meet it); +inf without a target; below 1 when
/// it missed.
double sla_slack(const scenario::Tenant& tenant, const scenario::TenantResult& result);

/// The MPS thread cap, in percent, a tenant with `slack` on a GPU of its own tolerates: the lowest
/// of 25, 50 and 75 % whose worst slowdown (1 / cap, a compute-bound client) uses at most half its
/// slack in ratio (slowdown <= sqrt(slack)), leaving the other half to sharing and queueing; 100
/// when none does.
double thread_cap_for_slack(double slack);

/// The candidates with the settings the baseline's sized run suggests (docs/advisor.md, "Settings
/// from the baseline"), each placed after its kind's other candidates on its GPU:
/// - MPS with each tenant's thread cap by its slack (thread_cap_for_slack), when some tenant gets
///   a cap and the caps are not all 50 % (that candidate exists already);
/// - time slicing with the tightest tenants (slack under twice the least) at high priority, when
///   that is some but not all of them and the scenario sets no priority itself.
/// `baseline` is the baseline candidate's sized run (every tenant on dedicated GPUs).
std::vector<AdviceCandidate> with_baseline_settings(std::vector<AdviceCandidate> candidates,
                                                    const scenario::Scenario& scenario,
                                                    const scenario::StrategyResult& baseline);

/// The scenario one candidate is sized in: the base with the candidate's GPU (max_gpus of them) and
/// its pools (max_gpus each), the candidate as strategy 0 and, unless it is dedicated, a sized
/// dedicated strategy after it; the candidate's priorities and tensor parallelism set on its
/// tenants, and each generic tenant's figures referred to the scenario's own GPU where they named
/// none (they were measured there, not on the candidate's).
scenario::Scenario candidate_scenario(const scenario::Scenario& base, const AdviceCandidate& candidate, int max_gpus);

/// The purchase options a selection prices: its own, or else the scenario's.
std::vector<pricing::PurchaseOption> advice_options(const scenario::Scenario& scenario,
                                                    const AdviceSelection& selection);

/// A candidate's sized run priced under `option` as its scenario (candidate_scenario) says: the
/// fleet's instances, licences and sidecars; nullopt when the table has no price under `option`.
std::optional<pricing::StrategyCost> price_candidate(const scenario::Scenario& variant,
                                                     const scenario::StrategyResult& result,
                                                     const pricing::PriceTable& table, pricing::PurchaseOption option);

/// GPUs a candidate needs at least, from memory and per-device limits alone (no simulation): its
/// shared GPUs' bound plus its pools' GPUs (one per context, a tensor-parallel group its GPUs).
int candidate_lower_bound(const scenario::Scenario& base, const AdviceCandidate& candidate,
                          const scenario::Catalogs& catalogs);

/// The least a candidate at its lower bound costs a month under any of `options` (its shared GPUs
/// and its pools, each at its cheapest instances); -1 when some part has no price.
double candidate_floor_monthly_usd(const scenario::Scenario& base, const AdviceCandidate& candidate,
                                   const scenario::Catalogs& catalogs, const pricing::PriceTable& table,
                                   const std::vector<pricing::PurchaseOption>& options);

/// One candidate under one purchase option.
struct AdviceRow {
  std::size_t candidate = 0;
  pricing::PurchaseOption option = pricing::PurchaseOption::on_demand;
  /// "meets" (every SLA, sized), "misses" (no fleet within max_gpus), "pruned" (its lower bound
  /// already costs more than the baseline), "unpriced" (no price under this option)
  std::string status;
  std::string reason;  ///< why it is not the answer; "" for the answer
  int num_gpus = 0;
  std::vector<int> contexts;  ///< per tenant
  std::string instances;      ///< "3 x a2-ultragpu-1g"
  double monthly_usd = 0.0;
  /// Against the baseline under the same purchase option (like for like: what sharing saves).
  double monthly_savings_usd = 0.0;
  double savings_frac = 0.0;
  /// What the purchase option alone saves: the baseline under the scenario's option less the
  /// baseline under this one (0 under the scenario's own option).
  double option_savings_usd = 0.0;
  double worst_margin = 0.0;  ///< the worst tenant's relative SLA margin (scenario/sizing.hpp)
  std::string worst_tenant;
  std::string isolation;  ///< the strategy's isolation: none | software | hardware
  bool on_front = false;  ///< on the Pareto front of cost against margin
  /// Spot rows: what interruptions cost the tenants and the spot/on-demand mix (docs/roi.md).
  std::optional<pricing::SpotExposure> spot;
};

struct Advice {
  std::string scenario;
  std::string table;
  std::string region;
  std::string as_of;
  int max_gpus = 0;
  std::vector<AdviceCandidate> candidates;
  std::vector<AdviceRow> rows;           ///< candidate-major, options in selection order
  std::size_t baseline_row = 0;          ///< the baseline under the scenario's option
  std::optional<std::size_t> answer;     ///< the cheapest row that meets every SLA
  std::vector<std::string> explanation;  ///< paragraphs, plain words
  /// The answer's sizing record (how it was placed, whether it is minimal); none without an answer.
  std::optional<scenario::SizingRecord> answer_sizing;
  int num_simulations = 0;  ///< simulations run
  int num_reused = 0;       ///< runs asked for again and not re-run
  /// With diurnal loads, the answer sized for every hour of day and priced autoscaled
  /// (add_autoscaled); none otherwise, and under reserved options.
  std::optional<pricing::AutoscaledCost> autoscaled;
};

/// What the search of one candidate gave: its sized run (none when pruned before simulating).
struct CandidateOutcome {
  std::optional<scenario::StrategyResult> result;
  int lower_bound_gpus = 0;
  std::string pruned;  ///< why it was not simulated, when it was not
};

/// Prices every candidate under every option, settles the status and reason of each row, the
/// answer, the Pareto front and the explanation. `outcomes` are per candidate (same order).
/// `num_simulations` and `num_reused` are what the search cost (for the explanation).
Advice build_advice(const scenario::Scenario& scenario, const pricing::PriceTable& table,
                    const AdviceSelection& selection, const std::vector<AdviceCandidate>& candidates,
                    const std::vector<CandidateOutcome>& outcomes, int num_simulations = 0, int num_reused = 0);

/// The answer (`answer`: its result, sized for every hour of day in `variant`, its scenario) as
/// an autoscaled fleet: sets advice.autoscaled and says it in the explanation and the summary. Does
/// nothing when the answer has no hourly fleets or its option has no autoscaled figure.
void add_autoscaled(Advice& advice, const scenario::Scenario& variant, const scenario::StrategyResult& answer,
                    const pricing::PriceTable& table);

/// "no configuration within 8 GPUs meets every SLA: the closest is mps on L4 with 8 GPUs, missing
/// job-03: p95 latency 640 ms against its 600 ms target (misses by 40 ms; ...)"; "" when advice has
/// an answer. `base` is the scenario advised on.
std::string no_answer_message(const Advice& advice, const scenario::Scenario& base,
                              const std::vector<CandidateOutcome>& outcomes);

std::string advice_to_json_text(const Advice& advice);
std::string advice_candidates_csv(const Advice& advice);
std::string advice_pareto_csv(const Advice& advice);
std::string advice_markdown(const Advice& advice);
/// The answer and the baseline in a few terminal lines.
std::string advice_summary_text(const Advice& advice);

}  // namespace slicewise::advisor
