// AWS offer files and Azure Retail Prices pages -> PriceTable.
#include "pricing/price_import.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "pricing/json_io.hpp"

namespace slicewise::pricing {

using nlohmann::json;

namespace {

constexpr double kHoursPerYear = 8760.0;
constexpr double kMaxCount = 1000000;  // vCPUs of one instance; the table's own limit

struct Collector {
  std::map<std::pair<std::string, std::string>, InstancePrice> rows;  // (type, region) -> row
  std::set<std::string> skipped;
  std::string newest_date;
  std::string currency;
  int read = 0;
};

const json& member(const json& object, const std::string& key, const std::string& file, const std::string& pointer) {
  if (!object.is_object() || !object.contains(key)) {
    throw ConfigError(file, pointer, "missing required key \"" + key + "\"");
  }
  return object.at(key);
}

/// A member that must be an object (the offer file's maps of SKUs, terms and dimensions).
const json& object_at(const json& object, const std::string& key, const std::string& file, const std::string& pointer) {
  const json& value = member(object, key, file, pointer);
  if (!value.is_object()) {
    throw ConfigError(file, pointer + "/" + json_pointer_token(key),
                      "expected object (got " + describe_json(value) + ")");
  }
  return value;
}

std::string string_at(const json& object, const std::string& key, const std::string& file, const std::string& pointer) {
  const json& value = member(object, key, file, pointer);
  if (!value.is_string()) {
    throw ConfigError(file, pointer + "/" + json_pointer_token(key),
                      "expected string (got " + describe_json(value) + ")");
  }
  if (value.get<std::string>().empty())
    throw ConfigError(file, pointer + "/" + json_pointer_token(key), "must not be empty");
  return value.get<std::string>();
}

std::string text_or_empty(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

double number_text(const std::string& text, const std::string& file, const std::string& pointer) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    throw ConfigError(file, pointer, "expected a decimal number (got " + quoted_excerpt(text) + ")");
  }
  return value;
}

/// A price in the feed: a number >= 0 (0 marks a free or unpriced entry, which is left out).
double checked_price(double value, const std::string& shown, const std::string& file, const std::string& pointer) {
  if (value < 0.0) throw ConfigError(file, pointer, "a price must be >= 0 (got " + shown + ")");
  return value;
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

InstancePrice* row_for(Collector& c, const std::string& type, const std::string& region, const InstanceGpuMap& map,
                       bool cpu_only = false) {
  auto gpu = map(type);
  if (!gpu && cpu_only) gpu = std::pair<std::string, int>("", 0);
  if (!gpu) {
    c.skipped.insert(type);
    return nullptr;
  }
  auto& row = c.rows[{type, region}];
  row.instance_type = type;
  row.region = region;
  row.num_gpus = gpu->second;
  if (gpu->second > 0) row.gpu = gpu->first;
  return &row;
}

/// Keeps the newest date seen and returns its day; a date must start with YYYY-MM-DD (absent: "").
std::string note_date(Collector& c, const json& object, const char* key, const std::string& file,
                      const std::string& pointer) {
  const auto it = object.find(key);
  if (it == object.end()) return "";
  const std::string text = it->is_string() ? it->get<std::string>() : std::string();
  std::string day = text.substr(0, 10);
  if (!it->is_string() || !is_price_date(day) || day.size() != 10) {
    throw ConfigError(file, pointer + "/" + key,
                      "expected a date YYYY-MM-DD[Thh:mm:ssZ] (got " + describe_json(*it) + ")");
  }
  if (day > c.newest_date) c.newest_date = day;
  return day;
}

/// The hourly USD price of an AWS term (its "Hrs" dimension).
std::optional<double> aws_hourly(const json& term, const std::string& file, const std::string& pointer) {
  const json& dimensions = object_at(term, "priceDimensions", file, pointer);
  for (const auto& [key, dimension] : dimensions.items()) {
    if (text_or_empty(dimension, "unit") != "Hrs") continue;
    const std::string where = pointer + "/priceDimensions/" + json_pointer_token(key) + "/pricePerUnit/USD";
    const json& per_unit =
        member(dimension, "pricePerUnit", file, pointer + "/priceDimensions/" + json_pointer_token(key));
    const std::string text = string_at(per_unit, "USD", file, where.substr(0, where.size() - 4));
    return checked_price(number_text(text, file, where), "\"" + text + "\"", file, where);
  }
  return std::nullopt;
}

using SkuRows = std::map<std::string, std::pair<std::string, std::string>>;  // SKU -> (type, region)

/// Whether an AWS product's attributes describe a plain Linux instance: shared tenancy, no
/// preinstalled software, capacity as sold ("Used").
bool plain_linux_instance(const json& a) {
  return text_or_empty(a, "operatingSystem") == "Linux" && text_or_empty(a, "tenancy") == "Shared" &&
         text_or_empty(a, "preInstalledSw") == "NA" && text_or_empty(a, "capacitystatus") == "Used";
}

/// The vCPUs and memory of an AWS instance (attributes `a` at `pointer`), where the offer gives them.
void read_aws_shape(const json& a, const std::string& file, const std::string& pointer, InstancePrice& row) {
  if (const auto vcpu = text_or_empty(a, "vcpu"); !vcpu.empty()) {
    const double n = number_text(vcpu, file, pointer + "/attributes/vcpu");
    if (n < 1.0 || n > kMaxCount || n != std::floor(n)) {
      throw ConfigError(file, pointer + "/attributes/vcpu",
                        "expected a whole number of vCPUs in [1, 1000000] (got " + quoted_excerpt(vcpu) + ")");
    }
    row.num_vcpus = static_cast<int>(n);
  }
  if (auto memory = text_or_empty(a, "memory"); ends_with(memory, " GiB")) {
    const std::string shown = memory;
    memory.erase(memory.size() - 4);
    std::erase(memory, ',');
    const double gib = number_text(memory, file, pointer + "/attributes/memory");
    if (!(gib > 0.0)) {
      throw ConfigError(file, pointer + "/attributes/memory", "must be > 0 GiB (got " + quoted_excerpt(shown) + ")");
    }
    row.memory_gib = gib;
  }
}

/// Reads the plain Linux compute instances of an AWS offer into rows; returns the row of each SKU read.
SkuRows import_aws_products(const json& products, const std::string& file, const InstanceGpuMap& map, Collector& c) {
  SkuRows sku_to_row;
  for (const auto& [sku, product] : products.items()) {
    const std::string pointer = "/products/" + json_pointer_token(sku);
    if (text_or_empty(product, "productFamily") != "Compute Instance") continue;
    const json& a = member(product, "attributes", file, pointer);
    if (!plain_linux_instance(a)) continue;
    const std::string type = string_at(a, "instanceType", file, pointer + "/attributes");
    const std::string region = string_at(a, "regionCode", file, pointer + "/attributes");
    ++c.read;
    // The offer says how many GPUs an instance has: one without any is a CPU instance (a sidecar).
    const std::string gpus = text_or_empty(a, "gpu");
    InstancePrice* row = row_for(c, type, region, map, gpus.empty() || gpus == "0");
    if (!row) continue;
    read_aws_shape(a, file, pointer, *row);
    sku_to_row[sku] = {type, region};
  }
  return sku_to_row;
}

/// Calls handle(row, term, pointer) for every term of `kind` ("OnDemand", "Reserved") of a SKU read.
template <typename Handle>
void each_aws_term(const json& terms, const char* kind, const SkuRows& sku_to_row, const std::string& file,
                   Collector& c, const Handle& handle) {
  if (!terms.contains(kind)) return;
  for (const auto& [sku, offers] : object_at(terms, kind, file, "/terms").items()) {
    const auto found = sku_to_row.find(sku);
    if (found == sku_to_row.end()) continue;
    auto& row = c.rows.at(found->second);
    if (!offers.is_object()) {
      throw ConfigError(file, std::string("/terms/") + kind + "/" + json_pointer_token(sku),
                        "expected object (got " + describe_json(offers) + ")");
    }
    for (const auto& [code, term] : offers.items()) {
      handle(row, term, std::string("/terms/") + kind + "/" + json_pointer_token(sku) + "/" + json_pointer_token(code));
    }
  }
}

/// The hourly price of a reserved term, when it is a standard no-upfront one of 1 or 3 years.
void read_aws_reserved(InstancePrice& row, const json& term, const std::string& file, const std::string& pointer) {
  const json& attributes = member(term, "termAttributes", file, pointer);
  if (text_or_empty(attributes, "PurchaseOption") != "No Upfront" ||
      text_or_empty(attributes, "OfferingClass") != "standard") {
    return;
  }
  const auto price = aws_hourly(term, file, pointer);
  if (!price || *price <= 0.0) return;
  const std::string length = text_or_empty(attributes, "LeaseContractLength");
  if (length == "1yr") row.reserved_1y_usd_per_hour = *price;
  if (length == "3yr") row.reserved_3y_usd_per_hour = *price;
}

void import_aws(const json& doc, const std::string& file, const InstanceGpuMap& map, Collector& c) {
  c.currency = "USD";
  note_date(c, doc, "publicationDate", file, "");
  const json& products = object_at(doc, "products", file, "");
  const json& terms = object_at(doc, "terms", file, "");
  const SkuRows sku_to_row = import_aws_products(products, file, map, c);
  each_aws_term(terms, "OnDemand", sku_to_row, file, c,
                [&](InstancePrice& row, const json& term, const std::string& pointer) {
                  note_date(c, term, "effectiveDate", file, pointer);
                  if (const auto price = aws_hourly(term, file, pointer); price && *price > 0.0) {
                    row.on_demand_usd_per_hour = *price;
                  }
                });
  each_aws_term(terms, "Reserved", sku_to_row, file, c,
                [&](InstancePrice& row, const json& term, const std::string& pointer) {
                  read_aws_reserved(row, term, file, pointer);
                });
}

/// The currency of an Azure item: a 3-letter ISO code, the same as that of the items before (`current`, if any).
std::string azure_currency(const json& item, const std::string& file, const std::string& pointer,
                           const std::string& current) {
  std::string currency = string_at(item, "currencyCode", file, pointer);
  const bool iso = currency.size() == 3 &&
                   std::all_of(currency.begin(), currency.end(), [](char ch) { return ch >= 'A' && ch <= 'Z'; });
  if (!iso) {
    throw ConfigError(file, pointer + "/currencyCode",
                      "expected a 3-letter ISO 4217 code such as \"USD\" (got " + quoted_excerpt(currency) + ")");
  }
  if (!current.empty() && currency != current) {
    throw ConfigError(file, pointer + "/currencyCode",
                      "all items must share one currency (got " + currency + "; expected " + current + ")");
  }
  return currency;
}

/// The retail price of an Azure item, a number >= 0.
double azure_price(const json& item, const std::string& file, const std::string& pointer) {
  const json& price_value = member(item, "retailPrice", file, pointer);
  if (!price_value.is_number()) {
    throw ConfigError(file, pointer + "/retailPrice", "expected number (got " + describe_json(price_value) + ")");
  }
  return checked_price(price_value.get<double>(), describe_json(price_value), file, pointer + "/retailPrice");
}

/// Sets the row's price that an Azure item gives: spot or on-demand per hour, or a 1- or 3-year
/// reservation (priced for the whole term) per hour. False when the item gives none of them.
bool set_azure_price(InstancePrice& row, const json& item, const std::string& sku_name, double price) {
  const std::string type = text_or_empty(item, "type");
  if (type == "Consumption") {
    if (ends_with(sku_name, " Spot")) row.spot_usd_per_hour = price;
    else row.on_demand_usd_per_hour = price;
    return true;
  }
  if (type == "Reservation") {
    const std::string term = text_or_empty(item, "reservationTerm");
    if (term == "1 Year") row.reserved_1y_usd_per_hour = price / kHoursPerYear;
    if (term == "3 Years") row.reserved_3y_usd_per_hour = price / (3.0 * kHoursPerYear);
    return term == "1 Year" || term == "3 Years";
  }
  return false;
}

/// Whether an Azure VM size has no GPU: every GPU size is of the N family (Standard_NC24ads_A100_v4,
/// Standard_ND96isr_H100_v5, Standard_NV36ads_A10_v5); the A, B, D, E, F, H, L, M ... sizes are CPU
/// VMs (sidecars). An N size the map does not know is skipped, never taken for a CPU VM.
bool azure_cpu_size(const std::string& arm_sku_name) {
  for (const std::string_view prefix : {"Standard_", "Basic_"}) {
    if (arm_sku_name.size() > prefix.size() && arm_sku_name.compare(0, prefix.size(), prefix) == 0) {
      return arm_sku_name[prefix.size()] != 'N';
    }
  }
  return false;  // not a VM size name: skipped
}

void import_azure(const json& doc, const std::string& file, const InstanceGpuMap& map, Collector& c) {
  const json& items = member(doc, "Items", file, "");
  if (!items.is_array()) throw ConfigError(file, "/Items", "expected array (got " + describe_json(items) + ")");
  for (std::size_t i = 0; i < items.size(); ++i) {
    const json& item = items[i];
    const std::string pointer = "/Items/" + std::to_string(i);
    if (!item.is_object()) throw ConfigError(file, pointer, "expected object (got " + describe_json(item) + ")");
    if (text_or_empty(item, "serviceName") != "Virtual Machines" || text_or_empty(item, "unitOfMeasure") != "1 Hour" ||
        ends_with(text_or_empty(item, "productName"), " Windows")) {
      continue;
    }
    const std::string sku_name = text_or_empty(item, "skuName");
    if (ends_with(sku_name, " Low Priority")) continue;
    c.currency = azure_currency(item, file, pointer, c.currency);
    const double price = azure_price(item, file, pointer);
    ++c.read;
    const std::string effective = note_date(c, item, "effectiveStartDate", file, pointer);
    const std::string arm_sku = string_at(item, "armSkuName", file, pointer);
    InstancePrice* row =
        row_for(c, arm_sku, string_at(item, "armRegionName", file, pointer), map, azure_cpu_size(arm_sku));
    if (!row || price <= 0.0) continue;
    // The row's prices all hold from the newest day one of them took effect.
    if (set_azure_price(*row, item, sku_name, price) && effective > row->effective_from) {
      row->effective_from = effective;
    }
  }
}

}  // namespace

ImportResult import_prices(const std::vector<std::filesystem::path>& files, ImportFormat format,
                           const std::string& table_name, const InstanceGpuMap& gpu_of_instance,
                           const std::string& retrieved) {
  Collector c;
  std::string names;  // for the table's source
  std::string paths;  // for messages
  for (const auto& file : files) {
    const json doc = read_json_file(file);
    if (format == ImportFormat::aws_offer) import_aws(doc, file.string(), gpu_of_instance, c);
    else import_azure(doc, file.string(), gpu_of_instance, c);
    names += (names.empty() ? "" : ", ") + file.filename().string();
    paths += (paths.empty() ? "" : ", ") + file.string();
  }
  ImportResult result;
  result.table.name = table_name;
  result.table.currency = c.currency.empty() ? "USD" : c.currency;
  result.table.source = "imported from " + names + " (" +
                        (format == ImportFormat::aws_offer ? "AWS Price List offer file" : "Azure Retail Prices API") +
                        ")";
  // Dated by when the files were fetched when the caller says so, else by the newest date they hold.
  result.table.as_of = retrieved.empty() ? c.newest_date : retrieved;
  for (auto& [key, row] : c.rows) {
    if (row.on_demand_usd_per_hour <= 0.0) continue;  // no on-demand price: not a usable row
    row.source = result.table.source;
    row.as_of = result.table.as_of;
    result.table.instances.push_back(std::move(row));
  }
  result.num_rows_read = c.read;
  result.num_rows_kept = static_cast<int>(result.table.instances.size());
  result.skipped_types.assign(c.skipped.begin(), c.skipped.end());
  if (result.num_rows_kept == 0) {
    throw ConfigError(
        paths, "",
        "nothing to import: of the " + std::to_string(c.read) +
            " Linux instance prices read, none is for a known instance type with an on-demand price > 0" +
            (c.skipped.empty() ? std::string() : " (unknown types: " + join(result.skipped_types, ", ") + ")"));
  }
  if (result.table.as_of.empty()) {
    throw ConfigError(paths, "",
                      "no date in the input (publicationDate, effectiveDate or effectiveStartDate): the table needs "
                      "its as_of");
  }
  // Every value was checked on the way in; a table that would not load is a bug here.
  try {
    nlohmann::ordered_json text;
    to_json(text, result.table);
    parse_price_table(json::parse(text.dump()), "imported table");
  } catch (const ConfigError& e) {
    throw InternalError(std::string("the imported table does not validate: ") + e.what());
  }
  return result;
}

std::optional<std::pair<std::string, int>> known_instance_gpu(const std::string& type) {
  static const std::map<std::string, std::pair<std::string, int>> known = {
      {"t3.large", {"", 0}},
      {"g4dn.xlarge", {"T4", 1}},
      {"g4dn.12xlarge", {"T4", 4}},
      {"g5.xlarge", {"A10G", 1}},
      {"g5.12xlarge", {"A10G", 4}},
      {"g6.xlarge", {"L4", 1}},
      {"g6e.xlarge", {"L40S", 1}},
      {"g6e.2xlarge", {"L40S", 1}},
      {"g6e.4xlarge", {"L40S", 1}},
      {"g6e.12xlarge", {"L40S", 4}},
      {"g6e.48xlarge", {"L40S", 8}},
      {"p3.2xlarge", {"V100-16GB", 1}},
      {"p3.8xlarge", {"V100-16GB", 4}},
      {"p3.16xlarge", {"V100-16GB", 8}},
      {"p3dn.24xlarge", {"V100-32GB", 8}},
      {"p4d.24xlarge", {"A100-40GB", 8}},
      {"p4de.24xlarge", {"A100-80GB", 8}},
      {"p5.4xlarge", {"H100-SXM-80GB", 1}},
      {"p5.48xlarge", {"H100-SXM-80GB", 8}},
      {"p5en.48xlarge", {"H200", 8}},
      {"p6-b200.48xlarge", {"B200", 8}},
      {"Standard_NC24ads_A100_v4", {"A100-PCIe-80GB", 1}},
      {"Standard_NC48ads_A100_v4", {"A100-PCIe-80GB", 2}},
      {"Standard_NC96ads_A100_v4", {"A100-PCIe-80GB", 4}},
      {"Standard_NC40ads_H100_v5", {"H100-NVL-94GB", 1}},
      {"Standard_NC80adis_H100_v5", {"H100-NVL-94GB", 2}},
      {"Standard_ND96isr_H100_v5", {"H100-SXM-80GB", 8}},
      {"Standard_ND96amsr_A100_v4", {"A100-80GB", 8}},
      {"Standard_ND96asr_v4", {"A100-40GB", 8}},
      {"Standard_NC4as_T4_v3", {"T4", 1}},
      {"Standard_NC6s_v3", {"V100-16GB", 1}}};
  const auto it = known.find(type);
  if (it == known.end()) return std::nullopt;
  return it->second;
}

std::string price_table_to_text(const PriceTable& table) {
  nlohmann::ordered_json out;
  to_json(out, table);
  return out.dump(1) + "\n";
}

}  // namespace slicewise::pricing
