// The shipped price tables (data/prices/*.json), lookup, and loading table files from disk.
#include "pricing/price_table.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace slicewise::pricing {
namespace {

const std::string kData = std::string(SW_TEST_DATA_DIR) + "/pricing/";
const std::string kPrices = std::string(SW_SOURCE_DIR) + "/data/prices/";

/// The GPU catalog ids (data/gpus.json) at the time of writing; the scenario tests cross-check
/// the shipped tables against the catalog itself.
const std::vector<std::string> kGpuIds = {"T4",
                                          "A10G",
                                          "L4",
                                          "L40S",
                                          "V100-16GB",
                                          "V100-32GB",
                                          "A100-40GB",
                                          "A100-80GB",
                                          "A100-PCIe-80GB",
                                          "H100-SXM-80GB",
                                          "H100-PCIe-80GB",
                                          "H100-NVL-94GB",
                                          "H200",
                                          "GH200-96GB",
                                          "GH200-144GB",
                                          "B200",
                                          "A30-24GB"};

/// what() of the ConfigError that loading `file` throws, or "" when it loads.
std::string load_error(const std::string& file, const std::vector<std::string>& gpu_ids = kGpuIds) {
  try {
    PriceTable::load(file, gpu_ids);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

const PriceTable& shipped(std::string_view name) {
  const PriceTable* table = find_shipped_price_table(name);
  if (!table) throw std::runtime_error("no shipped price table " + std::string(name));
  return *table;
}

TEST(PriceTable, ShippedTablesLoadInNameOrder) {
  std::vector<std::string> names;
  for (const auto& table : shipped_price_tables()) {
    names.push_back(table.name);
    EXPECT_EQ(table.currency, "USD") << table.name;
    EXPECT_EQ(table.as_of, "2026-11-22") << table.name;
    EXPECT_NE(table.source.find("skypilot-org/skypilot-catalog"), std::string::npos) << table.name;
    EXPECT_NE(table.source.find("instance-type documentation"), std::string::npos) << table.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"aws", "azure", "gcp"}));
  EXPECT_EQ(shipped("aws").instances.size(), 39u);
  EXPECT_EQ(shipped("azure").instances.size(), 15u);
  EXPECT_EQ(shipped("gcp").instances.size(), 6u);
  EXPECT_EQ(find_shipped_price_table("awz"), nullptr);
}

TEST(PriceTable, SeedInstancesPriceExactly) {
  const PriceTable& aws = shipped("aws");
  const InstancePrice* gpu = aws.find("g6e.2xlarge", "us-east-1");
  ASSERT_NE(gpu, nullptr);
  EXPECT_EQ(gpu->on_demand_usd_per_hour, 2.24208);
  EXPECT_EQ(gpu->gpu, "L40S");
  EXPECT_EQ(gpu->num_gpus, 1);
  EXPECT_EQ(gpu->num_vcpus, 8);
  EXPECT_EQ(gpu->memory_gib, 64.0);
  EXPECT_EQ(gpu->spot_usd_per_hour, 0.97975);         // tsaol/aws-gpu snapshot of 2025-11-30, mean over the AZs
  EXPECT_EQ(gpu->reserved_1y_usd_per_hour, 1.41251);  // Standard, No Upfront
  EXPECT_EQ(gpu->reserved_3y_usd_per_hour, 0.96858);
  EXPECT_EQ(gpu->reserved_as_of, "2025-11-30");
  const InstancePrice* cpu = aws.find("t3.large", "us-east-1");
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->on_demand_usd_per_hour, 0.0832);
  EXPECT_EQ(cpu->gpu, std::nullopt);
  EXPECT_EQ(cpu->num_gpus, 0);
  EXPECT_EQ(cpu->num_vcpus, 2);
  EXPECT_EQ(cpu->memory_gib, 8.0);
  // docs/design.md §6: dedicated 2 x g6e.2xlarge; time-sliced 1 x g6e.2xlarge + 2 x t3.large; 730 h.
  EXPECT_NEAR(2 * gpu->on_demand_usd_per_hour * 730, 3273.4368, 1e-9);
  EXPECT_NEAR((gpu->on_demand_usd_per_hour + 2 * cpu->on_demand_usd_per_hour) * 730, 1758.1904, 1e-9);
}

TEST(PriceTable, FindWithAndWithoutRegion) {
  const PriceTable& aws = shipped("aws");
  EXPECT_EQ(aws.find("g5.12xlarge")->region, "us-west-2");  // first row of that type
  EXPECT_EQ(aws.find("g5.12xlarge", "us-east-2")->region, "us-east-2");
  EXPECT_EQ(aws.find("g5.12xlarge", "us-east-1"), nullptr);  // not in the reference
  EXPECT_EQ(aws.find("p5.48xlarge", "us-west-1")->on_demand_usd_per_hour, 68.8);
  EXPECT_EQ(aws.find("p5.48xlarge")->on_demand_usd_per_hour, 55.04);
  EXPECT_EQ(aws.find("g6e.2xlarg"), nullptr);
  EXPECT_EQ(aws.find("G6E.2XLARGE"), nullptr);  // exact match only
  EXPECT_EQ(aws.find(""), nullptr);
}

TEST(PriceTable, InstanceTypesAndRegionsInTableOrder) {
  const PriceTable& gcp = shipped("gcp");
  EXPECT_EQ(gcp.instance_types(), (std::vector<std::string>{"a2-highgpu-1g", "a2-ultragpu-1g", "a3-highgpu-8g",
                                                            "a3-highgpu-1g", "g2-standard-4"}));
  EXPECT_EQ(gcp.regions(), (std::vector<std::string>{"us-central1", "us-east4"}));
  EXPECT_EQ(shipped("aws").regions(), (std::vector<std::string>{"us-east-1", "us-west-2", "us-east-2", "us-west-1"}));
  EXPECT_EQ(shipped("azure").regions(),
            (std::vector<std::string>{"eastus", "westus2", "westus", "westus3", "southcentralus"}));
  EXPECT_EQ(shipped("aws").instance_types().size(), 27u);
}

TEST(PriceTable, HourlyPriceByPurchaseOption) {
  const InstancePrice& a2 = *shipped("gcp").find("a2-highgpu-1g", "us-central1");
  EXPECT_EQ(a2.usd_per_hour(PurchaseOption::on_demand), 3.67339);
  EXPECT_EQ(a2.usd_per_hour(PurchaseOption::spot), 1.92802);
  // Committed use: the Cloud Billing catalog's 1689.3711392 and 938.56707798 a month of 730 h.
  EXPECT_EQ(a2.usd_per_hour(PurchaseOption::reserved_1y), 2.31421);
  EXPECT_EQ(a2.usd_per_hour(PurchaseOption::reserved_3y), 1.28571);
  EXPECT_EQ(shipped("gcp").find("a2-ultragpu-1g")->usd_per_hour(PurchaseOption::reserved_1y), std::nullopt);
  const InstancePrice& nc24 = *shipped("azure").find("Standard_NC24ads_A100_v4", "westus");
  EXPECT_EQ(nc24.usd_per_hour(PurchaseOption::on_demand), 4.775);
  EXPECT_EQ(nc24.usd_per_hour(PurchaseOption::spot), 0.647968);
  EXPECT_EQ(shipped("azure").find("Standard_NC40ads_H100_v5")->spot_usd_per_hour, std::nullopt);
}

TEST(PriceTable, PurchaseOptionNames) {
  std::vector<std::string> names;
  for (const auto& [name, option] : purchase_option_table()) {
    names.push_back(name);
    EXPECT_EQ(to_string(option), name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"on_demand", "spot", "reserved_1y", "reserved_3y"}));
}

TEST(PriceTable, ShippedRowsUseCatalogGpuIdsAndCarrySourceAndDate) {
  for (const auto& table : shipped_price_tables()) {
    EXPECT_EQ(load_error(kPrices + table.name + ".json"), "") << table.name;
    for (const auto& row : table.instances) {
      const std::string where = table.name + " " + row.instance_type + " " + row.region;
      EXPECT_EQ(row.gpu.has_value(), row.num_gpus > 0) << where;
      if (row.gpu) {
        EXPECT_NE(std::find(kGpuIds.begin(), kGpuIds.end(), *row.gpu), kGpuIds.end()) << where;
      }
      EXPECT_FALSE(row.source.empty()) << where;
      EXPECT_FALSE(row.as_of.empty()) << where;
      if (row.reserved_1y_usd_per_hour || row.reserved_3y_usd_per_hour) {
        EXPECT_FALSE(row.reserved_source.empty()) << where;
        EXPECT_FALSE(row.reserved_as_of.empty()) << where;
      }
    }
  }
}

TEST(PriceTable, ReferenceGpuNamesMapToCatalogIds) {
  EXPECT_EQ(shipped("aws").find("p5.48xlarge")->gpu, "H100-SXM-80GB");                  // "H100-80GB"
  EXPECT_EQ(shipped("aws").find("p5en.48xlarge")->gpu, "H200");                         // "H200-141GB"
  EXPECT_EQ(shipped("aws").find("p4de.24xlarge")->gpu, "A100-80GB");                    // SXM4
  EXPECT_EQ(shipped("azure").find("Standard_NC24ads_A100_v4")->gpu, "A100-PCIe-80GB");  // "A100-80GB PCIe"
  EXPECT_EQ(shipped("azure").find("Standard_NC40ads_H100_v5")->gpu, "H100-NVL-94GB");   // "H100 NVL 94GB"
  EXPECT_EQ(shipped("azure").find("Standard_ND96isr_H100_v5")->gpu, "H100-SXM-80GB");   // "H100 SXM 80GB"
  EXPECT_EQ(shipped("azure").find("Standard_ND96isr_H100_v5")->num_gpus, 8);            // the catalog's 12 is wrong
  EXPECT_EQ(shipped("gcp").find("a3-highgpu-8g")->gpu, "H100-SXM-80GB");
}

TEST(PriceTable, ReferenceCautionsAreKept) {
  // The us-central1 rows the skypilot catalog got wrong say what they replace (issue 39: they were
  // used silently, flagged SUSPICIOUS only in their note).
  EXPECT_NE(shipped("gcp").find("a2-ultragpu-1g")->note.find("Replaces the skypilot catalog's 2.94582"),
            std::string::npos);
  EXPECT_NE(shipped("gcp").find("a3-highgpu-8g", "us-central1")->note.find("Replaces the skypilot catalog's 43.06615"),
            std::string::npos);
  const InstancePrice& p5en = *shipped("aws").find("p5en.48xlarge");
  EXPECT_EQ(p5en.region, "us-east-1");
  EXPECT_TRUE(p5en.note.starts_with(
      "the reference records this price for US regions without naming one; listed under us-east-1."))
      << p5en.note;
  EXPECT_EQ(p5en.on_demand_usd_per_hour, 63.296);
}

TEST(PriceTable, LeftOutRowsAreAbsent) {
  for (const char* type : {"p6-b300.48xlarge", "g5g.2xlarge", "g6f.2xlarge", "p5e.48xlarge"}) {
    EXPECT_EQ(shipped("aws").find(type), nullptr) << type;
  }
  EXPECT_EQ(shipped("azure").find("Standard_NV36ads_A10_v5"), nullptr);
}

TEST(PriceTable, LoadReportsEveryProblemOfAFile) {
  const std::string file = kData + "bad-rows.json";
  EXPECT_EQ(load_error(file),
            file + ": /currency: expected a 3-letter ISO 4217 code such as \"USD\" (got \"usd\")\n" + file +
                ": /instances/0/spot_usd_per_hour: must be > 0 (got -1)\n" + file +
                ": /instances/1/gpu: unknown GPU \"A100-80G\" (did you mean \"A100-80GB\"?)\n" + file +
                ": /instances/2: duplicate row for g6e.2xlarge in us-east-1 (first at /instances/0)\n" + file +
                ": /instances/3/num_gpus: expected integer (got \"0\")\n" + file +
                ": /instances/3/memory_gb: unknown key (did you mean \"memory_gib\"?)");
}

TEST(PriceTable, GpuIdsAreCheckedOnlyAgainstAGivenList) {
  const std::string file = kData + "bad-rows.json";
  EXPECT_EQ(load_error(file, {}).find("A100-80G"), std::string::npos);
}

TEST(PriceTable, LoadRejectsDuplicateKeysAndSyntaxErrors) {
  const std::string dup = kData + "duplicate-key.json";
  EXPECT_EQ(load_error(dup), dup + ": /instances/0/on_demand_usd_per_hour: duplicate key (each key may appear once)");
  const std::string comma = kData + "missing-comma.json";
  EXPECT_EQ(load_error(comma), comma +
                                   ":4:11: parse error: syntax error while parsing object - unexpected string "
                                   "literal; expected '}'");
  EXPECT_EQ(load_error(kData + "no-such-table.json"),
            kData + "no-such-table.json: cannot open file: No such file or directory");
}

}  // namespace
}  // namespace slicewise::pricing

namespace slicewise::pricing {
namespace {

std::filesystem::path write_table(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path;
}

TEST(PriceTableExtends, AUserTableOverridesAndExtendsAShippedOne) {
  // Our negotiated price for g6e.2xlarge, and an instance type the shipped table does not have.
  const auto path = write_table("sw_extends.json", R"({"schema_version": 1, "name": "ours", "extends": "aws",
    "currency": "USD", "source": "our contract", "as_of": "2026-11",
    "instances": [
      {"instance_type": "g6e.2xlarge", "region": "us-east-1", "gpu": "L40S", "num_gpus": 1, "on_demand_usd_per_hour": 1.5},
      {"instance_type": "our-box", "region": "dc1", "gpu": "H100-SXM-80GB", "num_gpus": 8, "on_demand_usd_per_hour": 40}]})");
  const auto table = PriceTable::load(path);
  EXPECT_EQ(table.find("g6e.2xlarge", "us-east-1")->on_demand_usd_per_hour, 1.5);      // overridden
  EXPECT_EQ(table.find("g6e.2xlarge", "us-west-2")->on_demand_usd_per_hour, 2.24208);  // inherited
  EXPECT_EQ(table.find("t3.large", "us-east-1")->on_demand_usd_per_hour, 0.0832);      // inherited
  EXPECT_EQ(table.find("our-box")->num_gpus, 8);
  EXPECT_EQ(table.instances.size(), find_shipped_price_table("aws")->instances.size() + 1);
}

TEST(PriceTableExtends, AnUnknownBaseOrAnotherCurrencyIsRejected) {
  auto path = write_table("sw_extends_bad.json", R"({"schema_version": 1, "name": "ours", "extends": "awz",
    "currency": "USD", "source": "s", "as_of": "2026-11", "instances": []})");
  try {
    PriceTable::load(path);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              path.string() + ": /extends: unknown \"awz\"; expected aws|azure|gcp (did you mean \"aws\"?)");
  }
  path = write_table("sw_extends_eur.json", R"({"schema_version": 1, "name": "ours", "extends": "aws",
    "currency": "EUR", "source": "s", "as_of": "2026-11", "instances": []})");
  try {
    PriceTable::load(path);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              path.string() + ": /currency: must match the extended table \"aws\" (got EUR; expected USD)");
  }
}

}  // namespace
}  // namespace slicewise::pricing
