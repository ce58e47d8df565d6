#include "models/dtype.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace slicewise::models {
namespace {

TEST(Dtype, BytesPerParameterOfEveryFormat) {
  EXPECT_EQ(dtype_names(), (std::vector<std::string>{"fp32", "fp16", "bf16", "fp8", "int8", "int4"}));
  EXPECT_EQ(bytes_per_param("fp32"), 4.0);
  EXPECT_EQ(bytes_per_param("fp16"), 2.0);
  EXPECT_EQ(bytes_per_param("bf16"), 2.0);
  EXPECT_EQ(bytes_per_param("fp8"), 1.0);
  EXPECT_EQ(bytes_per_param("int8"), 1.0);
  EXPECT_EQ(bytes_per_param("int4"), 0.5);
}

TEST(Dtype, AnUnknownFormatNamesEveryKnownOne) {
  try {
    bytes_per_param("FP16");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "<input>: unknown LLM dtype \"FP16\"; expected fp32|fp16|bf16|fp8|int8|int4");
  }
}

}  // namespace
}  // namespace slicewise::models
