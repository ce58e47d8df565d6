// Spot exposure of a strategy's fleet.
#include "report/spot_exposure.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <set>

#include "core/json_reader.hpp"
#include "core/units.hpp"
#include "report/text_table.hpp"

namespace slicewise::report {

namespace {

/// One rented instance: its group and its interruption rate per month.
struct Instance {
  std::size_t group = 0;
  double per_month = 0.0;
};

/// A tenant's contexts, each as the set of instances it runs on (a tensor-parallel group: all of them).
struct TenantContexts {
  std::string name;
  std::vector<std::set<std::size_t>> contexts;
  double throughput_per_s = 0.0;
  double median_latency_s = 0.0;
  double mean_latency_s = 0.0;
  bool revenue_bearing = true;
};

std::vector<pricing::SpotTenant> exposure(const std::vector<TenantContexts>& tenants,
                                          const std::vector<double>& per_month, double outage_s, double notice_s) {
  std::vector<pricing::SpotTenant> out;
  for (const auto& t : tenants) {
    pricing::SpotTenant e;
    e.name = t.name;
    e.revenue_bearing = t.revenue_bearing;
    if (!t.contexts.empty()) {
      for (std::size_t i = 0; i < per_month.size(); ++i) {
        std::size_t on = 0;
        for (const auto& c : t.contexts) on += c.count(i);
        if (on == 0) continue;
        e.interruptions_per_month += per_month[i];
        if (on == t.contexts.size()) {
          e.outage_hours_per_month += per_month[i] * outage_s / kSecondsPerHour;
          e.delayed_requests_per_month += per_month[i] * t.throughput_per_s * outage_s;
        }
        // In flight on the instance (Little's law over its share of the contexts); lost when they
        // cannot finish within the notice.
        if (t.median_latency_s > notice_s) {
          e.resent_requests_per_month += per_month[i] * t.throughput_per_s * t.mean_latency_s *
                                         static_cast<double>(on) / static_cast<double>(t.contexts.size());
        }
      }
    }
    e.availability = 1.0 - e.outage_hours_per_month / kHoursPerMonth;
    out.push_back(std::move(e));
  }
  return out;
}

/// True when one of `t`'s contexts runs on instances of `kept` only.
bool holds_one(const TenantContexts& t, const std::set<std::size_t>& kept) {
  return std::any_of(t.contexts.begin(), t.contexts.end(), [&](const std::set<std::size_t>& c) {
    return std::includes(kept.begin(), kept.end(), c.begin(), c.end());
  });
}

/// The revenue-bearing tenants with contexts of which `kept` holds none.
std::vector<const TenantContexts*> uncovered(const std::vector<TenantContexts>& tenants,
                                             const std::set<std::size_t>& kept) {
  std::vector<const TenantContexts*> out;
  for (const auto& t : tenants) {
    if (t.revenue_bearing && !t.contexts.empty() && !holds_one(t, kept)) out.push_back(&t);
  }
  return out;
}

/// The instances to keep on-demand: greedily, the context that lets the most uncovered
/// revenue-bearing tenants keep one context off spot per instance it adds, until each has one.
std::set<std::size_t> mix_on_demand(const std::vector<TenantContexts>& tenants) {
  std::set<std::size_t> kept;
  for (auto left = uncovered(tenants, kept); !left.empty(); left = uncovered(tenants, kept)) {
    std::set<std::size_t> best;
    double best_score = -1.0;
    for (const auto* t : left) {
      for (const auto& c : t->contexts) {
        std::set<std::size_t> with = kept;
        with.insert(c.begin(), c.end());
        const auto added = static_cast<double>(with.size() - kept.size());
        const auto gained =
            std::count_if(left.begin(), left.end(), [&](const TenantContexts* u) { return holds_one(*u, with); });
        const double score = static_cast<double>(gained) / std::max(added, 0.5);
        if (score > best_score) {
          best_score = score;
          best = std::move(with);
        }
      }
    }
    kept = std::move(best);
  }
  return kept;
}

/// The fleet's instances in group order (a group's GPUs in use fill its instances in turn), with
/// the instance carrying each GPU in `of_gpu`, and each group's rate as text in `out`.
std::vector<Instance> rent_instances(const std::vector<InstanceGroup>& groups, const std::string& table,
                                     const pricing::SpotInterruptionTable& rates, std::map<int, std::size_t>& of_gpu,
                                     pricing::SpotExposure& out) {
  std::vector<Instance> instances;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto& group = groups[g];
    const auto rate = rates.rate(table, group.gpu);
    out.assumed = out.assumed || rate.assumed;
    const auto per = static_cast<std::size_t>(std::max(1, group.gpus_per_instance));
    for (std::size_t k = 0; k < group.gpus.size(); ++k) {
      if (k % per == 0) instances.push_back({g, rate.per_month});
      of_gpu[group.gpus[k]] = instances.size() - 1;
    }
    out.rates.push_back(group.gpu + " on " + group.instance_type + ": " + format_number(rate.per_month) +
                        " per instance a month (" +
                        (rate.assumed ? std::string("assumed: no published reading") : rate.source) + ")");
  }
  return instances;
}

/// Each tenant of `strategy` with its contexts as the instances they run on.
std::vector<TenantContexts> tenant_contexts(const scenario::StrategyResult& strategy,
                                            const scenario::Scenario& scenario,
                                            const std::map<int, std::size_t>& instance_of_gpu) {
  std::vector<TenantContexts> tenants;
  std::map<std::string, std::size_t> index;
  for (const auto& t : strategy.tenants) {
    index[t.name] = tenants.size();
    const auto* spec = scenario::find_tenant(scenario, t.name);
    tenants.push_back(
        {t.name, {}, t.throughput_per_s, t.latency_s.p50, t.latency_s.mean, !spec || scenario::revenue_bearing(*spec)});
  }
  std::map<std::string, std::set<std::size_t>> context_instances;
  for (const auto& device : strategy.devices) {
    for (const auto& context : device.contexts) {
      auto& set = context_instances[context];
      for (int g = device.gpu_index; g < device.gpu_index + device.gpu_count; ++g) {
        if (const auto it = instance_of_gpu.find(g); it != instance_of_gpu.end()) set.insert(it->second);
      }
    }
  }
  for (auto& [context, set] : context_instances) {
    if (const auto it = index.find(scenario::tenant_of_context(context)); it != index.end() && !set.empty()) {
      tenants[it->second].contexts.push_back(std::move(set));
    }
  }
  return tenants;
}

}  // namespace

double instance_ready_s(const scenario::Scenario& scenario, const pricing::SpotInterruptionTable& rates) {
  return rates.replacement_s +
         (scenario.faults ? scenario.faults->context_restart_s : scenario::FaultSpec{}.context_restart_s);
}

pricing::SpotExposure spot_exposure(const scenario::StrategyResult& strategy, const scenario::Scenario& scenario,
                                    const std::vector<InstanceGroup>& groups, const std::string& table,
                                    double monthly_usd, const pricing::SpotInterruptionTable& rates) {
  pricing::SpotExposure out;
  bool notice_assumed = false;
  out.notice_s = rates.notice_s(table, &notice_assumed);
  out.assumed = notice_assumed;
  out.outage_s = std::max(0.0, instance_ready_s(scenario, rates) - out.notice_s);

  std::map<int, std::size_t> instance_of_gpu;
  const auto instances = rent_instances(groups, table, rates, instance_of_gpu, out);
  out.num_instances = static_cast<int>(instances.size());
  std::vector<double> per_month;
  for (const auto& instance : instances) {
    per_month.push_back(instance.per_month);
    out.interruptions_per_month += instance.per_month;
  }
  const auto tenants = tenant_contexts(strategy, scenario, instance_of_gpu);
  out.tenants = exposure(tenants, per_month, out.outage_s, out.notice_s);

  // The mix: the instances holding one context of each revenue-bearing tenant on-demand.
  const auto kept = mix_on_demand(tenants);
  out.mix_on_demand_instances = static_cast<int>(kept.size());
  out.mix_priced = true;
  out.mix_monthly_usd = monthly_usd;
  for (const auto i : kept) {
    per_month[i] = 0.0;
    const auto& group = groups[instances[i].group];
    out.mix_priced = out.mix_priced && group.on_demand_usd_per_hour.has_value();
    out.mix_monthly_usd +=
        (group.on_demand_usd_per_hour.value_or(group.spot_usd_per_hour) - group.spot_usd_per_hour) * kHoursPerMonth;
  }
  out.mix_tenants = exposure(tenants, per_month, out.outage_s, out.notice_s);
  return out;
}

std::string spot_note(const pricing::SpotExposure& e) {
  std::string text = "on spot, " + format_fixed(e.interruptions_per_month, 2) +
                     " interruptions a month are expected over " + std::to_string(e.num_instances) +
                     (e.num_instances == 1 ? " instance" : " instances") + " (";
  for (std::size_t i = 0; i < e.rates.size(); ++i) text += (i ? "; " : "") + e.rates[i];
  text += "); each takes its instance's contexts down for about " + format_fixed(e.outage_s, 0) +
          " s (a replacement instance and the model's load, less the " + format_fixed(e.notice_s, 0) + " s notice)";
  const auto worst = std::min_element(
      e.tenants.begin(), e.tenants.end(),
      [](const pricing::SpotTenant& a, const pricing::SpotTenant& b) { return a.availability < b.availability; });
  if (worst != e.tenants.end() && worst->outage_hours_per_month > 0.0) {
    text += "; " + worst->name + " then has no context serving: availability " +
            format_percent(worst->availability, 4) + ", about " + format_fixed(worst->delayed_requests_per_month, 0) +
            " requests a month waiting far past their target";
  } else {
    text += "; every tenant keeps a context serving through one interruption";
  }
  double resent = 0.0;
  for (const auto& t : e.tenants) resent += t.resent_requests_per_month;
  if (resent > 0.0)
    text += ", and about " + format_fixed(resent, 0) + " requests a month longer than the notice lost and re-sent";
  const int revenue = static_cast<int>(std::count_if(e.tenants.begin(), e.tenants.end(),
                                                     [](const pricing::SpotTenant& t) { return t.revenue_bearing; }));
  if (revenue > 0 && e.mix_on_demand_instances == e.num_instances) {
    text +=
        ". Keeping each revenue-bearing tenant serving through an interruption takes every instance on-demand "
        "(each holds the only context of one): no spot/on-demand mix is cheaper";
  } else if (revenue > 0 && e.mix_on_demand_instances > 0) {
    text += ". A mix with " + std::to_string(e.mix_on_demand_instances) + " of " + std::to_string(e.num_instances) +
            " instances on-demand (one context of each revenue-bearing tenant) " +
            (e.mix_priced ? "costs $" + format_fixed(e.mix_monthly_usd, 2) + " a month" : "has no on-demand price") +
            " and keeps those tenants serving through an interruption";
  }
  return text + ".";
}

}  // namespace slicewise::report
