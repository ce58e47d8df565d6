// Price table JSON: the strict reader's whole messages, and to_json round trips. Documents are
// parsed with core's parse_json_text, as the loader does.
// GCC 12 reports -Warray-bounds false positives inside std::map when json members are assigned
// strings under JSON_DIAGNOSTICS (GCC bug 105651; the ci preset turns the warning off globally).
#pragma GCC diagnostic ignored "-Warray-bounds"
#include "pricing/json_io.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/json_file.hpp"

namespace slicewise::pricing {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

const std::vector<std::string> kGpuIds = {"T4", "L4", "L40S", "A100-40GB", "A100-80GB", "H100-SXM-80GB"};

/// A valid two-row table: the seed's GPU instance and its CPU sidecar.
json good() {
  return parse_json_text(R"({
    "schema_version": 1, "name": "mine", "currency": "USD", "source": "test", "as_of": "2026-11-22",
    "instances": [
      {"instance_type": "g6e.2xlarge", "region": "us-east-1", "gpu": "L40S", "num_gpus": 1,
       "on_demand_usd_per_hour": 2.24208},
      {"instance_type": "t3.large", "region": "us-east-1", "num_gpus": 0, "on_demand_usd_per_hour": 0.0832}
    ]})",
                         "t.json");
}

/// what() of the ConfigError that reading `document` as "t.json" throws, or "" when it reads.
std::string parse_error(const json& document, const std::vector<std::string>& gpu_ids = kGpuIds) {
  try {
    parse_price_table(document, "t.json", gpu_ids);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(PriceTableJson, ReadsAValidTable) {
  const PriceTable table = parse_price_table(good(), "t.json", kGpuIds);
  EXPECT_EQ(table.name, "mine");
  EXPECT_EQ(table.currency, "USD");
  ASSERT_EQ(table.instances.size(), 2u);
  EXPECT_EQ(table.instances[0].gpu, "L40S");
  EXPECT_EQ(table.instances[0].on_demand_usd_per_hour, 2.24208);
  EXPECT_EQ(table.instances[0].num_vcpus, std::nullopt);
  EXPECT_EQ(table.instances[1].gpu, std::nullopt);
  EXPECT_EQ(table.instances[1].num_gpus, 0);
}

TEST(PriceTableJson, MissingCurrency) {
  json doc = good();
  doc.erase("currency");
  EXPECT_EQ(parse_error(doc), "t.json: /: missing required key \"currency\"");
}

TEST(PriceTableJson, CurrencyMustBeAnIsoCode) {
  json doc = good();
  doc["currency"] = "US$";
  EXPECT_EQ(parse_error(doc), "t.json: /currency: expected a 3-letter ISO 4217 code such as \"USD\" (got \"US$\")");
  doc["currency"] = "";
  EXPECT_EQ(parse_error(doc), "t.json: /currency: expected a 3-letter ISO 4217 code such as \"USD\" (got \"\")");
}

TEST(PriceTableJson, HeaderFields) {
  json doc = good();
  doc["schema_version"] = 2;
  doc["name"] = "";
  doc["as_of"] = "Nov 2026";
  doc.erase("source");
  EXPECT_EQ(parse_error(doc),
            "t.json: /schema_version: unsupported schema version (got 2; supported: 1)\n"
            "t.json: /name: must not be empty\n"
            "t.json: /: missing required key \"source\"\n"
            "t.json: /as_of: expected a date YYYY-MM or YYYY-MM-DD (got \"Nov 2026\")");
  doc = good();
  doc.erase("schema_version");
  EXPECT_EQ(parse_error(doc), "t.json: /: missing required key \"schema_version\" (this slicewise reads version 1)");
}

TEST(PriceTableJson, NegativeAndZeroPrices) {
  json doc = good();
  doc["instances"][0]["spot_usd_per_hour"] = -0.5;
  doc["instances"][0]["reserved_1y_usd_per_hour"] = 0;  // a free option would make every strategy cost 0
  doc["instances"][1]["on_demand_usd_per_hour"] = 0;
  EXPECT_EQ(parse_error(doc),
            "t.json: /instances/0/spot_usd_per_hour: must be > 0 (got -0.5)\n"
            "t.json: /instances/0/reserved_1y_usd_per_hour: must be > 0 (got 0)\n"
            "t.json: /instances/1/on_demand_usd_per_hour: must be > 0 (got 0)");
}

TEST(PriceTableJson, AsOfMustBeARealMonthOrDay) {
  json doc = good();
  doc["as_of"] = "2026-02-30";
  EXPECT_EQ(parse_error(doc), "t.json: /as_of: expected a date YYYY-MM or YYYY-MM-DD (got \"2026-02-30\")");
  doc["as_of"] = "2026-13";
  EXPECT_EQ(parse_error(doc), "t.json: /as_of: expected a date YYYY-MM or YYYY-MM-DD (got \"2026-13\")");
  EXPECT_TRUE(is_price_date("2024-02-29"));
  EXPECT_FALSE(is_price_date("2023-02-29"));
  EXPECT_TRUE(is_price_date("2024-08"));
}

TEST(PriceTableJson, UnknownGpuWithSuggestion) {
  json doc = good();
  doc["instances"][0]["gpu"] = "A100-80G";
  EXPECT_EQ(parse_error(doc), "t.json: /instances/0/gpu: unknown GPU \"A100-80G\" (did you mean \"A100-80GB\"?)");
  doc["instances"][0]["gpu"] = "Z9000";
  EXPECT_EQ(parse_error(doc),
            "t.json: /instances/0/gpu: unknown GPU \"Z9000\"; run \"slicewise gpus\" to list the known ones");
  EXPECT_EQ(parse_error(doc, {}), "");  // no list given: any id is taken
}

TEST(PriceTableJson, GpuRequiredExactlyWhenTheInstanceHasGpus) {
  json doc = good();
  doc["instances"][0].erase("gpu");
  doc["instances"][1]["gpu"] = "T4";
  EXPECT_EQ(parse_error(doc),
            "t.json: /instances/0: missing required key \"gpu\" (num_gpus is 1)\n"
            "t.json: /instances/1/gpu: given for an instance with num_gpus 0 (leave it out for CPU-only instances)");
}

TEST(PriceTableJson, DuplicateRowIsRejectedButOtherRegionsAreNot) {
  json doc = good();
  doc["instances"].push_back(doc["instances"][1]);
  doc["instances"][2]["region"] = "us-west-2";
  EXPECT_EQ(parse_error(doc), "");
  doc["instances"].push_back(doc["instances"][1]);
  EXPECT_EQ(parse_error(doc), "t.json: /instances/3: duplicate row for t3.large in us-east-1 (first at /instances/1)");
}

TEST(PriceTableJson, UnknownKeys) {
  json doc = good();
  doc["instances"][1]["on_demand_usd_per_hr"] = doc["instances"][1]["on_demand_usd_per_hour"];
  doc["instances"][1].erase("on_demand_usd_per_hour");
  doc["currencies"] = "USD";
  EXPECT_EQ(parse_error(doc),
            "t.json: /instances/1: missing required key \"on_demand_usd_per_hour\"\n"
            "t.json: /instances/1/on_demand_usd_per_hr: unknown key (did you mean \"on_demand_usd_per_hour\"?)\n"
            "t.json: /currencies: unknown key (did you mean \"currency\"?)");
}

TEST(PriceTableJson, WrongTypes) {
  json doc = good();
  doc["instances"][0]["num_gpus"] = "1";
  doc["instances"][0]["memory_gib"] = "64 GiB";
  doc["instances"][0]["num_vcpus"] = 7.5;
  doc["instances"][1]["region"] = 1;
  EXPECT_EQ(parse_error(doc),
            "t.json: /instances/0/num_gpus: expected integer (got \"1\")\n"
            "t.json: /instances/0/num_vcpus: expected integer (got 7.5)\n"
            "t.json: /instances/0/memory_gib: expected number (got \"64 GiB\")\n"
            "t.json: /instances/1/region: expected string (got 1)");
  doc = good();
  doc["instances"] = {{"a", 1}};
  EXPECT_EQ(parse_error(doc), "t.json: /instances: expected array (got {\"a\":1})");
  doc["instances"] = json::array({3});
  EXPECT_EQ(parse_error(doc), "t.json: /instances/0: expected object (got 3)");
}

TEST(PriceTableJson, EmptyNamesAndOutOfRangeCounts) {
  json doc = good();
  doc["instances"][0]["instance_type"] = "";
  doc["instances"][0]["region"] = "";
  doc["instances"][1]["num_gpus"] = -1;
  doc["instances"][1]["num_vcpus"] = 0;
  EXPECT_EQ(parse_error(doc),
            "t.json: /instances/0/instance_type: must not be empty\n"
            "t.json: /instances/0/region: must not be empty\n"
            "t.json: /instances/1/num_gpus: must be >= 0 (got -1)\n"
            "t.json: /instances/1/num_vcpus: must be >= 1 (got 0)");
  doc = good();
  doc["instances"][0]["num_gpus"] = 1e30;
  EXPECT_EQ(parse_error(doc), "t.json: /instances/0/num_gpus: must be <= 1000000 (got 1e+30)");
}

/// good() with spot and reserved prices, and their own provenance, on the GPU row.
json with_option_provenance() {
  json doc = good();
  json& row = doc["instances"][0];
  row["spot_usd_per_hour"] = 0.97975;
  row["reserved_1y_usd_per_hour"] = 1.41251;
  row["reserved_3y_usd_per_hour"] = 0.96858;
  row["source"] = "catalog";
  row["as_of"] = "retrieved 2026-11-22";  // a row's own as_of is free text
  row["spot_source"] = "snapshot A";
  row["spot_as_of"] = "2025-11-30";
  row["reserved_source"] = "snapshot B";
  row["reserved_as_of"] = "2025-11";
  return doc;
}

TEST(PriceTableJson, ReadsSpotAndReservedProvenance) {
  const PriceTable table = parse_price_table(with_option_provenance(), "t.json", kGpuIds);
  const InstancePrice& row = table.instances[0];
  EXPECT_EQ(row.spot_source, "snapshot A");
  EXPECT_EQ(row.spot_as_of, "2025-11-30");
  EXPECT_EQ(row.reserved_source, "snapshot B");
  EXPECT_EQ(row.reserved_as_of, "2025-11");
  EXPECT_EQ(table.instances[1].spot_source, "");  // absent
  EXPECT_EQ(table.instances[1].reserved_as_of, "");
  // Written after the row's own source and date, and read back unchanged.
  EXPECT_EQ(ordered_json(row).dump(),
            R"({"instance_type":"g6e.2xlarge","region":"us-east-1","gpu":"L40S","num_gpus":1,)"
            R"("on_demand_usd_per_hour":2.24208,"spot_usd_per_hour":0.97975,"reserved_1y_usd_per_hour":1.41251,)"
            R"("reserved_3y_usd_per_hour":0.96858,"source":"catalog","as_of":"retrieved 2026-11-22",)"
            R"("spot_source":"snapshot A","spot_as_of":"2025-11-30","reserved_source":"snapshot B",)"
            R"("reserved_as_of":"2025-11"})");
  const json written = parse_json_text(ordered_json(table).dump(), "t.json");
  EXPECT_EQ(parse_price_table(written, "t.json", kGpuIds), table);
}

TEST(PriceTableJson, ReservedProvenanceNeedsOnlyOneTerm) {
  json doc = with_option_provenance();
  doc["instances"][0].erase("reserved_1y_usd_per_hour");  // e.g. a 1-year Standard term not offered
  EXPECT_EQ(parse_error(doc), "");
}

TEST(PriceTableJson, BadSpotAndReservedProvenance) {
  json doc = with_option_provenance();
  doc["instances"][0]["spot_source"] = "";
  doc["instances"][0]["spot_as_of"] = 20251130;
  doc["instances"][0]["reserved_source"] = "";
  doc["instances"][0]["reserved_as_of"] = "2025-13-40";
  EXPECT_EQ(parse_error(doc),
            "t.json: /instances/0/spot_source: must not be empty\n"
            "t.json: /instances/0/spot_as_of: expected string (got 20251130)\n"
            "t.json: /instances/0/reserved_source: must not be empty\n"
            "t.json: /instances/0/reserved_as_of: expected a date YYYY-MM or YYYY-MM-DD (got \"2025-13-40\")");
  doc = with_option_provenance();
  doc["instances"][0]["spot_as_of"] = "Nov 2025";
  doc["instances"][0]["reserved_as_of"] = "2025-02-29";
  EXPECT_EQ(parse_error(doc),
            "t.json: /instances/0/spot_as_of: expected a date YYYY-MM or YYYY-MM-DD (got \"Nov 2025\")\n"
            "t.json: /instances/0/reserved_as_of: expected a date YYYY-MM or YYYY-MM-DD (got \"2025-02-29\")");
}

TEST(PriceTableJson, ProvenanceWithoutItsPriceIsRejected) {
  json doc = good();
  doc["instances"][1]["spot_source"] = "snapshot A";
  doc["instances"][1]["reserved_source"] = "snapshot B";
  doc["instances"][1]["reserved_as_of"] = "2025-11";
  EXPECT_EQ(parse_error(doc),
            "t.json: /instances/1/spot_source: given without spot_usd_per_hour (leave it out, or add the price)\n"
            "t.json: /instances/1/reserved_source: given without reserved_1y_usd_per_hour or "
            "reserved_3y_usd_per_hour (leave it out, or add the price)\n"
            "t.json: /instances/1/reserved_as_of: given without reserved_1y_usd_per_hour or "
            "reserved_3y_usd_per_hour (leave it out, or add the price)");
}

TEST(PriceTableJson, RowToJsonLeavesAbsentValuesOut) {
  InstancePrice row;
  row.instance_type = "t3.large";
  row.region = "us-east-1";
  row.on_demand_usd_per_hour = 0.0832;
  row.spot_usd_per_hour = 0.03;
  EXPECT_EQ(ordered_json(row).dump(),
            R"({"instance_type":"t3.large","region":"us-east-1","num_gpus":0,"on_demand_usd_per_hour":0.0832,)"
            R"("spot_usd_per_hour":0.03})");
}

TEST(PriceTableJson, RoundTripOfEveryField) {
  PriceTable table = parse_price_table(good(), "t.json");
  InstancePrice& row = table.instances[0];
  row.num_vcpus = 8;
  row.memory_gib = 64;
  row.spot_usd_per_hour = 0.9;
  row.reserved_1y_usd_per_hour = 1.4;
  row.reserved_3y_usd_per_hour = 0.95;
  row.source = "s";
  row.as_of = "2026-11";
  row.spot_source = "ss";
  row.spot_as_of = "2025-11-30";
  row.reserved_source = "rs";
  row.reserved_as_of = "2025-11";
  row.note = "n";
  const json written = parse_json_text(ordered_json(table).dump(), "t.json");
  EXPECT_EQ(written["schema_version"], 1);
  EXPECT_EQ(parse_price_table(written, "t.json", kGpuIds), table);
}

TEST(PriceTableJson, ShippedTablesRoundTrip) {
  for (const auto& table : shipped_price_tables()) {
    const json written = parse_json_text(ordered_json(table).dump(), table.name);
    EXPECT_EQ(parse_price_table(written, table.name), table) << table.name;
  }
}

}  // namespace
}  // namespace slicewise::pricing
