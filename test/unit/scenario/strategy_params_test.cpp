// The strategy parameters as strategy_params.cpp declares them: each key reads, writes, reports
// itself set and shows its value as declared; the reader enforces the declared range; every kind's
// example strategy is valid and survives a round trip through the writer.
#include <gtest/gtest.h>

#include <algorithm>

#include "scenario/strategies/policy.hpp"
#include "scenario/strategy_params.hpp"
#include "test/unit/scenario/scenario_test_util.hpp"

namespace slicewise::scenario {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

/// Reads `{key: value}` through the declaration; the diagnostics' text ("" when none).
template <class Owner>
std::string read_one(const ParamDecl<Owner>& param, const json& value, Owner& out) {
  const json object = {{param.key, value}};
  Diagnostics diagnostics;
  JsonReader r(object, "/strategies/0", diagnostics, "s.json");
  param.read(r, out);
  r.finish();
  return format_all(diagnostics);
}

/// Each declared key's example reads without complaint, is then set (unless it is the default),
/// writes back as the example and shows its value.
template <class Owner>
void expect_example_round_trips(const std::vector<ParamDecl<Owner>>& params) {
  for (const auto& param : params) {
    SCOPED_TRACE(param.key);
    Owner owner;
    const json example = json::parse(param.example);
    ASSERT_EQ(read_one(param, example, owner), "");
    const bool is_default = example.is_string() && example.get<std::string>() == param.default_text;
    EXPECT_EQ(param.is_set(owner), !is_default);
    if (is_default) continue;
    ordered_json out = ordered_json::object();
    param.write(out, owner);
    ASSERT_TRUE(out.contains(param.key));
    EXPECT_EQ(json(out[param.key]), example);
    EXPECT_FALSE(param.value_text(owner).empty());
    EXPECT_FALSE(param.is_set(Owner{})) << "a default-constructed owner has it set";
  }
}

TEST(StrategyParams, EveryExampleReadsWritesBackAndIsSet) {
  expect_example_round_trips(strategy_params());
  expect_example_round_trips(tenant_params());
}

TEST(StrategyParams, TheReaderEnforcesTheDeclaredRange) {
  for (const auto& param : strategy_params()) {
    if (param.type != ParamType::number || !param.range.min) continue;
    SCOPED_TRACE(param.key);
    StrategySpec spec;
    const double below = param.range.min_exclusive ? *param.range.min : *param.range.min - 1.0;
    EXPECT_NE(read_one(param, below, spec).find("/strategies/0/" + param.key), std::string::npos);
    if (param.range.max) {
      const double above = param.range.max_exclusive ? *param.range.max : *param.range.max + 1.0;
      EXPECT_NE(read_one(param, above, spec).find("must be"), std::string::npos);
    }
  }
  StrategySpec spec;
  const auto replicas = read_one(*strategy_param("replicas"), -1, spec);
  EXPECT_NE(replicas.find("/strategies/0/replicas: must be"), std::string::npos) << replicas;
}

TEST(StrategyParams, AllowedValuesInTheDocsNotation) {
  EXPECT_EQ(strategy_param("quantum_ms")->allowed(), "> 0");
  EXPECT_EQ(strategy_param("switch_cost_ms")->allowed(), "≥ 0");
  EXPECT_EQ(strategy_param("active_thread_pct")->allowed(), "(0, 100]");
  EXPECT_EQ(strategy_param("mps_daemon")->allowed(), "`device_plugin` | `own`");
  EXPECT_EQ(strategy_param("vgpu_scheduler")->allowed(),
            "`best_effort` | `equal_share` | `fixed_share`; `fixed_share` needs `replicas` ≥ 1");
  EXPECT_EQ(strategy_param("replicas")->allowed(), "≥ 0; mps: 0 or 2 to 48 (1 with `mps_daemon` `own`)");
  EXPECT_EQ(strategy_param("exact")->allowed(), "");
  EXPECT_EQ(strategy_param("quantum_ms")->label(), "Quantum (ms)");
  EXPECT_EQ(tenant_param("weight")->label(), "Weight");
  EXPECT_EQ(strategy_param("no_such_key"), nullptr);
}

TEST(StrategyParams, EveryKeyIsReadByAKindAndEveryKeyAKindReadsIsDeclared) {
  for (const auto& param : strategy_params()) EXPECT_FALSE(kinds_reading_strategy_key(param.key).empty()) << param.key;
  for (const auto& param : tenant_params()) EXPECT_FALSE(kinds_reading_tenant_key(param.key).empty()) << param.key;
  for (const auto* policy : strategy_policies()) {
    for (const auto& key : policy->strategy_keys()) EXPECT_NE(strategy_param(key), nullptr) << key;
    for (const auto& key : policy->tenant_keys()) EXPECT_NE(tenant_param(key), nullptr) << key;
  }
  EXPECT_EQ(kinds_reading_strategy_key("quantum_ms"),
            (std::vector{models::StrategyKind::time_slicing, models::StrategyKind::mig_time_slicing,
                         models::StrategyKind::hami}));
}

TEST(StrategyParams, AKeyAndItsAlternativesAreOneOf) {
  auto document = test::minimal_document();
  document["fleet"] = json::parse(R"([{"gpu": "H100-SXM-80GB", "count": 2}])");
  document["strategies"] = json::parse(R"([{"kind": "mig"}])");
  EXPECT_NE(test::parse_error(document).find("/strategies/0: missing required key \"layout\", \"layouts\" or "
                                             "\"layout_schedule\" (give exactly one)"),
            std::string::npos);
  document["strategies"] =
      json::parse(R"([{"kind": "mig", "layout": "7x1g.10gb", "layouts": ["7x1g.10gb", "7x1g.10gb"]}])");
  EXPECT_NE(test::parse_error(document).find("/strategies/0: give one of \"layout\", \"layouts\" or "
                                             "\"layout_schedule\", not several"),
            std::string::npos);
}

/// A scenario of two small tenants on two H100s with `strategy`.
json scenario_with(const ordered_json& strategy) {
  auto document = test::minimal_document();
  document["fleet"] = json::parse(R"([{"gpu": "H100-SXM-80GB", "count": 2}])");
  auto tenant = document["tenants"][0];
  tenant["name"] = "b";
  document["tenants"].push_back(tenant);
  document["strategies"] = json::array({json(strategy)});
  return document;
}

TEST(StrategyParams, EveryKindsExampleIsValidAndRoundTrips) {
  for (const auto* policy : strategy_policies()) {
    SCOPED_TRACE(models::to_string(policy->kind()));
    const auto strategy = example_strategy(policy->kind(), {"a", "b"});
    const json document = scenario_with(strategy);
    EXPECT_EQ(test::validate_error(document), "");
    const Scenario parsed = parse_scenario(document, "s.json");
    const StrategySpec& spec = parsed.strategies.front();
    // Every key the kind reads is set by the example, or is the default, or an alternative.
    for (const auto& key : policy->strategy_keys()) {
      const auto* param = strategy_param(key);
      if (strategy.contains(key) && json(strategy[key]) != json(param->default_text)) {
        EXPECT_TRUE(param->is_set(spec)) << key;
      }
    }
    ordered_json written = strategy_to_json(spec);
    const Scenario again = parse_scenario(scenario_with(written), "s.json");
    EXPECT_EQ(again.strategies.front(), spec);
  }
}

}  // namespace
}  // namespace slicewise::scenario
