#include "core/json_reader.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace slicewise {
namespace {

enum class Color { red, green };
const EnumTable<Color> kColors = {{"red", Color::red}, {"green", Color::green}};

TEST(JsonReader, ReadsTypedValuesAndDefaults) {
  const auto doc = nlohmann::json::parse(R"({"name": "phi", "count": 3, "frac": 0.5, "on": true, "color": "green"})");
  Diagnostics out;
  JsonReader r(doc, "/tenants/0", out, "s.json");
  EXPECT_EQ(r.required_string("name"), "phi");
  EXPECT_EQ(r.required_integer("count", NumberRange::at_least(1)), 3);
  EXPECT_DOUBLE_EQ(r.required_number("frac", NumberRange::fraction()), 0.5);
  EXPECT_TRUE(r.optional_bool("on", false));
  EXPECT_EQ(r.required_enum("color", kColors), Color::green);
  EXPECT_DOUBLE_EQ(r.optional_number("absent", 7.5), 7.5);
  EXPECT_EQ(r.maybe_string("absent2"), std::nullopt);
  r.finish();
  EXPECT_TRUE(out.empty()) << format_all(out);
}

TEST(JsonReader, CollectsEveryProblemWithItsPointer) {
  const auto doc = nlohmann::json::parse(
      R"({"memroy_gib": 4, "count": 2.5, "frac": 1.5, "memory": -4, "color": "gren", "name": 7, "xyzzy": 1})");
  Diagnostics out;
  JsonReader r(doc, "/tenants/1", out, "s.json");
  r.required_integer("count", NumberRange::at_least(1));
  r.required_number("frac", NumberRange::fraction());
  r.required_number("memory", NumberRange::positive());
  r.optional_number("memory_gib", 1.0, NumberRange::positive());
  r.required_enum("color", kColors);
  r.required_string("name");
  r.required_string("missing");
  r.finish();
  EXPECT_EQ(format_all(out),
            "s.json: /tenants/1/count: expected integer (got 2.5)\n"
            "s.json: /tenants/1/frac: must be in [0, 1] (got 1.5)\n"
            "s.json: /tenants/1/memory: must be > 0 (got -4)\n"
            "s.json: /tenants/1/color: unknown \"gren\"; expected red|green (did you mean \"green\"?)\n"
            "s.json: /tenants/1/name: expected string (got 7)\n"
            "s.json: /tenants/1: missing required key \"missing\"\n"
            "s.json: /tenants/1/memroy_gib: unknown key (did you mean \"memory_gib\"?)\n"
            "s.json: /tenants/1/xyzzy: unknown key; allowed here: count, frac, memory, memory_gib, color, name, missing");
}

TEST(JsonReader, NonObjectIsOneProblemAndNoMore) {
  const auto doc = nlohmann::json::parse(R"([1, 2])");
  Diagnostics out;
  JsonReader r(doc, "/fleet/0", out, "s.json");
  EXPECT_FALSE(r.valid());
  EXPECT_EQ(r.required_string("gpu"), "");
  r.finish();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].format(), "s.json: /fleet/0: expected object (got [1,2])");
}

TEST(JsonReader, PointerTokensAreEscaped) {
  const auto doc = nlohmann::json::parse(R"({"a/b": 1})");
  Diagnostics out;
  JsonReader r(doc, "", out, "s.json");
  r.finish();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].pointer, "/a~1b");
}

TEST(NumberRange, DescribesTheViolatedBound) {
  EXPECT_EQ(NumberRange::positive().violation(0.0), "must be > 0");
  EXPECT_EQ(NumberRange::non_negative().violation(-1.0), "must be >= 0");
  EXPECT_EQ(NumberRange::positive_fraction().violation(0.0), "must be in (0, 1]");
  EXPECT_EQ(NumberRange::between(1, 100).violation(101), "must be in [1, 100]");
  EXPECT_EQ(NumberRange::any().violation(1e300), "");
}

TEST(FormatNumber, IsShortestRoundTrip) {
  EXPECT_EQ(format_number(1.0), "1");
  EXPECT_EQ(format_number(0.25), "0.25");
  EXPECT_EQ(format_number(2.24208), "2.24208");
  EXPECT_EQ(format_number(-4.0), "-4");
}

}  // namespace
}  // namespace slicewise
