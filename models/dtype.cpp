// The weight formats and their sizes.
#include "models/dtype.hpp"

#include "core/error.hpp"
#include "core/spell.hpp"

namespace slicewise::models {

const std::vector<Dtype>& dtypes() {
  static const std::vector<Dtype> list = {{"fp32", 4.0}, {"fp16", 2.0}, {"bf16", 2.0},
                                          {"fp8", 1.0},  {"int8", 1.0}, {"int4", 0.5}};
  return list;
}

std::vector<std::string> dtype_names() {
  std::vector<std::string> names;
  for (const auto& dtype : dtypes()) names.push_back(dtype.name);
  return names;
}

double bytes_per_param(std::string_view name) {
  for (const auto& dtype : dtypes()) {
    if (dtype.name == name) return dtype.bytes_per_param;
  }
  throw ConfigError("", "", "unknown LLM dtype \"" + std::string(name) + "\"; expected " + join(dtype_names(), "|"));
}

}  // namespace slicewise::models
