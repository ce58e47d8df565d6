// libFuzzer harness: a sweep file, read and checked (every point's scenario too) as `slicewise
// sweep` does before it runs anything. The example bases sit beside it, so that the seed corpus's
// sweeps resolve and the fuzzer reaches the axes.
#include <filesystem>

#include "core/error.hpp"
#include "fuzz/fuzz_input.hpp"
#include "scenario/sweep.hpp"

namespace {
slicewise::fuzz::InputFile& input() {
  static slicewise::fuzz::InputFile file("sweep.json");
  static const bool bases = [] {
    for (const char* base : {"seed-l40s-timeslicing.json", "mixed-mig-h100.json", "ten-light-jobs-a100.json"}) {
      std::filesystem::copy_file(std::filesystem::path(SW_SOURCE_DIR) / "examples" / base, file.beside(base),
                                 std::filesystem::copy_options::overwrite_existing);
    }
    return true;
  }();
  (void)bases;
  return file;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    slicewise::scenario::load_sweep(input().write(slicewise::fuzz::bytes_of(data, size)));
  } catch (const slicewise::Error& e) {
    slicewise::fuzz::check_message(e.what());
  }
  return 0;
}
