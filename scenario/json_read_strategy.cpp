// Reading one strategy: its kind and name, the keys of that kind and the per-tenant settings (as
// strategy_params.cpp declares them) and the CPU-only sidecar instances.
#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/json_reader.hpp"
#include "models/strategy_kind.hpp"
#include "scenario/enum_tables.hpp"
#include "scenario/json_read_fields.hpp"
#include "scenario/json_read_sections.hpp"
#include "scenario/kind_keys.hpp"
#include "scenario/strategy_params.hpp"

namespace slicewise::scenario::detail {

using models::StrategyKind;
using nlohmann::json;

namespace {

StrategyKind strategy_kind_of(JsonReader& r, bool& known) {
  const std::size_t before = r.diagnostics().size();
  const auto kind = r.required_enum("kind", models::strategy_kind_table());
  known = r.diagnostics().size() == before && r.valid();
  return kind;
}

/// Exactly one of `param` and its alternatives.
template <class Owner>
void one_of(JsonReader& r, const ParamDecl<Owner>& param) {
  std::vector<std::string> keys = {param.key};
  keys.insert(keys.end(), param.alternatives.begin(), param.alternatives.end());
  const auto given = std::count_if(keys.begin(), keys.end(), [&](const std::string& key) { return r.has(key); });
  if (given == 1) return;
  std::string names;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    names += (i == 0 ? "" : i + 1 == keys.size() ? " or " : ", ") + ("\"" + keys[i] + "\"");
  }
  r.error_here(given > 1 ? "give one of " + names + ", not several"
                         : "missing required key " + names + " (give exactly one)");
}

/// Reads each declared key `kind` uses; with `known` false (the kind was invalid) none. A key with
/// alternatives (`layout`) must come with exactly one of them.
template <class Owner>
void read_params(JsonReader& r, const std::vector<ParamDecl<Owner>>& params, const KeyKinds<StrategyKind>& table,
                 StrategyKind kind, bool known, Owner& out) {
  if (!known) return;
  for (const auto& param : params) {
    if (!uses(table, param.key, kind)) continue;
    if (!param.alternatives.empty() && r.valid()) one_of(r, param);
    param.read(r, out);
  }
}

/// One entry of the strategy's "tenants" object: the settings of the tenant named by its key.
TenantStrategySettings read_setting(JsonReader& parent, const json& value, const std::string& pointer,
                                    StrategyKind kind, bool known) {
  JsonReader r(value, pointer, parent.diagnostics(), parent.file());
  TenantStrategySettings t;
  reject_foreign_keys(r, value, tenant_setting_keys(), kind, known, models::strategy_kind_table(), "strategy kind");
  read_params(r, tenant_params(), tenant_setting_keys(), kind, known, t);
  r.finish();
  return t;
}

void read_tenant_settings(JsonReader& r, StrategySpec& s, bool known) {
  const json* tenants = r.optional_object("tenants");
  if (!tenants) return;
  for (const auto& [name, settings] : tenants->items()) {
    s.tenants[name] = read_setting(r, settings, r.pointer("tenants") + "/" + json_pointer_token(name), s.kind, known);
  }
}

void read_sidecars(JsonReader& r, StrategySpec& s) {
  const json* sidecars = r.optional_array("sidecars");
  if (!sidecars) return;
  for (std::size_t i = 0; i < sidecars->size(); ++i) {
    JsonReader c((*sidecars)[i], element_pointer(r.pointer("sidecars"), i), r.diagnostics(), r.file());
    Sidecar sidecar;
    sidecar.instance_type = nonempty_string(c, "instance_type", true);
    sidecar.count = read_count(c, "count", 1);
    c.finish();
    s.sidecars.push_back(std::move(sidecar));
  }
}

}  // namespace

StrategySpec read_strategy(const json& value, const std::string& pointer, Diagnostics& out, const std::string& file) {
  JsonReader r(value, pointer, out, file);
  StrategySpec s;
  bool known = false;
  s.kind = strategy_kind_of(r, known);
  // An invalid kind gets no default name, so that it cannot clash with another strategy's.
  s.name = r.has("name") ? read_name(r, "name", false) : known ? models::to_string(s.kind) : "";
  s.placement = r.optional_enum("placement", PlacementPolicy::pack, placement_policy_table());
  s.sizing = r.optional_enum("sizing", Sizing::as_given, sizing_table());
  reject_foreign_keys(r, value, strategy_keys(), s.kind, known, models::strategy_kind_table(), "strategy kind");
  read_params(r, strategy_params(), strategy_keys(), s.kind, known, s);
  read_tenant_settings(r, s, known);
  read_sidecars(r, s);
  r.finish();
  return s;
}

}  // namespace slicewise::scenario::detail
