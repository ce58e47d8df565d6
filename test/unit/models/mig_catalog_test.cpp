// The MIG geometry catalog: the shipped data/mig_profiles.json, its consistency with the GPU
// catalog, and the strict loader's messages.
#include "models/mig_catalog.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "models/gpu_catalog.hpp"

namespace slicewise::models {
namespace {

const std::string kData = std::string(SW_TEST_DATA_DIR) + "/models/";

std::string load_error(const std::string& file) {
  try {
    MigCatalog::load(file);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(MigCatalog, ShippedCatalogCoversTheReferenceGpus) {
  std::vector<std::string> ids;
  for (const auto& gpu : MigCatalog::shipped().gpus()) ids.push_back(gpu.gpu_id);
  EXPECT_EQ(ids,
            (std::vector<std::string>{"A30-24GB", "A100-40GB", "A100-80GB", "A100-PCIe-80GB", "H100-SXM-80GB",
                                      "H100-PCIe-80GB", "H100-NVL-94GB", "H200", "GH200-96GB", "GH200-144GB", "B200"}));
}

TEST(MigCatalog, EveryMigGpuIsAMigCapableGpuOfTheGpuCatalog) {
  for (const auto& mig : MigCatalog::shipped().gpus()) {
    const GpuSpec* gpu = GpuCatalog::shipped().find(mig.gpu_id);
    ASSERT_NE(gpu, nullptr) << mig.gpu_id;
    EXPECT_EQ(gpu->id, mig.gpu_id) << "MIG entries use the catalog id, not an alias";
    EXPECT_TRUE(gpu->mig_capable) << mig.gpu_id;
  }
  // And the other way round: a GPU `slicewise gpus` lists as MIG-capable can run the mig strategies
  // (A100-PCIe-80GB was listed, then refused with "needs a MIG-capable GPU").
  std::vector<std::string> without_geometry;
  for (const auto& gpu : GpuCatalog::shipped().gpus()) {
    if (gpu.mig_capable && !MigCatalog::shipped().find(gpu.id)) without_geometry.push_back(gpu.id);
  }
  EXPECT_EQ(without_geometry, std::vector<std::string>{});
}

TEST(MigCatalog, WholeGpuProfileHasTheDocumentedSmCount) {
  // The full-GPU profile (7g, or 4g on A30): all SMs on Hopper; 98 of 108 on A100 (the MIG gap).
  const std::map<std::string, std::pair<std::string, int>> expected = {
      {"A30-24GB", {"4g.24gb", 56}},       {"A100-40GB", {"7g.40gb", 98}},      {"A100-80GB", {"7g.80gb", 98}},
      {"A100-PCIe-80GB", {"7g.80gb", 98}}, {"H100-SXM-80GB", {"7g.80gb", 132}}, {"H100-PCIe-80GB", {"7g.80gb", 114}},
      {"H100-NVL-94GB", {"7g.94gb", 132}}, {"H200", {"7g.141gb", 132}},         {"GH200-96GB", {"7g.96gb", 132}},
      {"GH200-144GB", {"7g.144gb", 132}},  {"B200", {"7g.180gb", 126}}};
  for (const auto& mig : MigCatalog::shipped().gpus()) {
    const auto& [name, sms] = expected.at(mig.gpu_id);
    const MigProfile* whole = mig.find(name);
    ASSERT_NE(whole, nullptr) << mig.gpu_id;
    EXPECT_EQ(whole->compute_slices, mig.compute_slices) << mig.gpu_id;
    EXPECT_EQ(whole->memory_slices, mig.memory_slots) << mig.gpu_id;
    EXPECT_EQ(whole->num_sms, sms) << mig.gpu_id;
    const GpuSpec& gpu = *GpuCatalog::shipped().find(mig.gpu_id);
    for (const auto& profile : mig.profiles) {
      EXPECT_LE(profile.num_sms, gpu.num_sms) << mig.gpu_id << " " << profile.name;
      EXPECT_LE(profile.memory_gib, gpu.memory_gib) << mig.gpu_id << " " << profile.name;
    }
    if (gpu.arch == "hopper" && mig.gpu_id != "GH200-144GB") {
      EXPECT_EQ(whole->num_sms, gpu.num_sms) << mig.gpu_id;
    }
  }
}

TEST(MigCatalog, A100ProfilesMatchTheMigUserGuide) {
  const MigGpu& a100 = *MigCatalog::shipped().find("A100-80GB");
  EXPECT_EQ(a100.compute_slices, 7);
  EXPECT_EQ(a100.memory_slots, 8);
  EXPECT_EQ(a100.profile_names(),
            (std::vector<std::string>{"1g.10gb", "1g.10gb+me", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb"}));
  const MigProfile& small = *a100.find("1g.10gb");
  EXPECT_EQ(small.memory_gib, 9.5);
  EXPECT_EQ(small.num_sms, 14);
  EXPECT_EQ(small.max_instances, 7);
  EXPECT_EQ(small.placement_starts, (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_TRUE(a100.find("1g.10gb+me")->media_extensions);
  EXPECT_EQ(a100.find("1g.10gb+me")->max_instances, 1);
  EXPECT_EQ(a100.find("3g.40gb")->placement_starts, (std::vector<int>{0, 4}));
  EXPECT_EQ(a100.find("4g.40gb")->placement_starts, (std::vector<int>{0}));
  EXPECT_EQ(a100.find("2g.20gb")->placement_starts, (std::vector<int>{0, 2, 4}));
  EXPECT_EQ(a100.find("1g.20gb")->placement_starts, (std::vector<int>{0, 2, 4, 6}));
  EXPECT_EQ(a100.find("5g.40gb"), nullptr);
}

TEST(MigCatalog, EstimatedFiguresAreMarkedAndExplained) {
  std::set<std::string> estimated;
  for (const auto& gpu : MigCatalog::shipped().gpus()) {
    for (const auto& profile : gpu.profiles) {
      if (!profile.estimated) continue;
      estimated.insert(gpu.gpu_id + " " + profile.name);
      EXPECT_FALSE(profile.note.empty()) << gpu.gpu_id << " " << profile.name;
    }
  }
  EXPECT_EQ(estimated, (std::set<std::string>{"A30-24GB 1g.6gb", "A30-24GB 1g.6gb+me", "A30-24GB 2g.12gb",
                                              "A30-24GB 2g.12gb+me", "A30-24GB 4g.24gb", "A100-40GB 1g.5gb+me",
                                              "GH200-144GB 3g.72gb", "GH200-144GB 4g.72gb", "GH200-144GB 7g.144gb",
                                              "B200 3g.90gb", "B200 4g.90gb", "B200 7g.180gb"}));
}

TEST(MigCatalog, ReportsEveryGeometryProblemAtOnce) {
  const std::string file = kData + "mig-bad-geometry.json";
  const std::string p = file + ": /gpus/0/profiles/";
  EXPECT_EQ(load_error(file),
            p + "0/placement_starts/3: must be in [0, 6]: a 2-slice profile must fit in the 8 memory slots (got 7)\n" +
                p + "1/compute_slices: must be <= 7, the GPU's compute_slices (got 8)\n" + p +
                "1/num_sms: must be > 0 (got -98)\n" + file +
                ": /gpus/0/profiles/1: missing required key \"max_instances\"\n" + p +
                "1/max_instance: unknown key (did you mean \"max_instances\"?)\n" + p +
                "2/placement_starts/2: duplicate placement start 2 (also /gpus/0/profiles/2/placement_starts/1)\n" + p +
                "2/media_extensions: must be false for \"1g.20gb\" (only \"+me\" profiles have media extensions)\n" +
                p + "2/estimated: an estimated profile must say what was estimated in \"note\"\n" + p +
                "2/name: duplicate profile \"1g.20gb\" (also /gpus/0/profiles/0/name)");
}

TEST(MigCatalog, MissingFileIsAConfigError) {
  EXPECT_THROW(MigCatalog::load(kData + "no-such-file.json"), ConfigError);
}

}  // namespace
}  // namespace slicewise::models
