// libFuzzer harness: the price inputs. The first byte picks the parser: a price table
// (data/prices/*.json), an on-prem TCO table, an AWS Price List offer file or an Azure Retail
// Prices page (`slicewise prices import`); the rest is the file.
#include "core/error.hpp"
#include "fuzz/fuzz_input.hpp"
#include "pricing/onprem.hpp"
#include "pricing/price_import.hpp"
#include "pricing/price_table.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace slicewise::pricing;
  static slicewise::fuzz::InputFile input("prices.json");
  if (size == 0) return 0;
  const auto& path = input.write(slicewise::fuzz::bytes_of(data + 1, size - 1));
  try {
    switch (data[0] % 4) {
      case 0: PriceTable::load(path); break;
      case 1: OnPremTable::load(path); break;
      case 2: import_prices({path}, ImportFormat::aws_offer, "fuzz", known_instance_gpu); break;
      default: import_prices({path}, ImportFormat::azure_retail, "fuzz", known_instance_gpu);
    }
  } catch (const slicewise::Error& e) {
    slicewise::fuzz::check_message(e.what());
  }
  return 0;
}
