// The JSON Schema validator of the CLI shape tests: each keyword rejects what it should, every
// schema of tests/schemas/ loads, and a real output that changes shape is caught.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "../common/json_schema.hpp"

namespace {

using nlohmann::json;
using roofkit::testing::json_schema;

const std::filesystem::path schema_dir =
    std::filesystem::path(ROOFKIT_TEST_SOURCE_DIR) / "tests" / "schemas";

json read_json(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return json::parse(s.str());
}

std::size_t violations(const json& schema, const json& doc) {
  return json_schema(schema).validate(doc).size();
}

TEST(JsonSchema, TypesIncludingWholeNumbersAsIntegers) {
  EXPECT_EQ(violations({{"type", "integer"}}, 3), 0u);
  EXPECT_EQ(violations({{"type", "integer"}}, 3.0), 0u);
  EXPECT_EQ(violations({{"type", "integer"}}, 3.5), 1u);
  EXPECT_EQ(violations({{"type", "number"}}, 3), 0u);
  EXPECT_EQ(violations({{"type", "string"}}, 3), 1u);
  EXPECT_EQ(violations({{"type", json::array({"string", "null"})}}, nullptr), 0u);
  EXPECT_EQ(violations({{"type", json::array({"string", "null"})}}, false), 1u);
  EXPECT_EQ(violations({{"type", "object"}}, json::array()), 1u);
  EXPECT_EQ(violations({{"type", "boolean"}}, 0), 1u);
}

TEST(JsonSchema, ObjectsRequiredAndAdditional) {
  const json s = {{"type", "object"},
                  {"required", {"a"}},
                  {"properties", {{"a", {{"type", "integer"}}}}},
                  {"additionalProperties", false}};
  EXPECT_EQ(violations(s, {{"a", 1}}), 0u);
  const auto missing = json_schema(s).validate(json::object());
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0], "(root): missing required property \"a\"");
  const auto extra = json_schema(s).validate({{"a", 1}, {"b", 2}});
  ASSERT_EQ(extra.size(), 1u);
  EXPECT_EQ(extra[0], "/b: property not allowed by the schema");
  const auto wrong = json_schema(s).validate({{"a", "1"}});
  ASSERT_EQ(wrong.size(), 1u);
  EXPECT_EQ(wrong[0].rfind("/a: expected \"integer\", got string", 0), 0u);
  // additionalProperties as a schema, and patternProperties.
  const json typed = {{"type", "object"}, {"additionalProperties", {{"type", "number"}}}};
  EXPECT_EQ(violations(typed, {{"x", 1.5}, {"y", 2}}), 0u);
  EXPECT_EQ(violations(typed, {{"x", "no"}}), 1u);
  const json pattern = {{"patternProperties", {{"^n_", {{"type", "integer"}}}}},
                        {"additionalProperties", false}};
  EXPECT_EQ(violations(pattern, {{"n_a", 1}}), 0u);
  EXPECT_EQ(violations(pattern, {{"n_a", 1.5}}), 1u);
  EXPECT_EQ(violations(pattern, {{"m", 1}}), 1u);
}

TEST(JsonSchema, ArraysNumbersStrings) {
  const json s = {{"type", "array"},
                  {"minItems", 1},
                  {"maxItems", 2},
                  {"items", {{"type", "number"}, {"minimum", 0}, {"exclusiveMaximum", 1}}}};
  EXPECT_EQ(violations(s, {0.0, 0.5}), 0u);
  EXPECT_EQ(violations(s, json::array()), 1u);
  EXPECT_EQ(violations(s, {0.1, 0.2, 0.3}), 1u);
  const auto out_of_range = json_schema(s).validate({-1, 1});
  ASSERT_EQ(out_of_range.size(), 2u);
  EXPECT_EQ(out_of_range[0], "/0: -1 < minimum 0");
  EXPECT_EQ(out_of_range[1], "/1: 1 >= exclusive maximum 1");
  const json str = {{"type", "string"}, {"pattern", "^sm_[0-9]+$"}, {"minLength", 4}};
  EXPECT_EQ(violations(str, "sm_90"), 0u);
  EXPECT_EQ(violations(str, "sm_9x"), 1u);
  EXPECT_EQ(violations({{"enum", {"a", 1}}}, 1), 0u);
  EXPECT_EQ(violations({{"enum", {"a", 1}}}, "b"), 1u);
  EXPECT_EQ(violations({{"const", "x"}}, "y"), 1u);
}

TEST(JsonSchema, CombinatorsAndReferences) {
  const json s = {{"$defs", {{"n", {{"type", "integer"}}}, {"s", {{"type", "string"}}}}},
                  {"oneOf", {{{"$ref", "#/$defs/n"}}, {{"$ref", "#/$defs/s"}}}}};
  EXPECT_EQ(violations(s, 1), 0u);
  EXPECT_EQ(violations(s, "a"), 0u);
  EXPECT_EQ(violations(s, 1.5), 1u);
  const json both = {{"oneOf", {{{"type", "number"}}, {{"type", "integer"}}}}};
  EXPECT_EQ(violations(both, 1), 1u); // matches two
  const json any = {{"anyOf", {{{"type", "number"}}, {{"type", "integer"}}}}};
  EXPECT_EQ(violations(any, 1), 0u);
  EXPECT_EQ(violations(any, "1"), 1u);
  const json all = {{"allOf", {{{"type", "number"}}, {{"minimum", 2}}}}};
  EXPECT_EQ(violations(all, 1), 1u);
  EXPECT_EQ(violations(all, 3), 0u);
}

TEST(JsonSchema, RejectsKeywordsItDoesNotKnow) {
  EXPECT_THROW(json_schema(json{{"prefixItems", json::array()}}), std::invalid_argument);
  EXPECT_THROW(json_schema(json{{"properties", {{"a", {{"minProperties", 1}}}}}}),
               std::invalid_argument);
  EXPECT_THROW(json_schema(json{{"$ref", "#/$defs/missing"}}), std::invalid_argument);
  EXPECT_THROW(json_schema(json{{"$ref", "other.json"}}), std::invalid_argument);
}

TEST(JsonSchema, EveryCommittedSchemaLoads) {
  std::size_t n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(schema_dir)) {
    if (entry.path().extension() != ".json")
      continue;
    SCOPED_TRACE(entry.path().filename().string());
    const json s = read_json(entry.path());
    EXPECT_TRUE(s.contains("title"));
    EXPECT_NO_THROW(json_schema{s});
    ++n;
  }
  EXPECT_GE(n, 17u);
}

TEST(JsonSchema, RunSchemaCatchesAChangedRun) {
  const json_schema run(read_json(schema_dir / "roofkit-run-1.json"));
  json doc = read_json(std::filesystem::path(ROOFKIT_TEST_SOURCE_DIR) / "tests" / "data" / "runs" /
                       "sample.json");
  EXPECT_TRUE(run.validate(doc).empty());

  json no_median = doc;
  no_median["kernels"][0]["time_s"].erase("median");
  const auto e1 = run.validate(no_median);
  ASSERT_EQ(e1.size(), 1u);
  EXPECT_EQ(e1[0], "/kernels/0/time_s: missing required property \"median\"");

  json bad_level = doc;
  bad_level["kernels"][1]["bytes"]["l3"] = 1.0;
  EXPECT_EQ(run.validate(bad_level).size(), 1u);

  json bad_bound = doc;
  bad_bound["kernels"][0]["bound"] = "memory";
  EXPECT_EQ(run.validate(bad_bound).size(), 1u);

  json bad_grid = doc;
  bad_grid["kernels"][0]["launch"]["grid"] = {1, 2};
  EXPECT_EQ(run.validate(bad_grid).size(), 1u);

  json bad_schema = doc;
  bad_schema["schema"] = "roofkit.run/2";
  EXPECT_EQ(run.validate(bad_schema).size(), 1u);
}

TEST(JsonSchema, OccupancySchemaWantsObjectsForSingleRecords) {
  // roofkit.occupancy/2: single records are objects, lists are lists (the /1 shape wrapped every
  // record in a one-element list).
  const json_schema report(read_json(schema_dir / "occupancy-calc-report.json"));
  const json target = {{"arch", "sm_90"}, {"compute_capability", "9.0"}, {"family", "Hopper"},
                       {"gpu", nullptr},  {"origin", "--arch 9.0"},      {"sm_count", nullptr}};
  const json launch = {{"threads", 256},    {"regs", 48},     {"smem_static", 0},
                       {"smem_dynamic", 0}, {"carveout", -1}, {"barriers", 1}};
  const json occupancy = {{"active_blocks_per_sm", 5},
                          {"active_warps_per_sm", 40},
                          {"max_warps_per_sm", 64},
                          {"occupancy", 0.625},
                          {"limiters", "registers"},
                          {"warps_per_block", 8},
                          {"allocated_registers_per_block", 12288},
                          {"allocated_smem_per_block", 1024},
                          {"smem_per_sm", 233472},
                          {"optin_assumed", false},
                          {"reason", nullptr}};
  json limits = json::array();
  for (const char* r : {"warps", "registers", "shared_memory", "blocks", "barriers"})
    limits.push_back({{"resource", r},
                      {"unit", r},
                      {"used_per_block", 1},
                      {"available_per_sm", 64},
                      {"block_limit", 8},
                      {"limiting", false},
                      {"detail", ""}});
  const json legacy = {
      {"target", {target}}, {"launch", {launch}}, {"occupancy", {occupancy}}, {"limits", limits}};
  const json objects = {{"schema", "roofkit.occupancy/2"},
                        {"target", target},
                        {"launch", launch},
                        {"occupancy", occupancy},
                        {"limits", limits}};
  EXPECT_FALSE(report.validate(legacy).empty());
  EXPECT_TRUE(report.validate(objects).empty());

  json bad_limiter = objects;
  bad_limiter["occupancy"]["limiters"] = "registers, threads";
  EXPECT_FALSE(report.validate(bad_limiter).empty());
  json wrapped = objects;
  wrapped["occupancy"] = json::array({occupancy});
  EXPECT_FALSE(report.validate(wrapped).empty());
  json old_version = objects;
  old_version["schema"] = "roofkit.occupancy/1";
  EXPECT_FALSE(report.validate(old_version).empty());
  json over_one = objects;
  over_one["occupancy"]["occupancy"] = 1.25;
  EXPECT_FALSE(report.validate(over_one).empty());
}

} // namespace
