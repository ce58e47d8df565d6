// Importing real price-feed formats (hand-written fixtures in test/data/pricing/).
#include "pricing/price_import.hpp"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace slicewise::pricing {
namespace {

std::filesystem::path fixture(const char* name) { return std::filesystem::path(SW_TEST_DATA_DIR) / "pricing" / name; }

std::string import_error(const std::vector<std::filesystem::path>& files, ImportFormat format) {
  try {
    import_prices(files, format, "t", known_instance_gpu);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

TEST(PriceImport, AwsOfferFileKeepsLinuxSharedOnDemandAndNoUpfrontReservedPrices) {
  const auto result = import_prices({fixture("aws-offer-small.json")}, ImportFormat::aws_offer, "aws", known_instance_gpu);
  EXPECT_EQ(result.num_rows_read, 4);  // g6e.2xlarge, t3.large, m7i.xlarge, p9 (Windows and storage filtered out)
  EXPECT_EQ(result.num_rows_kept, 3);  // m7i.xlarge lists no GPU: a CPU-only row
  EXPECT_EQ(result.skipped_types, std::vector<std::string>{"p9.48xlarge"});  // a GPU instance slicewise does not know
  EXPECT_EQ(result.table.find("m7i.xlarge", "us-east-1")->num_gpus, 0);
  const auto& table = result.table;
  EXPECT_EQ(table.currency, "USD");
  EXPECT_EQ(table.as_of, "2026-11-01");
  const auto* g6e = table.find("g6e.2xlarge", "us-east-1");
  ASSERT_NE(g6e, nullptr);
  EXPECT_EQ(g6e->gpu, "L40S");
  EXPECT_EQ(g6e->num_gpus, 1);
  EXPECT_EQ(g6e->num_vcpus, 8);
  EXPECT_EQ(g6e->memory_gib, 64.0);
  EXPECT_DOUBLE_EQ(g6e->on_demand_usd_per_hour, 2.24208);  // not the Windows 2.61
  EXPECT_DOUBLE_EQ(*g6e->reserved_1y_usd_per_hour, 1.4125);  // No Upfront; the All Upfront term is ignored
  EXPECT_DOUBLE_EQ(*g6e->reserved_3y_usd_per_hour, 0.9698);
  EXPECT_FALSE(g6e->spot_usd_per_hour);
  const auto* t3 = table.find("t3.large", "us-east-1");
  EXPECT_EQ(t3->num_gpus, 0);
  EXPECT_FALSE(t3->gpu);
  EXPECT_DOUBLE_EQ(t3->on_demand_usd_per_hour, 0.0832);
}

TEST(PriceImport, AzureRetailPagesMergeConsumptionSpotAndReservation) {
  const auto result = import_prices({fixture("azure-retail-page1.json"), fixture("azure-retail-page2.json")},
                                    ImportFormat::azure_retail, "azure", known_instance_gpu);
  EXPECT_EQ(result.num_rows_read, 4);  // Windows and Low Priority skipped before counting
  EXPECT_EQ(result.num_rows_kept, 1);
  EXPECT_EQ(result.skipped_types, std::vector<std::string>{"Standard_D2_v5"});
  EXPECT_EQ(result.table.as_of, "2026-10-15");
  const auto* a100 = result.table.find("Standard_NC24ads_A100_v4", "eastus");
  ASSERT_NE(a100, nullptr);
  EXPECT_EQ(a100->gpu, "A100-PCIe-80GB");
  EXPECT_DOUBLE_EQ(a100->on_demand_usd_per_hour, 3.673);
  EXPECT_DOUBLE_EQ(*a100->spot_usd_per_hour, 0.7345);
  EXPECT_DOUBLE_EQ(*a100->reserved_1y_usd_per_hour, 20130.12 / 8760.0);  // a term price, per hour
}

TEST(PriceImport, ImportedTablesRoundTripThroughTheTableFormat) {
  const auto result = import_prices({fixture("aws-offer-small.json")}, ImportFormat::aws_offer, "aws", known_instance_gpu);
  const auto path = std::filesystem::temp_directory_path() / "sw_imported_aws.json";
  std::ofstream(path) << price_table_to_text(result.table);
  EXPECT_EQ(PriceTable::load(path), result.table);
  std::filesystem::remove(path);
}

TEST(PriceImport, MalformedFeedsNameTheFileAndPointer) {
  const auto bad_price = fixture("aws-offer-bad-price.json").string();
  EXPECT_EQ(import_error({bad_price}, ImportFormat::aws_offer),
            bad_price + ": /terms/OnDemand/T3L/T3L.JRTCKXETXF/priceDimensions/T3L.JRTCKXETXF.6YS6EN2CT7/pricePerUnit/USD: "
                        "expected a decimal number (got \"abc\")");
  const auto no_products = fixture("aws-offer-no-products.json").string();
  EXPECT_EQ(import_error({no_products}, ImportFormat::aws_offer), no_products + ": missing required key \"products\"");
  const auto mixed = fixture("azure-retail-mixed-currency.json").string();
  EXPECT_EQ(import_error({mixed}, ImportFormat::azure_retail),
            mixed + ": /Items/1/currencyCode: all items must share one currency (got EUR; expected USD)");
  const auto aws_as_azure = fixture("aws-offer-small.json").string();
  EXPECT_EQ(import_error({aws_as_azure}, ImportFormat::azure_retail), aws_as_azure + ": missing required key \"Items\"");
}

}  // namespace
}  // namespace slicewise::pricing
