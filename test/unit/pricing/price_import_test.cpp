// Importing real price-feed formats (hand-written fixtures in test/data/pricing/).
#include "pricing/price_import.hpp"

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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
  const auto result =
      import_prices({fixture("aws-offer-small.json")}, ImportFormat::aws_offer, "aws", known_instance_gpu);
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
  EXPECT_DOUBLE_EQ(g6e->on_demand_usd_per_hour, 2.24208);    // not the Windows 2.61
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
  EXPECT_EQ(result.num_rows_kept, 2);
  EXPECT_TRUE(result.skipped_types.empty());
  EXPECT_EQ(result.table.as_of, "2026-10-15");  // no retrieval date given: the newest date in the pages
  const auto* a100 = result.table.find("Standard_NC24ads_A100_v4", "eastus");
  ASSERT_NE(a100, nullptr);
  EXPECT_EQ(a100->gpu, "A100-PCIe-80GB");
  EXPECT_DOUBLE_EQ(a100->on_demand_usd_per_hour, 3.673);
  EXPECT_DOUBLE_EQ(*a100->spot_usd_per_hour, 0.7345);
  EXPECT_DOUBLE_EQ(*a100->reserved_1y_usd_per_hour, 20130.12 / 8760.0);  // a term price, per hour
  // Consumption from 2026-09-01, spot from 2026-10-15, the reservation from 2026-08-01: all three hold from 10-15.
  EXPECT_EQ(a100->effective_from, "2026-10-15");
  // A D-series VM has no GPU: a CPU row (a sidecar), not a skipped type. Its item has no date.
  const auto* d2 = result.table.find("Standard_D2_v5", "eastus");
  ASSERT_NE(d2, nullptr);
  EXPECT_EQ(d2->num_gpus, 0);
  EXPECT_FALSE(d2->gpu);
  EXPECT_DOUBLE_EQ(d2->on_demand_usd_per_hour, 0.096);
  EXPECT_EQ(d2->effective_from, "");
}

std::string file_text(const std::filesystem::path& path) {
  std::ostringstream text;
  text << std::ifstream(path).rdbuf();
  return text.str();
}

TEST(PriceImport, AzureCpuVmsAreKeptWithTheDayTheirPricesTookEffectAndTheDayTheyWereRead) {
  // azure-retail-cpu.json holds Retail Prices API items as the API writes them: Standard_D4s_v5
  // Linux per hour in eastus (since 2022-05-01) and westeurope (on-demand since 2022-05-01, spot since
  // 2026-10-01), its Windows meter, and an NV A10 v5 GPU size slicewise has no GPU for.
  const auto result = import_prices(
      {fixture("azure-retail-page1.json"), fixture("azure-retail-page2.json"), fixture("azure-retail-cpu.json")},
      ImportFormat::azure_retail, "azure", known_instance_gpu, "2026-11-22");
  EXPECT_EQ(result.num_rows_read, 8);  // the Windows D4s v5 is not read
  EXPECT_EQ(result.num_rows_kept, 4);
  // An N-family size is a GPU VM: skipped when its GPU is not known, never taken for a CPU VM.
  EXPECT_EQ(result.skipped_types, std::vector<std::string>{"Standard_NV36ads_A10_v5"});
  const auto& table = result.table;
  EXPECT_EQ(table.as_of, "2026-11-22");  // when the pages were read, not 2026-10-15 nor 2022-05-01
  const auto* east = table.find("Standard_D4s_v5", "eastus");
  ASSERT_NE(east, nullptr);
  EXPECT_EQ(east->num_gpus, 0);
  EXPECT_FALSE(east->gpu);
  EXPECT_FALSE(east->num_vcpus);                          // the feed does not say
  EXPECT_DOUBLE_EQ(east->on_demand_usd_per_hour, 0.192);  // not the Windows 0.376
  EXPECT_FALSE(east->spot_usd_per_hour);
  EXPECT_EQ(east->as_of, "2026-11-22");
  EXPECT_EQ(east->effective_from, "2022-05-01");
  const auto* west = table.find("Standard_D4s_v5", "westeurope");
  ASSERT_NE(west, nullptr);
  EXPECT_DOUBLE_EQ(west->on_demand_usd_per_hour, 0.23);
  EXPECT_DOUBLE_EQ(*west->spot_usd_per_hour, 0.0253);
  EXPECT_EQ(west->as_of, "2026-11-22");
  EXPECT_EQ(west->effective_from, "2026-10-01");  // both prices hold from the later start
  EXPECT_EQ(table.find("Standard_NC24ads_A100_v4", "eastus")->effective_from, "2026-10-15");
  // The written table is test/data/pricing/azure-imported.json (which `slicewise prices --file`
  // lists in test/e2e/cases/prices-file*), and it loads back to the same rows, both dates included.
  EXPECT_EQ(price_table_to_text(table), file_text(fixture("azure-imported.json")));
  EXPECT_EQ(PriceTable::load(fixture("azure-imported.json")), table);
}

TEST(PriceImport, TheEffectiveDateOfARowMustBeARealDate) {
  const auto result = import_prices({fixture("azure-retail-cpu.json")}, ImportFormat::azure_retail, "azure",
                                    known_instance_gpu, "2026-11-22");
  nlohmann::json doc = nlohmann::json::parse(price_table_to_text(result.table));
  const auto path = (std::filesystem::temp_directory_path() / "sw_azure_effective.json").string();
  for (const char* text : {"2022-13-01", "", "1 May 2022"}) {
    doc["instances"][0]["effective_from"] = text;
    std::ofstream(path) << doc.dump(1);
    try {
      PriceTable::load(path);
      ADD_FAILURE() << text;
    } catch (const ConfigError& e) {
      EXPECT_EQ(std::string(e.what()),
                path + ": /instances/0/effective_from: expected a date YYYY-MM or YYYY-MM-DD (got \"" + text + "\")");
    }
  }
  std::filesystem::remove(path);
}

TEST(PriceImport, ImportedTablesRoundTripThroughTheTableFormat) {
  const auto result =
      import_prices({fixture("aws-offer-small.json")}, ImportFormat::aws_offer, "aws", known_instance_gpu);
  const auto path = std::filesystem::temp_directory_path() / "sw_imported_aws.json";
  std::ofstream(path) << price_table_to_text(result.table);
  EXPECT_EQ(PriceTable::load(path), result.table);
  std::filesystem::remove(path);
}

TEST(PriceImport, MalformedFeedsNameTheFileAndPointer) {
  const auto bad_price = fixture("aws-offer-bad-price.json").string();
  EXPECT_EQ(import_error({bad_price}, ImportFormat::aws_offer),
            bad_price +
                ": /terms/OnDemand/T3L/T3L.JRTCKXETXF/priceDimensions/T3L.JRTCKXETXF.6YS6EN2CT7/pricePerUnit/USD: "
                "expected a decimal number (got \"abc\")");
  const auto no_products = fixture("aws-offer-no-products.json").string();
  EXPECT_EQ(import_error({no_products}, ImportFormat::aws_offer), no_products + ": missing required key \"products\"");
  const auto mixed = fixture("azure-retail-mixed-currency.json").string();
  EXPECT_EQ(import_error({mixed}, ImportFormat::azure_retail),
            mixed + ": /Items/1/currencyCode: all items must share one currency (got EUR; expected USD)");
  const auto aws_as_azure = fixture("aws-offer-small.json").string();
  EXPECT_EQ(import_error({aws_as_azure}, ImportFormat::azure_retail),
            aws_as_azure + ": missing required key \"Items\"");
}

/// The fixture `name` changed by `change`, written to a temporary file.
std::string changed(const char* name, const std::string& out, const std::function<void(nlohmann::json&)>& change) {
  nlohmann::json doc = nlohmann::json::parse(std::ifstream(fixture(name)));
  change(doc);
  const auto path = std::filesystem::temp_directory_path() / out;
  std::ofstream(path) << doc.dump(1);
  return path.string();
}

/// Every on-demand "Hrs" price of the AWS fixture set to `text`.
void set_on_demand(nlohmann::json& doc, const std::string& text) {
  for (auto& [sku, offers] : doc["terms"]["OnDemand"].items()) {
    for (auto& [code, term] : offers.items()) {
      for (auto& [key, dimension] : term["priceDimensions"].items()) dimension["pricePerUnit"]["USD"] = text;
    }
  }
}

TEST(PriceImport, PricesMustBeFiniteAndNotNegative) {
  // "inf" became null in the written table, "nan" and negative prices were dropped without a word.
  const char* g6e_price =
      ": /terms/OnDemand/G6E2XL/G6E2XL.JRTCKXETXF/priceDimensions/G6E2XL.JRTCKXETXF.6YS6EN2CT7/pricePerUnit/USD: ";
  for (const char* text : {"inf", "nan", "1e400"}) {
    const auto path =
        changed("aws-offer-small.json", "sw_aws_price.json", [&](auto& doc) { set_on_demand(doc, text); });
    EXPECT_EQ(import_error({path}, ImportFormat::aws_offer),
              path + g6e_price + "expected a decimal number (got \"" + text + "\")");
  }
  const auto negative =
      changed("aws-offer-small.json", "sw_aws_negative.json", [](auto& doc) { set_on_demand(doc, "-1.5"); });
  EXPECT_EQ(import_error({negative}, ImportFormat::aws_offer),
            negative + g6e_price + "a price must be >= 0 (got \"-1.5\")");
  const auto azure = changed("azure-retail-page1.json", "sw_azure_negative.json",
                             [](auto& doc) { doc["Items"][0]["retailPrice"] = -3.0; });
  EXPECT_EQ(import_error({azure}, ImportFormat::azure_retail),
            azure + ": /Items/0/retailPrice: a price must be >= 0 (got -3.0)");
}

TEST(PriceImport, InstanceSizesMustFitTheTableFormat) {
  // A vCPU count of 1e12 used to wrap to -2147483648; 0 vCPUs or 0 GiB gave a table that does not load.
  const std::string vcpu =
      ": /products/G6E2XL/attributes/vcpu: expected a whole number of vCPUs in [1, 1000000] (got \"";
  for (const char* text : {"1e12", "0", "2.5"}) {
    const auto path = changed("aws-offer-small.json", "sw_aws_vcpu.json",
                              [&](auto& doc) { doc["products"]["G6E2XL"]["attributes"]["vcpu"] = text; });
    EXPECT_EQ(import_error({path}, ImportFormat::aws_offer), path + vcpu + text + "\")");
  }
  const auto memory = changed("aws-offer-small.json", "sw_aws_memory.json",
                              [](auto& doc) { doc["products"]["G6E2XL"]["attributes"]["memory"] = "0 GiB"; });
  EXPECT_EQ(import_error({memory}, ImportFormat::aws_offer),
            memory + ": /products/G6E2XL/attributes/memory: must be > 0 GiB (got \"0 GiB\")");
}

TEST(PriceImport, AFeedOfTheWrongShapeOrWithNothingUsableIsRefused) {
  const auto products =
      changed("aws-offer-small.json", "sw_aws_products.json", [](auto& doc) { doc["products"] = "x"; });
  EXPECT_EQ(import_error({products}, ImportFormat::aws_offer), products + ": /products: expected object (got \"x\")");
  const auto terms = changed("aws-offer-small.json", "sw_aws_terms.json", [](auto& doc) {
    doc["terms"]["OnDemand"] = nlohmann::json::array({1, 2});
  });
  EXPECT_EQ(import_error({terms}, ImportFormat::aws_offer), terms + ": /terms/OnDemand: expected object (got [1,2])");
  const auto item = changed("azure-retail-page1.json", "sw_azure_item.json",
                            [](auto& doc) { doc["Items"].insert(doc["Items"].begin(), 5); });
  EXPECT_EQ(import_error({item}, ImportFormat::azure_retail), item + ": /Items/0: expected object (got 5)");
  const auto region = changed("azure-retail-page1.json", "sw_azure_region.json",
                              [](auto& doc) { doc["Items"][0]["armRegionName"] = ""; });
  EXPECT_EQ(import_error({region}, ImportFormat::azure_retail), region + ": /Items/0/armRegionName: must not be empty");
  const auto windows = changed("aws-offer-small.json", "sw_aws_windows.json", [](auto& doc) {
    for (auto& [sku, product] : doc["products"].items()) product["attributes"]["operatingSystem"] = "Windows";
  });
  EXPECT_EQ(import_error({windows}, ImportFormat::aws_offer),
            windows +
                ": nothing to import: of the 0 Linux instance prices read, none is for a known instance type with "
                "an on-demand price > 0");
}

TEST(PriceImport, TheTableDateMustBeARealDay) {
  const auto bad =
      changed("aws-offer-small.json", "sw_aws_date.json", [](auto& doc) { doc["publicationDate"] = "zzzz"; });
  EXPECT_EQ(import_error({bad}, ImportFormat::aws_offer),
            bad + ": /publicationDate: expected a date YYYY-MM-DD[Thh:mm:ssZ] (got \"zzzz\")");
  const auto none = changed("aws-offer-small.json", "sw_aws_no_date.json", [](auto& doc) {
    doc.erase("publicationDate");
    for (auto& [sku, offers] : doc["terms"]["OnDemand"].items()) {
      for (auto& [code, term] : offers.items()) term.erase("effectiveDate");
    }
  });
  EXPECT_EQ(
      import_error({none}, ImportFormat::aws_offer),
      none +
          ": no date in the input (publicationDate, effectiveDate or effectiveStartDate): the table needs its as_of");
  const auto currency = changed("azure-retail-page1.json", "sw_azure_currency.json",
                                [](auto& doc) { doc["Items"][0]["currencyCode"] = "usd"; });
  EXPECT_EQ(import_error({currency}, ImportFormat::azure_retail),
            currency + ": /Items/0/currencyCode: expected a 3-letter ISO 4217 code such as \"USD\" (got \"usd\")");
}

}  // namespace
}  // namespace slicewise::pricing
