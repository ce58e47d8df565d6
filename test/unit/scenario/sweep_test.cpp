// Sweep files: grid and zip order, each axis kind applied to the base document, and errors.
#include "scenario/sweep.hpp"

#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/json_file.hpp"
#include "test/test_util.hpp"

namespace slicewise::scenario {
namespace {

using nlohmann::json;

Sweep in_memory(json base, std::vector<SweepAxis> axes, SweepMode mode = SweepMode::grid) {
  Sweep sweep;
  sweep.file = "sweep.json";
  sweep.base_file = std::string(SW_SOURCE_DIR) + "/examples/seed-l40s-timeslicing.json";
  sweep.base = std::move(base);
  sweep.axes = std::move(axes);
  sweep.mode = mode;
  return sweep;
}

json seed_base() { return read_json_file(std::string(SW_SOURCE_DIR) + "/examples/seed-l40s-timeslicing.json"); }

TEST(Sweep, GridVariesTheLastAxisFastestAndZipPairsValues) {
  SweepAxis a{"a", AxisKind::seed, "", {}, {1, 2, 3}};
  SweepAxis b{"b", AxisKind::pricing_option, "", {}, {"on_demand", "spot"}};
  auto grid = in_memory(seed_base(), {a, b});
  ASSERT_EQ(num_points(grid), 6u);
  EXPECT_EQ(sweep_point(grid, 0).values, (std::vector<json>{1, "on_demand"}));
  EXPECT_EQ(sweep_point(grid, 1).values, (std::vector<json>{1, "spot"}));
  EXPECT_EQ(sweep_point(grid, 5).values, (std::vector<json>{3, "spot"}));
  EXPECT_EQ(sweep_point(grid, 5).id, "p0005");
  EXPECT_EQ(point_label(grid, sweep_point(grid, 4)), "a=3, b=on_demand");

  b.values = {"on_demand", "spot", "reserved_1y"};
  auto zip = in_memory(seed_base(), {a, b}, SweepMode::zip);
  ASSERT_EQ(num_points(zip), 3u);
  EXPECT_EQ(sweep_point(zip, 2).values, (std::vector<json>{3, "reserved_1y"}));
}

TEST(Sweep, EachAxisKindRewritesTheBaseDocument) {
  auto sweep = in_memory(seed_base(), {{"users", AxisKind::load_multiplier, "", {"phi-3.5-mini-instruct"}, {4}},
                                       {"q", AxisKind::pointer, "/strategies/1/quantum_ms", {}, {2.5}},
                                       {"gpu", AxisKind::gpu, "", {}, {"A100-80GB"}},
                                       {"option", AxisKind::pricing_option, "", {}, {"spot"}},
                                       {"seed", AxisKind::seed, "", {}, {7}}});
  const json doc = point_document(sweep, sweep_point(sweep, 0));
  EXPECT_EQ(doc["tenants"][0]["load"]["num_users"], 4);  // closed loop: users x 4
  EXPECT_EQ(doc["tenants"][1]["load"]["num_users"], 1);  // not listed
  EXPECT_EQ(doc["strategies"][1]["quantum_ms"], 2.5);
  EXPECT_EQ(doc["fleet"][0], (json{{"gpu", "A100-80GB"}, {"count", 2}}));
  EXPECT_EQ(doc["pricing"]["option"], "spot");
  EXPECT_EQ(doc["seed"], 7);
  EXPECT_EQ(doc["name"], "seed-l40s-timeslicing [p0000]");

  // A Poisson tenant's multiplier is multiplied, not replaced.
  json base = seed_base();
  base["tenants"][0]["load"] = {{"kind", "poisson"}, {"rate_per_s", 2.0}, {"multiplier", 1.5}};
  auto poisson = in_memory(base, {{"load", AxisKind::load_multiplier, "", {"phi-3.5-mini-instruct"}, {2}}});
  EXPECT_EQ(point_document(poisson, sweep_point(poisson, 0))["tenants"][0]["load"]["multiplier"], 3.0);
}

TEST(Sweep, AValueThatCannotApplyNamesThePointAndAxis) {
  auto half_user = in_memory(seed_base(), {{"load", AxisKind::load_multiplier, "", {}, {0.5}}});
  EXPECT_EQ(
      test::error_of([&] { point_document(half_user, sweep_point(half_user, 0)); }),
      "sweep.json: /axes/0: point p0000 (load=0.5): tenant \"phi-3.5-mini-instruct\" has a closed_loop load: 0.5 x 1 "
      "users is not a whole number of users >= 1 (list the tenants to scale in \"tenants\")");
  auto no_parent = in_memory(seed_base(), {{"x", AxisKind::pointer, "/nothing/here", {}, {1}}});
  EXPECT_EQ(
      test::error_of([&] { point_document(no_parent, sweep_point(no_parent, 0)); }),
      "sweep.json: /axes/0: point p0000 (x=1): pointer /nothing/here: the base scenario has no object or array at "
      "/nothing");
  auto no_trace = in_memory(seed_base(), {{"w", AxisKind::trace_window, "", {}, {json::array({0, 60})}}});
  EXPECT_EQ(test::error_of([&] { point_document(no_trace, sweep_point(no_trace, 0)); }),
            "sweep.json: /axes/0: point p0000 (w=0..60): no tenant of the base scenario has a trace load");
}

TEST(Sweep, AMultiplierThatMakesTooManyUsersIsRefusedNotWrapped) {
  // 1e308 x 1 users overflowed the integer conversion and came back as a negative count.
  auto huge = in_memory(seed_base(), {{"load", AxisKind::load_multiplier, "", {"phi-3.5-mini-instruct"}, {1e308}}});
  EXPECT_EQ(test::error_of([&] { point_document(huge, sweep_point(huge, 0)); }),
            "sweep.json: /axes/0: point p0000 (load=1e+308): tenant \"phi-3.5-mini-instruct\" has a closed_loop load: "
            "1e+308 x 1 users is more than 1000000 users");
}

TEST(Sweep, TheSizingAxisSizesEveryStrategyAndTakesOnlyItsTwoValues) {
  auto sized = in_memory(seed_base(), {{"sizing", AxisKind::sizing, "", {}, {"sla"}}});
  const json doc = point_document(sized, sweep_point(sized, 0));
  ASSERT_EQ(doc["strategies"].size(), 2u);
  for (const auto& strategy : doc["strategies"]) EXPECT_EQ(strategy["sizing"], "sla");

  const auto file =
      std::filesystem::temp_directory_path() / ("sw_sweep_sizing_" + std::to_string(::getpid()) + ".json");
  const json sweep = {{"schema_version", 1},
                      {"name", "s"},
                      {"base", std::string(SW_SOURCE_DIR) + "/examples/seed-l40s-timeslicing.json"},
                      {"axes", {{{"name", "sizing"}, {"kind", "sizing"}, {"values", {"sla", "p99"}}}}}};
  write_file_atomically(file, sweep.dump());
  EXPECT_EQ(test::error_of([&] { load_sweep(file); }),
            file.string() + ": /axes/0/values/1: must be \"as_given\" or \"sla\" (got \"p99\")");
  std::filesystem::remove(file);
}

TEST(Sweep, SweepAndAxisNamesAreNonEmptyWithoutLineBreaks) {
  const auto file = std::filesystem::temp_directory_path() / ("sw_sweep_names_" + std::to_string(::getpid()) + ".json");
  const json sweep = {{"schema_version", 1},
                      {"name", ""},
                      {"base", std::string(SW_SOURCE_DIR) + "/examples/seed-l40s-timeslicing.json"},
                      {"axes", {{{"name", "a\nb"}, {"kind", "seed"}, {"values", {1}}}}}};
  write_file_atomically(file, sweep.dump());
  EXPECT_EQ(test::error_of([&] { load_sweep(file); }),
            file.string() + ": /name: must not be empty\n" + file.string() +
                ": /axes/0/name: must not contain control characters such as line breaks or tabs, nor U+0085, U+2028 "
                "or U+2029 (got \"a\\nb\")");
  std::filesystem::remove(file);
}

TEST(Sweep, EachRepeatedAxisNameIsReportedOnceAndMessagesAreCapped) {
  // 300 axes with one name: one message per repeat, against the first (299, not 44,850 pairs),
  // and the text stops after 100 lines of the file with how many more there are.
  const auto file = std::filesystem::temp_directory_path() / ("sw_sweep_dups_" + std::to_string(::getpid()) + ".json");
  json axes = json::array();
  for (int i = 0; i < 300; ++i) axes.push_back({{"name", "same"}, {"kind", "seed"}, {"values", {1}}});
  const json sweep = {{"schema_version", 1},
                      {"name", "dups"},
                      {"mode", "zip"},
                      {"base", std::string(SW_SOURCE_DIR) + "/examples/seed-l40s-timeslicing.json"},
                      {"axes", axes}};
  write_file_atomically(file, sweep.dump());
  try {
    load_sweep(file);
    FAIL() << "loaded";
  } catch (const ConfigError& e) {
    ASSERT_EQ(e.diagnostics().size(), 299u);
    EXPECT_EQ(e.diagnostics()[0].message, "duplicate axis name \"same\" (also /axes/0/name)");
    EXPECT_EQ(e.diagnostics()[298].pointer, "/axes/299/name");
    EXPECT_EQ(e.diagnostics()[298].message, "duplicate axis name \"same\" (also /axes/0/name)");
    const std::string text = e.what();
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 100);  // 100 messages, then the count
    EXPECT_EQ(text.substr(text.rfind('\n') + 1), file.string() + ": and 199 more problems");
  }
  std::filesystem::remove(file);
}

TEST(Sweep, AZipSweepHasAtMostAHundredThousandPoints) {
  const auto file = std::filesystem::temp_directory_path() / ("sw_sweep_zip_" + std::to_string(::getpid()) + ".json");
  std::vector<int> seeds(100001);
  for (std::size_t i = 0; i < seeds.size(); ++i) seeds[i] = static_cast<int>(i);
  const json sweep = {{"schema_version", 1},
                      {"name", "zip"},
                      {"mode", "zip"},
                      {"base", std::string(SW_SOURCE_DIR) + "/examples/seed-l40s-timeslicing.json"},
                      {"axes", {{{"name", "seed"}, {"kind", "seed"}, {"values", seeds}}}}};
  write_file_atomically(file, sweep.dump());
  EXPECT_EQ(test::error_of([&] { load_sweep(file); }),
            file.string() + ": /axes/0/values: mode \"zip\" gives 100001 points; at most 100000 are allowed");
  std::filesystem::remove(file);
}

TEST(Sweep, TheFingerprintChangesWithTheSweepAndTheBase) {
  auto sweep = in_memory(seed_base(), {{"seed", AxisKind::seed, "", {}, {1, 2}}});
  sweep.document = {{"name", "s"}};
  const auto first = sweep_fingerprint(sweep);
  EXPECT_EQ(first.size(), 16u);
  EXPECT_EQ(sweep_fingerprint(sweep), first);
  sweep.base["seed"] = 43;
  EXPECT_NE(sweep_fingerprint(sweep), first);
}

}  // namespace
}  // namespace slicewise::scenario
