// Fleet costing, savings, chargeback and the business view.
#include "pricing/roi.hpp"

#include <algorithm>
#include <cmath>

#include "core/units.hpp"

namespace slicewise::pricing {

std::optional<CostLine> cheapest_gpu_instances(const PriceTable& table, std::string_view gpu_id, int num_gpus,
                                               PurchaseOption option, std::string_view region,
                                               std::string_view instance_type, int min_gpus_per_instance) {
  std::optional<CostLine> best;
  for (const auto& row : table.instances) {
    if (row.num_gpus <= 0 || row.num_gpus < min_gpus_per_instance || row.gpu.value_or("") != gpu_id) continue;
    if (!region.empty() && row.region != region) continue;
    if (!instance_type.empty() && row.instance_type != instance_type) continue;
    const auto price = row.usd_per_hour(option);
    if (!price) continue;
    CostLine line;
    line.role = "gpu";
    line.instance_type = row.instance_type;
    line.region = row.region;
    line.count = num_gpus <= 0 ? 0 : (num_gpus + row.num_gpus - 1) / row.num_gpus;
    line.num_gpus = line.count * row.num_gpus;
    line.usd_per_hour_each = *price;
    line.monthly_usd = line.count * *price * kHoursPerMonth;
    const double hourly = line.count * *price;
    const double best_hourly = best ? best->count * best->usd_per_hour_each : 0.0;
    if (!best || hourly < best_hourly - 1e-12 ||
        (std::abs(hourly - best_hourly) <= 1e-12 && line.count < best->count)) {
      best = line;
    }
  }
  return best;
}

const std::vector<std::pair<std::string, ChargebackModel>>& chargeback_model_table() {
  static const std::vector<std::pair<std::string, ChargebackModel>> table = {
      {"reservation", ChargebackModel::reservation}, {"usage", ChargebackModel::usage}};
  return table;
}

std::string to_string(ChargebackModel model) {
  for (const auto& [name, value] : chargeback_model_table()) {
    if (value == model) return name;
  }
  return "reservation";
}

std::optional<ChargebackModel> chargeback_model_named(std::string_view name) {
  for (const auto& [text, model] : chargeback_model_table()) {
    if (text == name) return model;
  }
  return std::nullopt;
}

namespace {

/// Each weight over their sum; equal shares when they add up to nothing.
std::vector<double> shares_of(const std::vector<double>& weights) {
  double total = 0.0;
  for (const double w : weights) total += w;
  std::vector<double> shares;
  shares.reserve(weights.size());
  for (const double w : weights) shares.push_back(total > 0.0 ? w / total : 1.0 / static_cast<double>(weights.size()));
  return shares;
}

}  // namespace

std::vector<TenantCharge> chargeback(double monthly_usd, const std::vector<TenantUsage>& tenants,
                                     ChargebackModel model) {
  std::vector<double> reserved;
  std::vector<double> work;
  for (const auto& t : tenants) {
    reserved.push_back(t.reserved_usd_per_hour);
    work.push_back(t.gpu_work_s);
  }
  const auto by_reservation = shares_of(reserved);
  const auto by_usage = shares_of(work);
  std::vector<TenantCharge> out;
  for (std::size_t i = 0; i < tenants.size(); ++i) {
    const auto& t = tenants[i];
    TenantCharge charge;
    charge.name = t.name;
    charge.reservation_share_frac = by_reservation[i];
    charge.reservation_monthly_usd = monthly_usd * by_reservation[i];
    charge.usage_share_frac = by_usage[i];
    charge.usage_monthly_usd = monthly_usd * by_usage[i];
    charge.reserved_gpus = t.reserved_gpus;
    charge.reserved_usd_per_hour = t.reserved_usd_per_hour;
    charge.gpu_work_s = t.gpu_work_s;
    const bool reservation = model == ChargebackModel::reservation;
    charge.share_frac = reservation ? charge.reservation_share_frac : charge.usage_share_frac;
    charge.monthly_usd = reservation ? charge.reservation_monthly_usd : charge.usage_monthly_usd;
    const double requests_per_month = t.throughput_per_s * kHoursPerMonth * kSecondsPerHour;
    charge.cost_per_1k_requests_usd =
        requests_per_month > 0.0 ? charge.monthly_usd / (requests_per_month / 1000.0) : 0.0;
    out.push_back(std::move(charge));
  }
  return out;
}

void settle(StrategyCost& cost, double baseline_monthly_usd, const std::vector<TenantUsage>& tenants,
            const std::vector<TenantUsage>& baseline_tenants, const BusinessInputs& business, ChargebackModel model) {
  cost.hourly_usd = 0.0;
  for (const auto& line : cost.lines) cost.hourly_usd += line.count * line.usd_per_hour_each;
  cost.monthly_usd = cost.hourly_usd * kHoursPerMonth;
  cost.annual_usd = cost.monthly_usd * kMonthsPerYear;
  cost.three_year_usd = cost.monthly_usd * 3.0 * kMonthsPerYear;
  cost.monthly_savings_usd = baseline_monthly_usd - cost.monthly_usd;
  cost.annual_savings_usd = cost.monthly_savings_usd * kMonthsPerYear;
  cost.savings_frac = baseline_monthly_usd > 0.0 ? cost.monthly_savings_usd / baseline_monthly_usd : 0.0;
  double requests_per_s = 0.0;
  for (const auto& t : tenants) requests_per_s += t.throughput_per_s;
  const double requests_per_month = requests_per_s * kHoursPerMonth * kSecondsPerHour;
  cost.cost_per_1k_requests_usd = requests_per_month > 0.0 ? cost.monthly_usd / (requests_per_month / 1000.0) : 0.0;
  double in_sla_per_s = 0.0;
  for (const auto& t : tenants) in_sla_per_s += t.in_sla_per_s >= 0.0 ? t.in_sla_per_s : t.throughput_per_s;
  const double in_sla_per_month = in_sla_per_s * kHoursPerMonth * kSecondsPerHour;
  cost.cost_per_1k_in_sla_usd = in_sla_per_month > 0.0 ? cost.monthly_usd / (in_sla_per_month / 1000.0) : 0.0;
  cost.chargeback = chargeback(cost.monthly_usd, tenants, model);

  // Business view (docs/design.md): latency increase (ms) / 100 × abandonment × revenue, on the worst
  // added p95 over the revenue-bearing tenants.
  double added_s = 0.0;
  for (std::size_t i = 0; i < cost.chargeback.size() && i < baseline_tenants.size(); ++i) {
    cost.chargeback[i].added_p95_latency_s = tenants[i].p95_latency_s - baseline_tenants[i].p95_latency_s;
    if (tenants[i].revenue_bearing) added_s = std::max(added_s, cost.chargeback[i].added_p95_latency_s);
  }
  cost.revenue_at_risk_usd = std::min(1.0, added_s * kMsPerSecond / 100.0 * business.abandonment_per_100ms_frac) *
                             business.monthly_revenue_usd;
  cost.net_monthly_value_usd = cost.monthly_savings_usd - cost.revenue_at_risk_usd;
}

}  // namespace slicewise::pricing
