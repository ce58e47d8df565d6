#include "core/json_reader.hpp"

#include <optional>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/spell.hpp"

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
  EXPECT_EQ(
      format_all(out),
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

TEST(JsonReader, IntegersBeyondTwoToThe53AreRefusedAsWritten) {
  // 2^53 + 1 reads back as 2^53 through a double, and 1e19 or 2^64 - 1 fit no int64: each is
  // refused with the value as written, never wrapped or rounded into range.
  const auto doc = nlohmann::json::parse(
      R"({"seed": 9007199254740993, "a": 18446744073709551615, "b": 1e19, "c": -1e300, "d": 9007199254740992})");
  Diagnostics out;
  JsonReader r(doc, "", out, "s.json");
  EXPECT_EQ(r.optional_integer("seed", 1, NumberRange::between(0, 9007199254740992.0)), 1);
  EXPECT_EQ(r.maybe_integer("a"), std::nullopt);
  EXPECT_EQ(r.required_integer("b", NumberRange::at_least(1)), 0);
  EXPECT_EQ(r.maybe_integer("c"), std::nullopt);
  EXPECT_EQ(r.required_integer("d"), 9007199254740992);
  r.finish();
  EXPECT_EQ(format_all(out),
            "s.json: /seed: must be in [0, 9007199254740992] (got 9007199254740993)\n"
            "s.json: /a: must be between -9007199254740992 and 9007199254740992 (got 18446744073709551615)\n"
            "s.json: /b: must be between -9007199254740992 and 9007199254740992 (got 1e+19)\n"
            "s.json: /c: must be between -9007199254740992 and 9007199254740992 (got -1e+300)");
}

TEST(JsonReader, NamesAreNonEmptyWithoutControlCharacters) {
  const auto doc =
      nlohmann::json::parse(R"({"a": "ok, \"quoted\" | fine", "b": "", "c": "two\nlines", "d": "tab\there", "e": 3})");
  Diagnostics out;
  JsonReader r(doc, "/x", out, "s.json");
  EXPECT_EQ(read_name(r, "a", true), "ok, \"quoted\" | fine");
  EXPECT_EQ(read_name(r, "b", true), "");
  EXPECT_EQ(read_name(r, "c", true), "");
  EXPECT_EQ(read_name(r, "d", false), "");
  EXPECT_EQ(read_name(r, "e", false), "");
  EXPECT_EQ(read_name(r, "absent", false), "");
  EXPECT_EQ(read_name(r, "missing", true), "");
  r.finish();
  EXPECT_EQ(format_all(out),
            "s.json: /x/b: must not be empty\n"
            "s.json: /x/c: must not contain control characters such as line breaks or tabs, nor U+0085, U+2028 or "
            "U+2029 (got \"two\\nlines\")\n"
            "s.json: /x/d: must not contain control characters such as line breaks or tabs, nor U+0085, U+2028 or "
            "U+2029 (got \"tab\\there\")\n"
            "s.json: /x/e: expected string (got 3)\n"
            "s.json: /x: missing required key \"missing\"");
}

TEST(JsonReader, NlohmannExceptionsBecomeLocatedProblems) {
  const auto doc = nlohmann::json::parse(R"({"a": [1, null]})");
  try {
    [[maybe_unused]] const double x = doc.at("a").at(1).get<double>();
    FAIL();
  } catch (const nlohmann::json::exception& e) {
    EXPECT_EQ(json_exception_diagnostic(e, "r.json", "/point", "not a record: ").format(),
              "r.json: /point/a/1: not a record: type must be number, but is null");
  }
  try {
    [[maybe_unused]] const auto& y = doc.at("b");
    FAIL();
  } catch (const nlohmann::json::exception& e) {
    EXPECT_EQ(json_exception_diagnostic(e, "r.json", "", "").format(), "r.json: key 'b' not found");
  }
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

TEST(JsonReader, SchemaVersionIsOneCheckForEveryDocument) {
  const auto version_problems = [](const char* text) {
    const auto doc = nlohmann::json::parse(text);
    Diagnostics out;
    JsonReader r(doc, "", out, "d.json");
    const bool readable = r.schema_version(1);
    return std::to_string(readable) + " " + format_all(out);
  };
  EXPECT_EQ(version_problems(R"({"schema_version": 1})"), "1 ");
  EXPECT_EQ(version_problems(R"({})"),
            "1 d.json: /: missing required key \"schema_version\" (this slicewise reads version 1)");
  EXPECT_EQ(version_problems(R"({"schema_version": 2})"),
            "0 d.json: /schema_version: unsupported schema version (got 2; supported: 1)");
  // Read as a number: a huge value is another version, never an overflowing integer.
  EXPECT_EQ(version_problems(R"({"schema_version": 1e300})"),
            "0 d.json: /schema_version: unsupported schema version (got 1e+300; supported: 1)");
  EXPECT_EQ(version_problems(R"({"schema_version": "1"})"), "1 d.json: /schema_version: expected number (got \"1\")");
  EXPECT_EQ(version_problems(R"([1])"), "1 d.json: /: expected object (got [1])");
}

}  // namespace
}  // namespace slicewise

namespace slicewise {
namespace {

TEST(DescribeJson, ACutKeepsWholeCharactersAndANoncharacterIsEscaped) {
  // The quote and 35 x are bytes 0-35; the first "é" is bytes 36-37, across the cut at 37: it goes
  // whole, not its first byte alone.
  const std::string shown = describe_json(nlohmann::json(std::string(35, 'x') + "\xc3\xa9\xc3\xa9\xc3\xa9"));
  EXPECT_EQ(shown, "\"" + std::string(35, 'x') + "...");
  EXPECT_EQ(invalid_utf8_at(shown), std::nullopt);
  EXPECT_EQ(describe_json(nlohmann::json("chat\xef\xbf\xbe")), "\"chat\\ufffe\"");
}

}  // namespace
}  // namespace slicewise
