// libFuzzer harness: a result file through `slicewise export-config` (from a result, or an advice
// folder, whose result.json it reads): the result read and checked, then the deployment files of
// every strategy it names. Every message passes the hygiene check.
#include "core/error.hpp"
#include "fuzz/fuzz_input.hpp"
#include "report/deploy_config.hpp"
#include "scenario/result_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static slicewise::fuzz::InputFile input("result.json");
  slicewise::scenario::SimResult result;
  try {
    result = slicewise::scenario::load_result(input.write(slicewise::fuzz::bytes_of(data, size)));
  } catch (const slicewise::Error& e) {
    slicewise::fuzz::check_message(e.what());
    return 0;
  }
  for (const auto& strategy : result.strategies) {
    try {
      slicewise::report::deploy_configs(result, strategy.name, "slicewise");
    } catch (const slicewise::Error& e) {
      slicewise::fuzz::check_message(e.what());
    }
  }
  return 0;
}
