// Money (docs/design.md §6, docs/roi.md): what a strategy's fleet costs per month, what it saves against
// the dedicated baseline, what it costs per 1,000 requests, who pays for it (chargeback), and the
// seed's business view (revenue at risk from added latency). Plain inputs: no simulation types.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pricing/price_table.hpp"

namespace slicewise::pricing {

/// Instances bought to carry a number of GPUs (or CPU sidecars).
struct CostLine {
  std::string role;  ///< "gpu" or "sidecar"
  std::string instance_type;
  std::string region;
  int count = 0;     ///< instances
  int num_gpus = 0;  ///< GPUs they carry in all
  double usd_per_hour_each = 0.0;
  double monthly_usd = 0.0;  ///< count × usd_per_hour_each × 730
  bool operator==(const CostLine&) const = default;
};

/// The cheapest way to rent `num_gpus` GPUs of `gpu_id` under `option`: for each instance type
/// carrying that GPU (only `instance_type` when given; only `region` when given), ceil(num_gpus /
/// GPUs per instance) instances; the lowest hourly total wins, ties go to fewer instances, then to
/// table order. nullopt when no row has a price under `option`. num_gpus 0 gives a zero line.
/// `min_gpus_per_instance`: only instances with at least that many GPUs (a tensor-parallel group
/// runs within one node).
std::optional<CostLine> cheapest_gpu_instances(const PriceTable& table, std::string_view gpu_id, int num_gpus,
                                               PurchaseOption option, std::string_view region = {},
                                               std::string_view instance_type = {}, int min_gpus_per_instance = 1);

/// How a strategy's monthly cost is split over its tenants (docs/roi.md "Chargeback per tenant").
/// Both are always computed; the model in use is the one reports show.
enum class ChargebackModel {
  reservation,  ///< what each tenant holds: its GPUs, MIG instances and shares of shared GPUs
  usage,        ///< what each tenant used: the GPU work of its completed requests
};
/// Name <-> model ("reservation", "usage"), in the order above.
const std::vector<std::pair<std::string, ChargebackModel>>& chargeback_model_table();
std::string to_string(ChargebackModel model);
/// The model of that name; nullopt for another name.
std::optional<ChargebackModel> chargeback_model_named(std::string_view name);

/// Per tenant, what the simulation measured and placed that money is split by.
struct TenantUsage {
  std::string name;
  double gpu_work_s = 0.0;        ///< GPU seconds of completed requests (the usage weight)
  double throughput_per_s = 0.0;  ///< completed requests per second
  double p95_latency_s = 0.0;
  double reserved_gpus = 0.0;          ///< GPU-equivalents reserved for it: whole GPUs, MIG and shared fractions
  double reserved_usd_per_hour = 0.0;  ///< the hourly price of that capacity (the reservation weight)
  bool revenue_bearing = true;         ///< its added latency counts in the revenue at risk
  double in_sla_per_s = -1.0;          ///< completed requests per second within its SLA; < 0 = all of them
};

/// The business view of the seed's calculator.
struct BusinessInputs {
  double monthly_revenue_usd = 0.0;          ///< revenue exposed to latency
  double abandonment_per_100ms_frac = 0.01;  ///< users lost per 100 ms of added latency (default 1 %)
};

/// A tenant's share of its strategy's whole monthly cost, idle capacity included, under both models.
struct TenantCharge {
  std::string name;
  double monthly_usd = 0.0;               ///< under the model in use
  double share_frac = 0.0;                ///< under the model in use
  double cost_per_1k_requests_usd = 0.0;  ///< under the model in use
  double added_p95_latency_s = 0.0;       ///< p95 under this strategy minus p95 under the baseline
  double reservation_monthly_usd = 0.0;   ///< by reservation
  double reservation_share_frac = 0.0;
  double usage_monthly_usd = 0.0;  ///< by usage
  double usage_share_frac = 0.0;
  double reserved_gpus = 0.0;          ///< TenantUsage's, for the reports
  double reserved_usd_per_hour = 0.0;  ///< the reservation weight
  double gpu_work_s = 0.0;             ///< the usage weight
  bool operator==(const TenantCharge&) const = default;
};

/// One tenant's exposure to spot interruptions (first order: interruptions do not overlap).
struct SpotTenant {
  std::string name;
  double interruptions_per_month = 0.0;  ///< interruptions of an instance that carries one of its contexts
  double outage_hours_per_month = 0.0;   ///< expected hours with none of its contexts serving
  double availability = 1.0;             ///< 1 − outage / 730 h
  /// Requests that arrive while none of its contexts serves: they wait for the replacement, far past
  /// any latency target.
  double delayed_requests_per_month = 0.0;
  /// Requests in flight on an interrupted instance that cannot finish within the notice (the
  /// tenant's median latency is longer): lost and re-sent.
  double resent_requests_per_month = 0.0;
  bool revenue_bearing = true;
  bool operator==(const SpotTenant&) const = default;
};

/// What spot capacity costs the tenants of a strategy's fleet, and a spot/on-demand mix that
/// keeps every revenue-bearing tenant serving through an interruption (docs/roi.md).
struct SpotExposure {
  int num_instances = 0;                 ///< GPU instances of the fleet
  double interruptions_per_month = 0.0;  ///< expected over the fleet: Σ instances' rates
  double notice_s = 0.0;                 ///< the provider's warning
  double outage_s = 0.0;                 ///< per interruption: replacement + model load − notice
  std::vector<std::string> rates;        ///< per GPU type: "H100-SXM-80GB 0.2 a month (band 15-20 %, ...)"
  bool assumed = false;                  ///< some rate (or the notice) has no published reading
  std::vector<SpotTenant> tenants;       ///< in the strategy's tenant order
  /// The mix: the fewest instances found (greedy) that hold a context of every revenue-bearing
  /// tenant run on-demand, the rest on spot. Its monthly cost replaces the GPU lines' (licences and
  /// sidecars as priced).
  int mix_on_demand_instances = 0;
  double mix_monthly_usd = 0.0;
  std::vector<SpotTenant> mix_tenants;  ///< exposure under the mix
  bool mix_priced = false;              ///< every instance has an on-demand price
  bool operator==(const SpotExposure&) const = default;
};

/// An autoscaled fleet's money: each hour of day's fleet at its price (docs/roi.md).
struct AutoscaledCost {
  std::vector<int> gpus_by_hour;             ///< 24, from 00:00
  std::vector<double> usd_per_hour_by_hour;  ///< 24: the hour's instances, licence and sidecars
  int min_gpus = 0;
  int max_gpus = 0;
  double scale_up_s = 0.0;        ///< GPUs added for an hour are paid from this long before it
  double scale_up_usd = 0.0;      ///< per month: what those lead times cost
  double monthly_usd = 0.0;       ///< (Σ hours + scale-up) × 730 / 24
  double peak_monthly_usd = 0.0;  ///< the peak's fleet all day (the strategy's monthly_usd)
  bool operator==(const AutoscaledCost&) const = default;
};

/// Money of one strategy.
struct StrategyCost {
  std::string strategy;
  std::vector<CostLine> lines;
  double hourly_usd = 0.0;
  double monthly_usd = 0.0;               ///< hourly × 730
  double annual_usd = 0.0;                ///< monthly × 12
  double three_year_usd = 0.0;            ///< monthly × 36
  double monthly_savings_usd = 0.0;       ///< baseline monthly − monthly
  double annual_savings_usd = 0.0;        ///< monthly savings × 12
  double savings_frac = 0.0;              ///< monthly savings / baseline monthly
  double cost_per_1k_requests_usd = 0.0;  ///< monthly / (requests per month / 1000)
  /// The equal-work figure: monthly / (requests served within SLA per month / 1000); 0 when none.
  double cost_per_1k_in_sla_usd = 0.0;
  double revenue_at_risk_usd = 0.0;    ///< business view, per month
  double net_monthly_value_usd = 0.0;  ///< monthly savings − revenue at risk
  std::vector<TenantCharge> chargeback;
  /// Under the spot option: what interruptions cost its tenants, and the spot/on-demand mix.
  std::optional<SpotExposure> spot;
  /// Sized for every hour of day (diurnal loads), on-demand or spot: the fleet scaled by the hour.
  std::optional<AutoscaledCost> autoscaled;
  bool operator==(const StrategyCost&) const = default;
};

/// Splits `monthly_usd` over tenants both ways, each in proportion to its weight (equally when no
/// tenant has any), so that either set of charges adds up to the whole cost, idle capacity
/// included: by reservation, the hourly price of the capacity reserved for each (capacity reserved
/// for nobody is thereby spread pro rata); by usage, the GPU work of its completed requests. The
/// in-use fields (monthly_usd, share_frac, cost per 1k requests) follow `model`.
std::vector<TenantCharge> chargeback(double monthly_usd, const std::vector<TenantUsage>& tenants,
                                     ChargebackModel model);

/// Fills the money figures of `cost` (whose `lines` are set) against the baseline's monthly cost,
/// tenants' usage under this strategy and under the baseline (same order), the business inputs,
/// and the chargeback model in use.
void settle(StrategyCost& cost, double baseline_monthly_usd, const std::vector<TenantUsage>& tenants,
            const std::vector<TenantUsage>& baseline_tenants, const BusinessInputs& business,
            ChargebackModel model = ChargebackModel::reservation);

}  // namespace slicewise::pricing
