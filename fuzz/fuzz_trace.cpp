// libFuzzer harness: a trace file in each format. The first byte picks the format (its low bits)
// and the bad-row policy (its top bit); the rest is the file, read to its last row. An openb node
// list is also read as a fleet (`slicewise trace fleet`).
#include "core/error.hpp"
#include "fuzz/fuzz_input.hpp"
#include "traces/node_inventory.hpp"
#include "traces/trace_format.hpp"
#include "traces/trace_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace slicewise::traces;
  static slicewise::fuzz::InputFile input("trace.csv");
  if (size == 0) return 0;
  const auto& names = trace_format_names();
  const auto format = static_cast<TraceFormat>(data[0] % names.size());
  const auto policy = (data[0] & 0x80) != 0 ? BadRowPolicy::skip : BadRowPolicy::fail;
  const std::string path = input.write(slicewise::fuzz::bytes_of(data + 1, size - 1)).string();
  try {
    ReadOptions options;
    options.on_bad_row = policy;
    auto reader = open_trace(path, format, options);
    TraceRow row;
    while (reader->next(row)) {
    }
  } catch (const slicewise::Error& e) {
    slicewise::fuzz::check_message(e.what());
  }
  if (format == TraceFormat::openb_nodes) {
    try {
      read_node_inventory(path, format, policy);
    } catch (const slicewise::Error& e) {
      slicewise::fuzz::check_message(e.what());
    }
  }
  return 0;
}
