// libFuzzer harness: a result file, read and checked as `slicewise roi` and `report` do.
#include "core/error.hpp"
#include "fuzz/fuzz_input.hpp"
#include "scenario/result_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static slicewise::fuzz::InputFile input("result.json");
  try {
    slicewise::scenario::load_result(input.write(slicewise::fuzz::bytes_of(data, size)));
  } catch (const slicewise::Error& e) {
    slicewise::fuzz::check_message(e.what());
  }
  return 0;
}
