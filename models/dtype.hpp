// The numeric formats an LLM's weights are stored in, with their size: one list for the scenario
// reader, the roofline and the editors.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace slicewise::models {

struct Dtype {
  std::string name;        ///< "bf16", as scenarios spell it
  double bytes_per_param;  ///< 4 for fp32 down to 0.5 for int4
};

/// fp32, fp16, bf16, fp8, int8, int4: the order the docs and error messages list them.
const std::vector<Dtype>& dtypes();

/// The names of dtypes(), in order.
std::vector<std::string> dtype_names();

/// Bytes per parameter of `name`. Throws ConfigError naming every known dtype when it is unknown.
double bytes_per_param(std::string_view name);

}  // namespace slicewise::models
