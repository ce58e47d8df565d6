// The GPU catalog: the shipped data/gpus.json and the strict loader's messages.
#include "models/gpu_catalog.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace slicewise::models {
namespace {

const std::string kData = std::string(SW_TEST_DATA_DIR) + "/models/";

/// what() of the ConfigError that loading `file` throws, or "" when it loads.
std::string load_error(const std::string& file) {
  try {
    GpuCatalog::load(file);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(GpuCatalog, ShippedCatalogListsEveryReferenceGpuInOrder) {
  const std::vector<std::string> expected = {"A30-24GB",
                                             "A100-40GB",
                                             "A100-80GB",
                                             "A100-PCIe-80GB",
                                             "H100-SXM-80GB",
                                             "H100-PCIe-80GB",
                                             "H100-NVL-94GB",
                                             "H200",
                                             "GH200-96GB",
                                             "GH200-144GB",
                                             "B200",
                                             "L40S",
                                             "L4",
                                             "T4",
                                             "A10G",
                                             "V100-16GB",
                                             "V100-32GB"};
  EXPECT_EQ(GpuCatalog::shipped().ids(), expected);
  EXPECT_EQ(GpuCatalog::shipped().as_of(), "2026-11-22");
  EXPECT_FALSE(GpuCatalog::shipped().source().empty());
}

TEST(GpuCatalog, FindsGpusByIdAndByThePriceTableNames) {
  const auto& catalog = GpuCatalog::shipped();
  const std::vector<std::pair<std::string, std::string>> names = {
      {"A100-80GB", "A100-80GB"},           {"A100-SXM4-80GB", "A100-80GB"},
      {"A100-80GB PCIe", "A100-PCIe-80GB"}, {"A100-SXM4-40GB", "A100-40GB"},
      {"H100-80GB", "H100-SXM-80GB"},       {"H100 SXM 80GB", "H100-SXM-80GB"},
      {"H100 NVL 94GB", "H100-NVL-94GB"},   {"H200-141GB", "H200"},
      {"GH200-144GB-HBM3e", "GH200-144GB"}, {"B200-180GB", "B200"},
      {"V100-SXM2-32GB", "V100-32GB"}};
  for (const auto& [name, id] : names) {
    const GpuSpec* gpu = catalog.find(name);
    ASSERT_NE(gpu, nullptr) << name;
    EXPECT_EQ(gpu->id, id) << name;
  }
  EXPECT_EQ(catalog.find("A100"), nullptr);
  EXPECT_EQ(catalog.find("a100-80gb"), nullptr);  // exact match only
  // As nvidia-smi --query-gpu=name prints them: the catalog's name, or "NVIDIA " and an alias.
  ASSERT_NE(catalog.find("NVIDIA H100 80GB HBM3"), nullptr);
  EXPECT_EQ(catalog.find("NVIDIA H100 80GB HBM3")->id, "H100-SXM-80GB");
  ASSERT_NE(catalog.find("NVIDIA L40S"), nullptr);
  EXPECT_EQ(catalog.find("NVIDIA L40S")->id, "L40S");
  EXPECT_EQ(catalog.find("NVIDIA A100-SXM4-80GB")->id, "A100-80GB");
  EXPECT_EQ(catalog.find("NVIDIA "), nullptr);
  EXPECT_EQ(catalog.find("NVIDIA A100"), nullptr);
}

TEST(GpuCatalog, SuggestsIdsByAliasNameAndPrefixBeforeEditDistance) {
  const auto& catalog = GpuCatalog::shipped();
  // Edit distance alone suggested "H200" for "H100".
  EXPECT_EQ(catalog.did_you_mean_suffix("H100"),
            " (did you mean \"H100-SXM-80GB\", \"H100-PCIe-80GB\" or \"H100-NVL-94GB\"?)");
  EXPECT_EQ(catalog.did_you_mean_suffix("A100"), " (did you mean \"A100-40GB\", \"A100-80GB\" or \"A100-PCIe-80GB\"?)");
  EXPECT_EQ(catalog.did_you_mean_suffix("H100 SXM"), " (did you mean \"H100-SXM-80GB\"?)");
  EXPECT_EQ(catalog.did_you_mean_suffix("nvidia a100-sxm4-80gb"), " (did you mean \"A100-80GB\"?)");  // a name
  EXPECT_EQ(catalog.did_you_mean_suffix("Tesla"), " (did you mean \"T4\"?)");  // alias "Tesla T4"
  EXPECT_EQ(catalog.did_you_mean_suffix("H1OO-SXM-80GB"), " (did you mean \"H100-SXM-80GB\"?)");
  EXPECT_EQ(catalog.did_you_mean_suffix("A100-80G"), " (did you mean \"A100-80GB\"?)");
  EXPECT_EQ(catalog.did_you_mean_suffix("NVIDIA"), "");  // begins all seventeen names
  EXPECT_EQ(catalog.did_you_mean_suffix("Z9000"), "");
}

TEST(GpuCatalog, ShippedFiguresMatchTheReference) {
  const auto& catalog = GpuCatalog::shipped();
  const GpuSpec& a100 = *catalog.find("A100-80GB");
  EXPECT_EQ(a100.name, "NVIDIA A100-SXM4-80GB");
  EXPECT_EQ(a100.arch, "ampere");
  EXPECT_EQ(a100.num_sms, 108);
  EXPECT_EQ(a100.memory_gib, 80);
  EXPECT_EQ(a100.memory_bandwidth_gbps, 2000);
  EXPECT_EQ(a100.fp16_dense_tflops, 312);
  EXPECT_EQ(a100.tdp_w, 400);
  EXPECT_TRUE(a100.mig_capable);
  const GpuSpec& l40s = *catalog.find("L40S");
  EXPECT_EQ(l40s.num_sms, 142);
  EXPECT_EQ(l40s.memory_gib, 48);
  EXPECT_EQ(l40s.bf16_dense_tflops, 362);
  EXPECT_FALSE(l40s.mig_capable);
  EXPECT_EQ(catalog.find("V100-16GB")->memory_gib, 16);
  EXPECT_EQ(catalog.find("V100-32GB")->memory_gib, 32);
  EXPECT_EQ(catalog.find("H100-PCIe-80GB")->num_sms, 114);
}

TEST(GpuCatalog, FiguresTheReferenceLacksStayAbsent) {
  const auto& catalog = GpuCatalog::shipped();
  const GpuSpec& nvl = *catalog.find("H100-NVL-94GB");
  EXPECT_FALSE(nvl.fp16_dense_tflops.has_value());
  EXPECT_FALSE(nvl.bf16_dense_tflops.has_value());
  EXPECT_FALSE(nvl.tdp_w.has_value());
  for (const char* id : {"GH200-96GB", "GH200-144GB", "B200"}) EXPECT_FALSE(catalog.find(id)->tdp_w.has_value()) << id;
  for (const char* id : {"T4", "V100-16GB", "V100-32GB"}) {
    EXPECT_FALSE(catalog.find(id)->bf16_dense_tflops.has_value()) << id;
    EXPECT_TRUE(catalog.find(id)->fp16_dense_tflops.has_value()) << id;
  }
}

TEST(GpuCatalog, EveryEntryNamesItsSourceAndDate) {
  for (const auto& gpu : GpuCatalog::shipped().gpus()) {
    EXPECT_NE(gpu.source.find("via ../shared/reference/gpus.json"), std::string::npos) << gpu.id;
    EXPECT_FALSE(gpu.as_of.empty()) << gpu.id;
  }
}

TEST(GpuCatalog, ReportsEveryBadFieldAtOnce) {
  const std::string file = kData + "gpus-bad-fields.json";
  EXPECT_EQ(load_error(file),
            file +
                ": /gpus/0/arch: unknown \"hoper\"; expected volta|turing|ampere|ada|hopper|blackwell (did you mean "
                "\"hopper\"?)\n" +
                file + ": /gpus/0: missing required key \"num_sms\"\n" + file +
                ": /gpus/0/num_smz: unknown key (did you mean \"num_sms\"?)\n" + file +
                ": /gpus/1/aliases/0: duplicate GPU id or alias \"X100\" (also /gpus/0/id)\n" + file +
                ": /gpus/1/aliases/1: expected a non-empty string (got \"\")\n" + file +
                ": /gpus/1/num_sms: must be > 0 (got -4)\n" + file + ": /gpus/1/memory_gib: must be > 0 (got 0)\n" +
                file + ": /gpus/1/as_of: expected a date YYYY-MM or YYYY-MM-DD (got \"22/11/2026\")");
}

TEST(GpuCatalog, ShippedIdlePowersAreMeasuredBelowTdpAndSourced) {
  const auto& catalog = GpuCatalog::shipped();
  EXPECT_EQ(catalog.find("H100-SXM-80GB")->idle_w, 85);
  EXPECT_EQ(catalog.find("L4")->idle_w, 16);
  EXPECT_EQ(catalog.find("T4")->idle_w, 9);
  int measured = 0;
  for (const auto& gpu : catalog.gpus()) {
    if (!gpu.idle_w) {
      EXPECT_TRUE(gpu.idle_source.empty()) << gpu.id;
      continue;
    }
    ++measured;
    ASSERT_TRUE(gpu.tdp_w.has_value()) << gpu.id;
    EXPECT_GT(*gpu.idle_w, 0.0) << gpu.id;
    EXPECT_LT(*gpu.idle_w, *gpu.tdp_w) << gpu.id;
    EXPECT_NE(gpu.idle_source.find("nvidia-smi"), std::string::npos) << gpu.id;
  }
  EXPECT_EQ(measured, 9);
  // Left to the estimate (docs/energy.md): no public reading was found.
  for (const char* id : {"A30-24GB", "A100-PCIe-80GB", "H100-PCIe-80GB", "V100-32GB"}) {
    EXPECT_FALSE(catalog.find(id)->idle_w.has_value()) << id;
  }
}

TEST(GpuCatalog, RejectsAnIdlePowerNotBelowTdpOrWithoutItsSource) {
  const std::string file = kData + "gpus-bad-idle.json";
  EXPECT_EQ(load_error(file), file + ": /gpus/0/idle_w: must be below tdp_w (300 W) (got 300)\n" + file +
                                  ": /gpus/1/idle_w: must be below tdp_w (300 W) (got 450)\n" + file +
                                  ": /gpus/2/idle_w: must be > 0 (got -5)\n" + file +
                                  ": /gpus/3/idle_w: needs \"tdp_w\": power rises from idle_w to tdp_w with "
                                  "utilisation\n" +
                                  file +
                                  ": /gpus/4/idle_w: needs \"idle_source\": where the idle power was measured\n" +
                                  file + ": /gpus/5/idle_source: given without \"idle_w\"\n" + file +
                                  ": /gpus/6/idle_w: expected number (got \"30 W\")\n" + file +
                                  ": /gpus/6/idle_source: expected a non-empty string (got \"\")");
}

TEST(GpuCatalog, EveryShippedGpuNamesItsInterconnect) {
  for (const auto& gpu : GpuCatalog::shipped().gpus()) {
    SCOPED_TRACE(gpu.id);
    EXPECT_TRUE(gpu.interconnect == "nvlink" || gpu.interconnect == "pcie");
    EXPECT_GE(gpu.interconnect_gbps, 32.0);  // PCIe Gen3 x16, the slowest
  }
  EXPECT_EQ(GpuCatalog::shipped().find("H100-SXM-80GB")->interconnect_gbps, 900.0);
  EXPECT_EQ(GpuCatalog::shipped().find("L40S")->interconnect, "pcie");
}

TEST(GpuCatalog, RejectsAnInterconnectWithoutItsBandwidth) {
  const std::string file = kData + "gpus-bad-interconnect.json";
  const std::string message = load_error(file);
  for (const std::string line :
       {": /gpus/0/interconnect: give \"interconnect\" and \"interconnect_gbps\" together",
        ": /gpus/1/interconnect_gbps: give \"interconnect\" and \"interconnect_gbps\" together",
        ": /gpus/2/interconnect: unknown \"infiniband\"; expected nvlink|pcie",
        ": /gpus/2/interconnect_gbps: must be > 0 (got -1)"}) {
    EXPECT_NE(message.find(file + line), std::string::npos) << line << " in\n" << message;
  }
}

TEST(GpuCatalog, RejectsAnotherSchemaVersionAndAnEmptyList) {
  const std::string file = kData + "gpus-schema-version-2.json";
  EXPECT_EQ(load_error(file), file + ": /schema_version: unsupported schema version (got 2; supported: 1)\n" + file +
                                  ": /gpus: must list at least one GPU (got [])\n" + file +
                                  ": /gpu: unknown key (did you mean \"gpus\"?)");
}

TEST(GpuCatalog, MissingFileIsAConfigError) {
  EXPECT_THROW(GpuCatalog::load(kData + "no-such-file.json"), ConfigError);
}

}  // namespace
}  // namespace slicewise::models
