// MIG layouts: parsing, placement by the slot rules, the reasons given for invalid layouts, and the
// enumeration of maximal layouts (mostly on the shipped A100-80GB geometry).
#include "models/mig_layout.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace slicewise::models {
namespace {

const MigGpu& a100() { return *MigCatalog::shipped().find("A100-80GB"); }

std::string reason(const MigGpu& gpu, std::string_view layout) {
  const MigPlacement placement = place_mig_layout(gpu, layout);
  EXPECT_FALSE(placement.valid) << layout;
  return placement.reason;
}

std::vector<std::string> split(std::string_view text) {
  std::string error;
  auto names = split_mig_layout(text, error);
  EXPECT_EQ(error, "") << text;
  return names;
}

std::string split_error(std::string_view text) {
  std::string error;
  EXPECT_TRUE(split_mig_layout(text, error).empty()) << text;
  return error;
}

// ---- placement -------------------------------------------------------------------------------

TEST(MigLayout, FourSliceAndThreeSliceProfilesShareTheGpu) {
  const MigPlacement p = place_mig_layout(a100(), "4g.40gb+3g.40gb");
  ASSERT_TRUE(p.valid) << p.reason;
  EXPECT_EQ(p.reason, "");
  EXPECT_EQ(p.instances, (std::vector<MigInstance>{{"4g.40gb", 0, 4, 4, 56, 39.25}, {"3g.40gb", 4, 4, 3, 42, 39.25}}));
  EXPECT_EQ(p.total_compute_slices, 7);
  EXPECT_EQ(p.total_sms, 98);
  EXPECT_DOUBLE_EQ(p.total_memory_gib, 78.5);
}

TEST(MigLayout, TwoFourSliceProfilesExceedTheirInstanceLimit) {
  EXPECT_EQ(reason(a100(), "4g.40gb+4g.40gb"), "4g.40gb allows at most 1 instance per GPU (got 2)");
}

TEST(MigLayout, SevenSmallestInstancesUseSlotsZeroToSix) {
  const MigPlacement p = place_mig_layout(a100(), "7x1g.10gb");
  ASSERT_TRUE(p.valid) << p.reason;
  ASSERT_EQ(p.instances.size(), 7u);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(p.instances[static_cast<std::size_t>(i)].start_slot, i);
  EXPECT_EQ(p.total_compute_slices, 7);
  EXPECT_EQ(p.total_sms, 98);                  // 7 x 14, as the whole-GPU 7g.80gb profile
  EXPECT_DOUBLE_EQ(p.total_memory_gib, 66.5);  // 7 x 9.5 GiB: slot 7 stays unused
  EXPECT_EQ(p.total_sms, a100().find("7g.80gb")->num_sms);
}

TEST(MigLayout, TwoThreeSliceHalvesFit) {
  const MigPlacement p = place_mig_layout(a100(), "3g.40gb+3g.40gb");
  ASSERT_TRUE(p.valid) << p.reason;
  EXPECT_EQ(p.instances[0].start_slot, 0);
  EXPECT_EQ(p.instances[1].start_slot, 4);
  EXPECT_EQ(p.total_compute_slices, 6);
  EXPECT_EQ(p.total_sms, 84);
  EXPECT_DOUBLE_EQ(p.total_memory_gib, 78.5);
}

TEST(MigLayout, ThreeTwoOneOneFitsWithTheThreeSliceProfileInTheUpperHalf) {
  const MigPlacement p = place_mig_layout(a100(), "3g.40gb+2g.20gb+1g.10gb+1g.10gb");
  ASSERT_TRUE(p.valid) << p.reason;
  // Instances keep the order the layout named them; 1g profiles cannot start at slot 7.
  EXPECT_EQ(p.instances, (std::vector<MigInstance>{{"3g.40gb", 4, 4, 3, 42, 39.25},
                                                   {"2g.20gb", 0, 2, 2, 28, 19.5},
                                                   {"1g.10gb", 2, 1, 1, 14, 9.5},
                                                   {"1g.10gb", 3, 1, 1, 14, 9.5}}));
  EXPECT_EQ(p.total_compute_slices, 7);
  EXPECT_EQ(p.total_sms, 98);
  EXPECT_DOUBLE_EQ(p.total_memory_gib, 77.75);
}

TEST(MigLayout, EightSmallestInstancesExceedTheirInstanceLimit) {
  EXPECT_EQ(reason(a100(), "8x1g.10gb"), "1g.10gb allows at most 7 instances per GPU (got 8)");
}

TEST(MigLayout, MoreComputeSlicesThanTheGpuHasAreRejected) {
  EXPECT_EQ(reason(a100(), "4g.40gb+2g.20gb+2g.20gb"), "needs 8 compute slices; A100-80GB has 7");
  EXPECT_EQ(reason(a100(), "7g.80gb+1g.10gb"), "needs 8 compute slices; A100-80GB has 7");
}

TEST(MigLayout, TwoHalvesLeaveNoSlotForAOneSliceInstance) {
  // docs/design.md §10 lists "2 x 3g.40gb + 1 x 1g.10gb"; the placement rules do not allow it.
  EXPECT_EQ(reason(a100(), "2x3g.40gb+1g.10gb"),
            "no placement fits: 1g.10gb can start only at slots 0, 1, 2, 3, 4, 5 or 6, which 3g.40gb@0 (slots 0-3) and "
            "3g.40gb@4 (slots 4-7) already use (the layout needs 9 memory slices; A100-80GB has 8)");
  EXPECT_EQ(reason(a100(), "4g.40gb+1g.20gb+1g.20gb+1g.10gb"),
            "no placement fits: 1g.10gb can start only at slots 0, 1, 2, 3, 4, 5 or 6, which 4g.40gb@0 (slots 0-3), "
            "1g.20gb@4 (slots 4-5) and 1g.20gb@6 (slots 6-7) already use (the layout needs 9 memory slices; A100-80GB "
            "has 8)");
}

TEST(MigLayout, CollisionNamesTheInstanceHoldingTheOnlyStart) {
  // A geometry where a small profile may only start where the large one sits.
  MigGpu gpu;
  gpu.gpu_id = "X100";
  gpu.compute_slices = 7;
  gpu.memory_slots = 8;
  gpu.profiles = {{"1g.20gb", 1, 2, 19.5, 14, 1, {0}, false, false, ""},
                  {"4g.40gb", 4, 4, 39.25, 56, 1, {0}, false, false, ""}};
  EXPECT_EQ(reason(gpu, "1g.20gb+4g.40gb"),
            "no placement fits: 1g.20gb can start only at slot 0, which 4g.40gb@0 (slots 0-3) already uses");
}

TEST(MigLayout, UnknownProfileListsTheGpuProfilesAndSuggestsTheClosest) {
  EXPECT_EQ(reason(a100(), "3g.40gb+2g.20g"),
            "unknown MIG profile \"2g.20g\" for A100-80GB; expected "
            "1g.10gb|1g.10gb+me|1g.20gb|2g.20gb|3g.40gb|4g.40gb|7g.80gb (did you mean \"2g.20gb\"?)");
  EXPECT_EQ(reason(a100(), "half"),
            "unknown MIG profile \"half\" for A100-80GB; expected "
            "1g.10gb|1g.10gb+me|1g.20gb|2g.20gb|3g.40gb|4g.40gb|7g.80gb");
}

TEST(MigLayout, MediaExtensionsProfileIsLimitedToOneInstance) {
  const MigPlacement p = place_mig_layout(a100(), "1g.10gb+me+6x1g.10gb");
  ASSERT_TRUE(p.valid) << p.reason;
  EXPECT_EQ(p.instances[0].profile, "1g.10gb+me");
  EXPECT_EQ(reason(a100(), "2x1g.10gb+me"), "1g.10gb+me allows at most 1 instance per GPU (got 2)");
}

TEST(MigLayout, OnlyOneMediaExtensionsInstancePerGpu) {
  const MigGpu& a30 = *MigCatalog::shipped().find("A30-24GB");
  EXPECT_EQ(reason(a30, "1g.6gb+me+2g.12gb+me"),
            "at most one +me (media extensions) instance per GPU (got 2: 1g.6gb+me, 2g.12gb+me)");
}

TEST(MigLayout, EmptyLayoutIsInvalid) {
  EXPECT_EQ(place_mig_layout(a100(), std::vector<std::string>{}).reason,
            "empty layout; expected profiles joined by '+', e.g. 3g.40gb+2g.20gb+1g.10gb+1g.10gb");
  EXPECT_EQ(reason(a100(), "3g.40gb+"), "empty profile in \"3g.40gb+\" (two '+' in a row, or one at an end)");
}

// ---- syntax ----------------------------------------------------------------------------------

TEST(MigLayoutSyntax, AcceptsPlusCountsAndSpaces) {
  EXPECT_EQ(split("3g.40gb+2g.20gb+1g.10gb+1g.10gb"),
            (std::vector<std::string>{"3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb"}));
  EXPECT_EQ(split("7x1g.10gb"), std::vector<std::string>(7, "1g.10gb"));
  EXPECT_EQ(split("2\xC3\x97"
                  "3g.40gb"),
            std::vector<std::string>(2, "3g.40gb"));  // 2×3g.40gb
  EXPECT_EQ(split(" 3g.40gb + 2 x 2g.20gb "), (std::vector<std::string>{"3g.40gb", "2g.20gb", "2g.20gb"}));
}

TEST(MigLayoutSyntax, MediaExtensionsSuffixStaysWithItsProfile) {
  EXPECT_EQ(split("1g.10gb+me+3g.40gb"), (std::vector<std::string>{"1g.10gb+me", "3g.40gb"}));
  EXPECT_EQ(split("3g.40gb+2x1g.10gb+me"), (std::vector<std::string>{"3g.40gb", "1g.10gb+me", "1g.10gb+me"}));
}

TEST(MigLayoutSyntax, ReportsBadSyntax) {
  EXPECT_EQ(split_error(""), "empty layout; expected profiles joined by '+', e.g. 3g.40gb+2g.20gb+1g.10gb+1g.10gb");
  EXPECT_EQ(split_error("  "), "empty layout; expected profiles joined by '+', e.g. 3g.40gb+2g.20gb+1g.10gb+1g.10gb");
  EXPECT_EQ(split_error("3g.40gb++1g.10gb"),
            "empty profile in \"3g.40gb++1g.10gb\" (two '+' in a row, or one at an end)");
  EXPECT_EQ(split_error("+3g.40gb"), "empty profile in \"+3g.40gb\" (two '+' in a row, or one at an end)");
  EXPECT_EQ(split_error("0x1g.10gb"), "count must be at least 1 in \"0x1g.10gb\"");
  EXPECT_EQ(split_error("3g.40gb+7x"), "missing profile after the count in \"7x\" (e.g. 7x1g.10gb)");
  EXPECT_EQ(split_error("100x1g.10gb"), "count must be at most 64 in \"100x1g.10gb\"");
}

TEST(MigLayoutSyntax, CanonicalTextOrdersLargestFirst) {
  EXPECT_EQ(canonical_mig_layout({"1g.10gb", "3g.40gb", "1g.20gb", "2g.20gb", "1g.10gb+me"}),
            "3g.40gb+2g.20gb+1g.20gb+1g.10gb+1g.10gb+me");
  EXPECT_EQ(canonical_mig_layout({"1g.10gb", "7g.80gb"}), "7g.80gb+1g.10gb");
  EXPECT_EQ(canonical_mig_layout({}), "");
}

// ---- enumeration -----------------------------------------------------------------------------

/// True when adding any one profile of `gpu` (same +me choice) makes `layout` invalid.
bool is_maximal(const MigGpu& gpu, const std::string& layout, bool include_media_extensions) {
  for (const auto& profile : gpu.profiles) {
    if (profile.media_extensions && !include_media_extensions) continue;
    if (place_mig_layout(gpu, layout + "+" + profile.name).valid) return false;
  }
  return true;
}

TEST(MigLayoutEnumeration, A100ListsEveryMaximalLayout) {
  // By hand: 7 compute slices, 8 memory slots; 1g.10gb may not start at slot 7, so 7 x 1g.10gb
  // leaves slot 7 empty; 3g.40gb + 3g.40gb fills every slot, so docs/design.md §10's 2 x 3g.40gb + 1g.10gb
  // is impossible and the halves alone are maximal (6 compute slices).
  const std::vector<std::string> expected = {
      "1g.10gb+1g.10gb+1g.10gb+1g.10gb+1g.10gb+1g.10gb+1g.10gb",
      "1g.20gb+1g.10gb+1g.10gb+1g.10gb+1g.10gb+1g.10gb+1g.10gb",
      "2g.20gb+1g.10gb+1g.10gb+1g.10gb+1g.10gb+1g.10gb",
      "2g.20gb+1g.20gb+1g.10gb+1g.10gb+1g.10gb+1g.10gb",
      "2g.20gb+2g.20gb+1g.10gb+1g.10gb+1g.10gb",
      "2g.20gb+2g.20gb+1g.20gb+1g.10gb+1g.10gb",
      "2g.20gb+2g.20gb+2g.20gb+1g.10gb",
      "2g.20gb+2g.20gb+2g.20gb+1g.20gb",
      "3g.40gb+1g.10gb+1g.10gb+1g.10gb+1g.10gb",
      "3g.40gb+2g.20gb+1g.10gb+1g.10gb",
      "3g.40gb+2g.20gb+2g.20gb",
      "4g.40gb+1g.10gb+1g.10gb+1g.10gb",
      "4g.40gb+1g.20gb+1g.10gb+1g.10gb",
      "4g.40gb+2g.20gb+1g.10gb",
      "4g.40gb+2g.20gb+1g.20gb",
      "4g.40gb+3g.40gb",
      "7g.80gb",
      "1g.20gb+1g.20gb+1g.10gb+1g.10gb+1g.10gb+1g.10gb",
      "2g.20gb+1g.20gb+1g.20gb+1g.10gb+1g.10gb",
      "2g.20gb+2g.20gb+1g.20gb+1g.20gb",
      "3g.40gb+1g.20gb+1g.10gb+1g.10gb",
      "3g.40gb+2g.20gb+1g.20gb",
      "3g.40gb+3g.40gb",
      "4g.40gb+1g.20gb+1g.20gb",
      "1g.20gb+1g.20gb+1g.20gb+1g.10gb+1g.10gb",
      "2g.20gb+1g.20gb+1g.20gb+1g.20gb",
      "3g.40gb+1g.20gb+1g.20gb",
      "1g.20gb+1g.20gb+1g.20gb+1g.20gb",
  };
  EXPECT_EQ(enumerate_mig_layouts(a100()), expected);
}

TEST(MigLayoutEnumeration, A100IncludesTheSeedConfigurationsThatFit) {
  const auto layouts = enumerate_mig_layouts(a100());
  auto listed = [&](const std::string& text) {
    std::string error;
    const auto canonical = canonical_mig_layout(split_mig_layout(text, error));
    return std::find(layouts.begin(), layouts.end(), canonical) != layouts.end();
  };
  EXPECT_TRUE(listed("7x1g.10gb"));
  EXPECT_TRUE(listed("3x2g.20gb+1g.10gb"));
  EXPECT_TRUE(listed("7g.80gb"));
  EXPECT_FALSE(listed("2x3g.40gb+1g.10gb"));
}

TEST(MigLayoutEnumeration, EveryLayoutOfEveryGpuIsValidAndMaximal) {
  for (const auto& gpu : MigCatalog::shipped().gpus()) {
    for (bool media : {false, true}) {
      const auto layouts = enumerate_mig_layouts(gpu, media);
      EXPECT_FALSE(layouts.empty()) << gpu.gpu_id;
      for (const auto& layout : layouts) {
        const MigPlacement p = place_mig_layout(gpu, layout);
        EXPECT_TRUE(p.valid) << gpu.gpu_id << " " << layout << ": " << p.reason;
        EXPECT_TRUE(is_maximal(gpu, layout, media)) << gpu.gpu_id << " " << layout;
        if (!media) {
          EXPECT_EQ(layout.find("+me"), std::string::npos) << gpu.gpu_id << " " << layout;
        }
      }
    }
  }
}

TEST(MigLayoutEnumeration, MediaExtensionsAreListedOnlyWhenAsked) {
  const auto layouts = enumerate_mig_layouts(a100(), true);
  EXPECT_NE(std::find(layouts.begin(), layouts.end(), "1g.10gb+1g.10gb+1g.10gb+1g.10gb+1g.10gb+1g.10gb+1g.10gb+me"),
            layouts.end());
  EXPECT_GT(layouts.size(), enumerate_mig_layouts(a100()).size());
}

TEST(MigLayoutEnumeration, A30HasFourLayouts) {
  EXPECT_EQ(
      enumerate_mig_layouts(*MigCatalog::shipped().find("A30-24GB")),
      (std::vector<std::string>{"1g.6gb+1g.6gb+1g.6gb+1g.6gb", "2g.12gb+1g.6gb+1g.6gb", "2g.12gb+2g.12gb", "4g.24gb"}));
}

TEST(MigLayoutEnumeration, WholeA100EnumerationTakesWellUnder100Ms) {
  const auto begin = std::chrono::steady_clock::now();
  const auto layouts = enumerate_mig_layouts(a100(), true);
  const auto elapsed = std::chrono::steady_clock::now() - begin;
  EXPECT_FALSE(layouts.empty());
  EXPECT_LT(std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count(), 100);
}

}  // namespace
}  // namespace slicewise::models
