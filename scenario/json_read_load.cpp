// Reading a tenant's load: the kind, then the keys of that kind (poisson, closed_loop, trace,
// diurnal, mmpp) and the rate multiplier.
#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/json_reader.hpp"
#include "scenario/enum_tables.hpp"
#include "scenario/json_read_fields.hpp"
#include "scenario/json_read_sections.hpp"
#include "scenario/kind_keys.hpp"
#include "traces/trace_source.hpp"

namespace slicewise::scenario::detail {

using nlohmann::json;

namespace {

constexpr std::size_t kHoursPerDay = 24;  // entries of a diurnal hourly_profile

/// An array of exactly `size` numbers in `range`; a wrong element is reported at its own pointer
/// and left out.
std::vector<double> read_numbers(JsonReader& r, std::string_view key, std::size_t size, const NumberRange& range) {
  std::vector<double> values;
  const json* array = r.required_array(key);
  if (array == nullptr) return values;
  if (array->size() != size) {
    r.error(key, "expected " + std::to_string(size) + " numbers (got " + std::to_string(array->size()) + ")");
    return values;
  }
  for (std::size_t i = 0; i < array->size(); ++i) {
    const auto& v = (*array)[i];
    const std::string at = element_pointer(r.pointer(key), i);
    if (!v.is_number()) {
      r.diagnostics().push_back({r.file(), 0, 0, at, "expected a number (got " + v.dump() + ")"});
    } else if (const auto problem = range.violation(v.get<double>()); !problem.empty()) {
      r.diagnostics().push_back({r.file(), 0, 0, at, problem + " (got " + format_number(v.get<double>()) + ")"});
    } else {
      values.push_back(v.get<double>());
    }
  }
  return values;
}

void read_closed_loop(JsonReader& r, LoadSpec& l) {
  l.num_users = read_count(r, "num_users", std::nullopt);
  l.think_time_s = r.optional_number("think_time_s", 0.0, NumberRange::non_negative());
}

/// split_column and split_values: which rows of a shared trace this tenant takes.
void read_trace_split(JsonReader& r, LoadSpec& l) {
  l.split_column = nonempty_string(r, "split_column", false);
  if (const json* values = r.optional_array("split_values")) {
    for (std::size_t i = 0; i < values->size(); ++i) {
      if (!(*values)[i].is_string()) {
        r.error("split_values", "element " + std::to_string(i) + " must be a string (got " + (*values)[i].dump() + ")");
      } else {
        l.split_values.push_back((*values)[i].get<std::string>());
      }
    }
  }
  if (!l.split_column.empty() && l.split_values.empty()) {
    r.error("split_values", "give the values of \"" + l.split_column + "\" this tenant takes (a non-empty array)");
  } else if (l.split_column.empty() && r.has("split_values")) {
    r.error("split_values", "needs \"split_column\"");
  }
}

/// window_start_s and window_end_s: the span of trace time replayed.
void read_trace_window(JsonReader& r, LoadSpec& l) {
  l.window_start_s = r.optional_number("window_start_s", 0.0, NumberRange::non_negative());
  l.window_end_s = r.maybe_number("window_end_s", NumberRange::positive());
  if (l.window_end_s && *l.window_end_s <= l.window_start_s) {
    r.error("window_end_s", "must be > window_start_s (got " + format_number(*l.window_end_s) + "; window_start_s is " +
                                format_number(l.window_start_s) + ")");
  }
}

void read_trace_load(JsonReader& r, LoadSpec& l) {
  l.trace_file = nonempty_string(r, "trace_file", true);
  l.trace_format = r.has("trace_format")
                       ? name_of(trace_format_table(), r.required_enum("trace_format", trace_format_table()))
                       : std::string();
  read_trace_split(r, l);
  read_trace_window(r, l);
  l.time_compression = r.optional_number("time_compression", 1.0, NumberRange::positive());
  l.sample_frac = r.optional_number("sample_frac", 1.0, NumberRange::positive_fraction());
  l.spread_ties = r.optional_bool("spread_ties", false);
  l.gpu_frac_demand = r.optional_bool("gpu_frac_demand", false);
  l.on_bad_row = r.optional_enum("on_bad_row", BadRowPolicy::fail, bad_row_policy_table());
}

/// A complete hourly profile needs an hour with a rate > 0 and a positive, finite mean (the
/// profile is normalised to mean 1).
void check_hourly_profile(JsonReader& r, const std::vector<double>& profile) {
  if (profile.size() != kHoursPerDay) return;
  if (*std::max_element(profile.begin(), profile.end()) <= 0.0) {
    r.error("hourly_profile", "needs at least one hour with a rate > 0");
    return;
  }
  double sum = 0.0;
  for (double x : profile) sum += x;
  if (!std::isfinite(sum) || !(sum / 24.0 > 0.0)) {
    r.error("hourly_profile", "the mean of the 24 relative rates must be a positive finite number (got " +
                                  format_number(sum / 24.0) + "); scale them towards 1");
  }
}

void read_diurnal(JsonReader& r, LoadSpec& l) {
  l.rate_per_s = r.required_number("rate_per_s", NumberRange::positive());
  l.hourly_profile = read_numbers(r, "hourly_profile", kHoursPerDay, NumberRange::non_negative());
  check_hourly_profile(r, l.hourly_profile);
  l.start_hour = r.optional_number("start_hour", 0.0, NumberRange{0.0, false, 24.0, true});
}

MmppStateSpec read_mmpp_state(JsonReader& parent, const json& value, const std::string& pointer) {
  JsonReader st(value, pointer, parent.diagnostics(), parent.file());
  MmppStateSpec spec;
  spec.rate_per_s = st.required_number("rate_per_s", NumberRange::non_negative());
  spec.mean_duration_s = st.required_number("mean_duration_s", NumberRange::positive());
  st.finish();
  return spec;
}

/// At least two states, at least one of which has arrivals.
void read_mmpp(JsonReader& r, LoadSpec& l) {
  const json* states = r.required_array("states");
  if (!states) return;
  if (states->size() < 2) {
    r.error("states", "an MMPP needs at least two states (got " + std::to_string(states->size()) + ")");
  }
  for (std::size_t i = 0; i < states->size(); ++i) {
    l.states.push_back(read_mmpp_state(r, (*states)[i], element_pointer(r.pointer("states"), i)));
  }
  const bool all_zero = std::all_of(states->begin(), states->end(), [](const json& st) {
    return st.is_object() && st.contains("rate_per_s") && st["rate_per_s"].is_number() &&
           st["rate_per_s"].get<double>() == 0.0;
  });
  if (states->size() >= 2 && all_zero) {
    r.error("states", "needs at least one state with a rate_per_s > 0 (every state has 0)");
  }
}

/// The keys of the load's (valid) kind.
void read_kind_fields(JsonReader& r, LoadSpec& l) {
  switch (l.kind) {
    case LoadKind::poisson: l.rate_per_s = r.required_number("rate_per_s", NumberRange::positive()); break;
    case LoadKind::closed_loop: read_closed_loop(r, l); break;
    case LoadKind::trace: read_trace_load(r, l); break;
    case LoadKind::diurnal: read_diurnal(r, l); break;
    case LoadKind::mmpp: read_mmpp(r, l); break;
  }
}

/// On a trace each row arrives about `multiplier` times: bounded so that the copies of a row stay
/// countable (the expected requests of generated loads are bounded by validate).
void read_multiplier(JsonReader& r, LoadSpec& l) {
  l.multiplier = r.optional_number(
      "multiplier", 1.0,
      l.kind == LoadKind::trace ? NumberRange{0.0, true, traces::kMaxTraceMultiplier, false} : NumberRange::positive());
}

}  // namespace

LoadSpec read_load(const json& value, const std::string& pointer, Diagnostics& out, const std::string& file,
                   bool& kind_known) {
  JsonReader r(value, pointer, out, file);
  LoadSpec l;
  const std::size_t before = out.size();
  l.kind = r.required_enum("kind", load_kind_table());
  kind_known = out.size() == before && r.valid();
  reject_foreign_keys(r, value, load_keys(), l.kind, kind_known, load_kind_table(), "load kind");
  if (kind_known) {
    read_kind_fields(r, l);
    if (uses(load_keys(), "multiplier", l.kind)) read_multiplier(r, l);
  }
  r.finish();
  return l;
}

}  // namespace slicewise::scenario::detail
