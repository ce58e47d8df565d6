// The ROI report of a sweep: its headline over the points (where each strategy is recommended, what
// it saves and where it meets every SLA, like for like when the baseline's cost varies), in front of
// the detail of one point (see roi_report.hpp, add_sweep).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include "core/spell.hpp"
#include "report/roi_report.hpp"
#include "report/text_table.hpp"

namespace slicewise::report {

namespace {

using SweepRow = SweepSection::Row;

/// Where a point is, for a sentence: "users=8" on one axis; "p0003 (phi_users=4, deepseek_users=2)"
/// on several, where the commas would blur the sentence without the point's name.
std::string where(const SweepSection& sw, const SweepRow& row) {
  std::string values = axis_values(sw.axes, row.labels);
  if (sw.axes.size() == 1) return values;
  return values.empty() ? row.point : row.point + " (" + values + ")";
}

/// The rows that ran, in the order sentences read them: by the swept number when one numeric axis
/// is swept, else in sweep order.
std::vector<const SweepRow*> ordered_rows(const SweepSection& sw) {
  std::vector<const SweepRow*> rows;
  for (const auto& row : sw.rows) {
    if (!row.failed) rows.push_back(&row);
  }
  if (sw.axes.size() != 1) return rows;
  const auto numbers = sweep_axis_numbers(sw, 0);
  if (numbers.empty()) return rows;
  const auto number_of = [&](const SweepRow* row) { return numbers[static_cast<std::size_t>(row - sw.rows.data())]; };
  std::stable_sort(rows.begin(), rows.end(),
                   [&](const SweepRow* a, const SweepRow* b) { return number_of(a) < number_of(b); });
  return rows;
}

/// "users = 2 … 16" per axis ("model = a, b, c" when not numeric), joined with " and ".
std::string axes_range(const SweepSection& sw) {
  std::vector<std::string> parts;
  for (std::size_t a = 0; a < sw.axes.size(); ++a) {
    std::vector<std::string> distinct;
    for (const auto& row : sw.rows) {
      if (a < row.labels.size() && std::find(distinct.begin(), distinct.end(), row.labels[a]) == distinct.end())
        distinct.push_back(row.labels[a]);
    }
    const auto numbers = sweep_axis_numbers(sw, a);
    std::string range = join(distinct, ", ");
    if (!numbers.empty() && distinct.size() > 1) {
      const auto [low, high] = std::minmax_element(numbers.begin(), numbers.end());
      range = sw.rows[static_cast<std::size_t>(low - numbers.begin())].labels[a] + " … " +
              sw.rows[static_cast<std::size_t>(high - numbers.begin())].labels[a];
    } else if (distinct.size() > 4) {
      range = distinct.front() + " … " + distinct.back() + " (" + std::to_string(distinct.size()) + " values)";
    }
    parts.push_back(sw.axes[a] + " = " + range);
  }
  return join(parts, " and ");
}

/// "mig is recommended at 5 points, dedicated at 3; no strategy qualifies at 1".
std::string recommended_counts(const SweepSection& sw) {
  std::map<std::string, int> count;
  int none = 0;
  for (const auto& row : sw.rows) {
    if (row.failed) continue;
    if (row.recommended.empty()) ++none;
    else ++count[row.recommended];
  }
  std::vector<std::string> names;
  for (const auto& strategy : sw.strategies) {
    if (count.count(strategy)) names.push_back(strategy);
  }
  std::stable_sort(names.begin(), names.end(), [&](const auto& a, const auto& b) { return count[a] > count[b]; });
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const int n = count[names[i]];
    text += (i == 0 ? names[i] + " is recommended at " + plural(n, "point", "points")
                    : ", " + names[i] + " at " + std::to_string(n));
  }
  if (none > 0)
    text += (text.empty() ? "no strategy qualifies at " + plural(none, "point", "points")
                          : "; no strategy qualifies at " + std::to_string(none));
  return text;
}

/// "mig saves $15,067.20 at users=2 to $9,000.00 at users=16", or "" when the strategy has no saving.
std::string savings_clause(const SweepSection& sw, std::size_t s, const std::vector<const SweepRow*>& rows) {
  std::vector<const SweepRow*> priced;
  for (const auto* row : rows) {
    if (s < row->savings_usd.size() && std::isfinite(row->savings_usd[s])) priced.push_back(row);
  }
  if (priced.empty()) return "";
  const auto value = [&](const SweepRow* row) { return row->savings_usd[s]; };
  const auto [low, high] = std::minmax_element(
      priced.begin(), priced.end(), [&](const SweepRow* a, const SweepRow* b) { return value(a) < value(b); });
  const std::string& name = sw.strategies[s];
  if (value(*high) - value(*low) <= 0.005)
    return name + " saves " + format_usd(value(priced.front())) + " at every point";
  const SweepRow* first = priced.front();
  const SweepRow* last = priced.back();
  std::string text = value(*low) >= 0.0 ? name + " saves " : name + "'s monthly savings go from ";
  text += format_usd(value(first)) + " at " + where(sw, *first) + " to " + format_usd(value(last)) + " at " +
          where(sw, *last);
  if (value(*low) < std::min(value(first), value(last)) - 0.005 ||
      value(*high) > std::max(value(first), value(last)) + 0.005) {
    text += " (lowest " + format_usd(value(*low)) + " at " + where(sw, **low) + ", highest " +
            format_usd(value(*high)) + " at " + where(sw, **high) + ")";
  }
  return text;
}

/// Up to four places, then "…".
std::string some_places(const SweepSection& sw, const std::vector<const SweepRow*>& rows) {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < rows.size() && i < 4; ++i) parts.push_back(where(sw, *rows[i]));
  if (rows.size() > 4) parts.emplace_back("…");
  return join(parts, "; ");
}

/// Where `met` splits `rows` in two (all true then all false, or the reverse): the index of the
/// first row of the second run; 0 when it does not.
std::size_t one_change(const std::vector<bool>& met) {
  std::size_t changes = 0, at = 0;
  for (std::size_t i = 1; i < met.size(); ++i) {
    if (met[i] != met[i - 1]) ++changes, at = i;
  }
  return changes == 1 ? at : 0;
}

/// "meets every SLA up to users=12 (missed from users=14)", "meets every SLA at 3 of 8 points
/// (missed at ...)": where strategy `s` meets every tenant's SLA.
std::string sla_clause(const SweepSection& sw, std::size_t s, const std::vector<const SweepRow*>& rows) {
  std::vector<const SweepRow*> present;
  std::vector<bool> met;
  for (const auto* row : rows) {
    if (s < row->savings_usd.size() && std::isfinite(row->savings_usd[s])) {
      present.push_back(row);
      met.push_back(s < row->sla_met.size() && row->sla_met[s]);
    }
  }
  const auto n_met = static_cast<std::size_t>(std::count(met.begin(), met.end(), true));
  if (present.empty()) return "";
  if (n_met == present.size()) return "meets every SLA at every point";
  if (n_met == 0) return "misses an SLA at every point";
  const bool one_axis = sw.axes.size() == 1 && !sweep_axis_numbers(sw, 0).empty();
  if (const std::size_t at = one_change(met); one_axis && at > 0) {
    return met.front() ? "meets every SLA up to " + where(sw, *present[at - 1]) + " (missed from " +
                             where(sw, *present[at]) + ")"
                       : "misses an SLA up to " + where(sw, *present[at - 1]) + " and meets every SLA from " +
                             where(sw, *present[at]);
  }
  std::vector<const SweepRow*> missed;
  for (std::size_t i = 0; i < present.size(); ++i) {
    if (!met[i]) missed.push_back(present[i]);
  }
  return "meets every SLA at " + std::to_string(n_met) + " of " + std::to_string(present.size()) +
         " points (missed at " + some_places(sw, missed) + ")";
}

/// "From users=14 no strategy meets every SLA." / "At 2 points no strategy meets every SLA: ...", or "".
std::string no_strategy_text(const SweepSection& sw, const std::vector<const SweepRow*>& rows) {
  std::vector<bool> none;
  std::vector<const SweepRow*> where_none;
  for (const auto* row : rows) {
    const bool any = std::any_of(row->sla_met.begin(), row->sla_met.end(), [](bool met) { return met; });
    none.push_back(!any);
    if (!any) where_none.push_back(row);
  }
  if (where_none.empty()) return "";
  if (where_none.size() == rows.size()) return "No strategy meets every SLA at any point.";
  const bool one_axis = sw.axes.size() == 1 && !sweep_axis_numbers(sw, 0).empty();
  if (const std::size_t at = one_change(none); one_axis && at > 0 && none.back()) {
    return "From " + where(sw, *rows[at]) + " no strategy meets every SLA.";
  }
  return "At " + plural(static_cast<long>(where_none.size()), "point", "points") +
         " no strategy meets every SLA: " + some_places(sw, where_none) + ".";
}

/// Each shared strategy's savings and SLA over the sweep, joined: "mig saves ... and meets every
/// SLA up to users=12; mps saves ... and misses an SLA at every point."
std::vector<std::string> sweep_savings_sentences(const SweepSection& sw, const std::string& baseline,
                                                 const std::vector<const SweepRow*>& rows) {
  std::vector<std::string> clauses;
  for (std::size_t s = 0; s < sw.strategies.size(); ++s) {
    if (sw.strategies[s] == baseline) continue;  // saves nothing against itself
    const std::string savings = savings_clause(sw, s, rows);
    if (savings.empty()) continue;
    std::string clause = savings;
    // "mig's monthly savings go from ..." has no verb of mig's own: "and it misses ...".
    const bool possessive = savings.find("'s monthly savings go from") != std::string::npos;
    if (const std::string sla = sla_clause(sw, s, rows); !sla.empty())
      clause += (possessive ? ", and it " : " and ") + sla;
    clause += ".";
    clauses.push_back(std::move(clause));
  }
  return clauses;
}

/// The point and strategy of the cheapest configuration that meets every SLA; nullptr when none.
std::pair<const SweepRow*, std::size_t> cheapest_meeting(const SweepSection& sw,
                                                         const std::vector<const SweepRow*>& rows) {
  const SweepRow* best_row = nullptr;
  std::size_t best = 0;
  for (const auto* row : rows) {
    for (std::size_t s = 0; s < sw.strategies.size() && s < row->monthly_usd.size(); ++s) {
      const bool met = s < row->sla_met.size() && row->sla_met[s];
      if (!met || !std::isfinite(row->monthly_usd[s])) continue;
      if (!best_row || row->monthly_usd[s] < best_row->monthly_usd[best]) best_row = row, best = s;
    }
  }
  return {best_row, best};
}

/// When the baseline's own cost differs across the points (a sweep over GPU types, say), each
/// point's savings are against a different bill and do not compare: the baseline's range, and the
/// cheapest configuration meeting every SLA at any point, like for like by its monthly cost. ""
/// when every point's baseline costs the same.
std::string like_for_like_text(const SweepSection& sw, const std::string& baseline,
                               const std::vector<const SweepRow*>& rows) {
  const auto b =
      static_cast<std::size_t>(std::find(sw.strategies.begin(), sw.strategies.end(), baseline) - sw.strategies.begin());
  const SweepRow* low = nullptr;
  const SweepRow* high = nullptr;
  for (const auto* row : rows) {
    if (b >= row->monthly_usd.size() || !std::isfinite(row->monthly_usd[b])) continue;
    if (!low || row->monthly_usd[b] < low->monthly_usd[b]) low = row;
    if (!high || row->monthly_usd[b] > high->monthly_usd[b]) high = row;
  }
  if (!low || high->monthly_usd[b] - low->monthly_usd[b] <= 0.005) return "";
  const auto [best_row, best] = cheapest_meeting(sw, rows);
  std::string text = "Like for like: each point's savings are against its own " + baseline + ", which costs " +
                     format_usd(low->monthly_usd[b]) + " a month at " + where(sw, *low) + " and " +
                     format_usd(high->monthly_usd[b]) + " at " + where(sw, *high) +
                     ", so compare the points by cost, not by saving";
  if (best_row) {
    text += ": the cheapest that meets every SLA is " + sw.strategies[best] + " at " + where(sw, *best_row) + ", " +
            format_usd(best_row->monthly_usd[best]) + " a month, " +
            format_usd(low->monthly_usd[b] - best_row->monthly_usd[best]) + " less than the cheapest " + baseline;
  }
  return text + ".";
}

}  // namespace

std::string axis_values(const std::vector<std::string>& axes, const std::vector<std::string>& labels) {
  std::vector<std::string> parts;
  for (std::size_t a = 0; a < axes.size() && a < labels.size(); ++a) parts.push_back(axes[a] + "=" + labels[a]);
  return join(parts, ", ");
}

std::vector<double> sweep_axis_numbers(const SweepSection& sweep, std::size_t axis) {
  std::vector<double> numbers;
  for (const auto& row : sweep.rows) {
    if (axis >= row.labels.size()) return {};
    const std::string& label = row.labels[axis];
    if (label.empty() || std::isspace(static_cast<unsigned char>(label.front()))) return {};
    char* end = nullptr;
    const double value = std::strtod(label.c_str(), &end);
    if (end != label.c_str() + label.size() || !std::isfinite(value)) return {};
    numbers.push_back(value);
  }
  return numbers;
}

void add_sweep(RoiReport& r, SweepSection sweep) {
  const auto rows = ordered_rows(sweep);
  std::string detail = "point " + sweep.detail_point;
  for (const auto& row : sweep.rows) {
    if (row.point == sweep.detail_point)
      detail = "point " + sweep.detail_point + " (" + axis_values(sweep.axes, row.labels) + ")";
  }
  const long failed = static_cast<long>(sweep.rows.size() - rows.size());
  std::string across = "Across " + axes_range(sweep) + " (" +
                       plural(static_cast<long>(sweep.rows.size()), "point", "points") +
                       (failed > 0 ? ", " + std::to_string(failed) + " failed" : std::string()) + ")";
  const std::string counts = recommended_counts(sweep);
  r.recommendation =
      across + (counts.empty() ? "." : ": " + counts + ".") + " In detail below, " + detail + ": " + r.recommendation;
  r.sweep_savings = sweep_savings_sentences(sweep, r.costs.baseline, rows);
  const std::string like_for_like = like_for_like_text(sweep, r.costs.baseline, rows);
  r.savings = (like_for_like.empty() ? std::string() : like_for_like + " ") + "At " + detail + ": " + r.savings;
  const std::string none = no_strategy_text(sweep, rows);
  if (!r.sla_risk.empty()) r.sla_risk = "At " + detail + ": " + r.sla_risk;
  if (!none.empty()) r.sla_risk = r.sla_risk.empty() ? none : none + " " + r.sla_risk;
  r.title = "ROI report: sweep " + sweep.name;
  r.sweep = std::move(sweep);
}

}  // namespace slicewise::report
