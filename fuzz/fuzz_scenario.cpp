// libFuzzer harness: a scenario file, read and validated as `slicewise validate` does.
#include "core/error.hpp"
#include "fuzz/fuzz_input.hpp"
#include "scenario/json_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static slicewise::fuzz::InputFile input("scenario.json");
  try {
    slicewise::scenario::load_scenario(input.write(slicewise::fuzz::bytes_of(data, size)));
  } catch (const slicewise::Error& e) {
    slicewise::fuzz::check_message(e.what());
  }
  return 0;
}
