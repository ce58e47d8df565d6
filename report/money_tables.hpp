// Terminal tables of a CostReport: the per-strategy money table and the per-tenant chargeback.
#pragma once

#include <string>

#include "report/costing.hpp"

namespace slicewise::report {

/// Header line + per-strategy table (instances, $/hour, $/month, savings, $/1k requests).
std::string money_table_text(const CostReport& costs);
/// Per strategy and tenant under the model in use (named in the title): GPUs reserved, share of the
/// monthly cost, $/month, $/1k requests, added p95, then the other model's $/month.
std::string chargeback_table_text(const CostReport& costs);
/// Business view lines (only when a monthly revenue is set).
std::string business_text(const CostReport& costs, double monthly_revenue_usd, double abandonment_per_100ms_frac);

}  // namespace slicewise::report
