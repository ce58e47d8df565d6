// libFuzzer harness: a telemetry file (`slicewise profile import`). The first byte picks the format
// (its low bits), the grouping (bit 2: the format's second one where it has one) and the bad-row
// policy (its top bit); the rest is the file, read whole, estimated and written as JSON.
#include "calibration/tenant_profile.hpp"
#include "core/error.hpp"
#include "fuzz/fuzz_input.hpp"
#include "models/gpu_catalog.hpp"
#include "traces/telemetry_readers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace slicewise::traces;
  static slicewise::fuzz::InputFile input("pai_sensor_table.csv");
  if (size == 0) return 0;
  const auto format = static_cast<TelemetryFormat>(data[0] % telemetry_format_names().size());
  const auto& groupings = groupings_of(format);
  TelemetryOptions options;
  options.on_bad_row = (data[0] & 0x80) != 0 ? BadRowPolicy::skip : BadRowPolicy::fail;
  options.group_by = groupings[(data[0] & 0x04) != 0 ? groupings.size() - 1 : 0];
  const std::string path = input.write(slicewise::fuzz::bytes_of(data + 1, size - 1)).string();
  try {
    const auto telemetry = read_telemetry(path, format, options);
    const auto profiles =
        slicewise::calibration::estimate_tenants(telemetry, {}, slicewise::models::GpuCatalog::shipped());
    (void)slicewise::calibration::to_json(telemetry, profiles)
        .dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  } catch (const slicewise::Error& e) {
    slicewise::fuzz::check_message(e.what());
  }
  return 0;
}
