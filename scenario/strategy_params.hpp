// The keys a strategy kind adds to the common ones, and the per-tenant settings of a strategy: each
// declared once, in strategy_params.cpp, with its type, range, default, unit, help text and an
// example. What the declaration drives:
//   - the reader and the writer (json_read_strategy.cpp, json_write.cpp) read and write it,
//   - validate_scenario reports it when set on a kind that does not read it,
//   - the GUI's strategy form and per-tenant table show it (label, placeholder, tooltip),
//   - `slicewise strategies` prints it, as a table, as docs/scenario-format.md's tables
//     (`--markdown`, checked by the test suite) and as a scenario that sets every key (`--example`,
//     validated by the tests and a seed of the scenario fuzzer).
// Which kinds read a key is the policies' answer (StrategyPolicy::strategy_keys(), tenant_keys()),
// so that a key several kinds share is declared once and a new kind lists the keys it reads.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/json_reader.hpp"
#include "models/strategy_kind.hpp"
#include "scenario/kind_keys.hpp"
#include "scenario/scenario.hpp"

namespace slicewise::scenario {

/// What a parameter's value is, in the JSON and the forms (type_name() in words).
enum class ParamType {
  count,            ///< an integer from the range (JSON number)
  number,           ///< a number from the range
  boolean,          ///< true or false
  choice,           ///< one of `choices` (JSON string)
  text,             ///< a non-empty string
  mig_profile,      ///< a MIG profile name (JSON string; the form offers the layout's profiles)
  mig_layout,       ///< a MIG layout string (the GUI's MIG editor edits it)
  layouts,          ///< an array of MIG layout strings
  layout_schedule,  ///< a layout schedule object (docs/scenario-format.md)
};

/// The JSON type of a ParamType, in words: "integer", "number", "boolean", "string", "array of
/// strings", "object".
std::string type_name(ParamType type);

/// One key of a StrategySpec (`Owner` = StrategySpec) or of a tenant's TenantStrategySettings.
template <class Owner>
struct ParamDecl {
  std::string key{};  ///< the JSON key
  ParamType type = ParamType::number;
  std::string title{};                 ///< a short name for forms ("Quantum"); the unit is added to it
  std::string unit{};                  ///< "ms", "%", "GiB"; "" for none
  NumberRange range{};                 ///< counts and numbers
  std::vector<std::string> choices{};  ///< a choice's names, in order
  std::string default_text{};          ///< what leaving it unset means ("0: no limit", "calibrated")
  std::string allowed_note{};          ///< what is allowed beyond its type and range; "" for nothing more
  std::string help{};                  ///< what it means: one paragraph; `code` spans are its only markup
  std::string example{};               ///< a valid value, as JSON (`slicewise strategies --example`)
  /// Keys given instead of this one: exactly one of it and them must be set (`layout`).
  std::vector<std::string> alternatives{};

  std::function<void(JsonReader&, Owner&)> read{};                     ///< reads the key (present or not)
  std::function<void(nlohmann::ordered_json&, const Owner&)> write{};  ///< writes it where it is written
  std::function<bool(const Owner&)> is_set{};                          ///< set away from its default
  std::function<std::string(const Owner&)> value_text{};               ///< its value as a line shows it

  /// The form's label: the title and its unit ("Quantum (ms)").
  std::string label() const { return unit.empty() ? title : title + " (" + unit + ")"; }
  /// What is allowed, in words: the range or choices, then the note ("(0, 100]", "`pack` | `spread`").
  std::string allowed() const;
};

using StrategyParam = ParamDecl<StrategySpec>;
using TenantParam = ParamDecl<TenantStrategySettings>;

/// Every kind-specific StrategySpec key, in the order the writer writes them.
const std::vector<StrategyParam>& strategy_params();
/// Every TenantStrategySettings key, in the order the writer writes them.
const std::vector<TenantParam>& tenant_params();

/// The declaration of strategy key `key`; null when there is none.
const StrategyParam* strategy_param(std::string_view key);
/// The declaration of per-tenant key `key`; null when there is none.
const TenantParam* tenant_param(std::string_view key);

/// Each strategy key, with the kinds that read it (for kind_keys.hpp's uses() and kinds_using()).
const KeyKinds<models::StrategyKind>& strategy_keys();
/// Each per-tenant key, with the kinds that read it.
const KeyKinds<models::StrategyKind>& tenant_setting_keys();

/// The kinds whose policies read strategy key `key`, in registry order.
std::vector<models::StrategyKind> kinds_reading_strategy_key(std::string_view key);
/// The kinds whose policies read per-tenant key `key`, in registry order.
std::vector<models::StrategyKind> kinds_reading_tenant_key(std::string_view key);

/// A strategy of `kind` with every key it reads set to its declared example (of a key and its
/// alternatives, the key), and a "tenants" entry for each of `tenants` with every per-tenant key it
/// reads (none when it reads none). The layout schedule's example names tenants "a" and "b".
nlohmann::ordered_json example_strategy(models::StrategyKind kind, const std::vector<std::string>& tenants);

/// `help` as plain text: the backticks of its code spans dropped (tooltips, terminals).
std::string plain_help(const std::string& help);

}  // namespace slicewise::scenario
