// roofkit.run/1: round trips, derived values, bad files, and the sample run in tests/data.
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "roofkit/core.hpp"
#include "roofkit/results.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using roofkit::memory_level;
using roofkit::precision;

const std::string sample_path =
    std::string(ROOFKIT_TEST_SOURCE_DIR) + "/tests/data/runs/sample.json";

roofkit::run full_run() {
  roofkit::run r;
  auto& c = r.context;
  c.tool_version = "0.1.0";
  c.git_revision = "abc1234";
  c.date = "2026-11-22T10:11:12Z";
  c.host = "gpu-node-07";
  c.device_name = "NVIDIA H100 80GB HBM3";
  c.cc_major = 9;
  c.cc_minor = 0;
  c.sm_count = 132;
  c.driver_version = "580.65";
  c.runtime_version = "13.0";
  c.sm_clock_mhz = 1755.5;
  c.mem_clock_mhz = 2619;
  c.origin = roofkit::run_origin::measured;
  c.command = "roofline-cuda bench -o run.json";
  c.extra = {{"note", "unit test"}, {"ecc", "on"}};

  roofkit::ceiling fp32;
  fp32.prec = precision::fp32;
  fp32.value = 60e12;
  fp32.sm_clock_mhz = 1980;
  fp32.mem_clock_mhz = 2619;
  fp32.method = "datasheet";
  roofkit::ceiling dram;
  dram.is_memory = true;
  dram.level = memory_level::dram;
  dram.value = 3e12;
  dram.source = roofkit::ceiling_source::measured;
  dram.sm_clock_mhz = 1755.5;
  dram.mem_clock_mhz = 2619;
  dram.method = "copy kernel";
  roofkit::ceiling l2 = dram;
  l2.level = memory_level::l2;
  l2.value = 9.5e12;
  r.ceilings = {fp32, dram, l2};

  roofkit::kernel_result k;
  k.name = "gemm<float, 32>";
  k.topic = "gemm";
  k.claim = "tiling helps";
  k.size = "N=4096";
  k.launch.grid = {128, 64, 2};
  k.launch.block = {32, 8, 1};
  k.launch.dynamic_smem_bytes = 8192;
  k.launch.static_smem_bytes = 1024;
  k.launch.registers_per_thread = 40;
  k.time = {0.1, 0.099, 0.1031, 25};
  k.flops = {{precision::fp32, 1e12}};
  k.bytes = {{memory_level::dram, 1e11}, {memory_level::l2, 2.5e11}};
  k.algorithmic_flops = 1e12;
  k.minimal_bytes = 9e10;
  k.occupancy_theoretical = 0.75;
  k.occupancy_achieved = 0.6875;
  k.counters = {{"dram__bytes.sum", 1e11}, {"gpu__time_duration.sum", 0.1}};
  r.kernels.push_back(k);

  roofkit::kernel_result copy;
  copy.name = "copy";
  copy.source = roofkit::work_source::analytical;
  copy.status = "failed";
  copy.message = "element 7: got 1, expected 2";
  copy.time = {1e-3, 1e-3, 1e-3, 1};
  copy.bytes = {{memory_level::dram, 2e9}};
  r.kernels.push_back(copy);
  return r;
}

using test_support::message_of;

std::string parse_error(const std::string& text) {
  return message_of([&] { roofkit::parse_run(text, "bad.json"); });
}

TEST(results, round_trip_keeps_every_field) {
  const roofkit::run a = full_run();
  const std::string text = roofkit::to_json_text(a);
  const roofkit::run b = roofkit::parse_run(text, "memory");
  EXPECT_EQ(roofkit::to_json_text(b), text);

  EXPECT_EQ(b.context.tool_version, "0.1.0");
  EXPECT_EQ(b.context.git_revision, "abc1234");
  EXPECT_EQ(b.context.date, a.context.date);
  EXPECT_EQ(b.context.host, "gpu-node-07");
  EXPECT_EQ(b.context.device_name, a.context.device_name);
  EXPECT_EQ(b.context.cc_major, 9);
  EXPECT_EQ(b.context.cc_minor, 0);
  EXPECT_EQ(b.context.sm_count, 132);
  EXPECT_EQ(b.context.driver_version, "580.65");
  EXPECT_EQ(b.context.runtime_version, "13.0");
  EXPECT_DOUBLE_EQ(b.context.sm_clock_mhz, 1755.5);
  EXPECT_DOUBLE_EQ(b.context.mem_clock_mhz, 2619);
  EXPECT_EQ(b.context.origin, roofkit::run_origin::measured);
  EXPECT_EQ(b.context.command, a.context.command);
  EXPECT_EQ(b.context.extra, a.context.extra);

  ASSERT_EQ(b.ceilings.size(), 3u);
  EXPECT_FALSE(b.ceilings[0].is_memory);
  EXPECT_EQ(b.ceilings[0].prec, precision::fp32);
  EXPECT_DOUBLE_EQ(b.ceilings[0].value, 60e12);
  EXPECT_EQ(b.ceilings[0].source, roofkit::ceiling_source::theoretical);
  EXPECT_DOUBLE_EQ(b.ceilings[0].sm_clock_mhz, 1980);
  EXPECT_EQ(b.ceilings[0].method, "datasheet");
  EXPECT_TRUE(b.ceilings[1].is_memory);
  EXPECT_EQ(b.ceilings[1].level, memory_level::dram);
  EXPECT_EQ(b.ceilings[1].source, roofkit::ceiling_source::measured);
  EXPECT_DOUBLE_EQ(b.ceilings[1].sm_clock_mhz, 1755.5);
  EXPECT_EQ(b.ceilings[2].level, memory_level::l2);

  ASSERT_EQ(b.kernels.size(), 2u);
  const auto& k = b.kernels[0];
  const auto& ka = a.kernels[0];
  EXPECT_EQ(k.name, ka.name);
  EXPECT_EQ(k.topic, ka.topic);
  EXPECT_EQ(k.claim, ka.claim);
  EXPECT_EQ(k.size, ka.size);
  EXPECT_EQ(k.launch.grid, ka.launch.grid);
  EXPECT_EQ(k.launch.block, ka.launch.block);
  EXPECT_EQ(k.launch.dynamic_smem_bytes, 8192u);
  EXPECT_EQ(k.launch.static_smem_bytes, 1024u);
  EXPECT_EQ(k.launch.registers_per_thread, 40u);
  EXPECT_DOUBLE_EQ(k.time.median_s, 0.1);
  EXPECT_DOUBLE_EQ(k.time.min_s, 0.099);
  EXPECT_DOUBLE_EQ(k.time.max_s, 0.1031);
  EXPECT_EQ(k.time.repetitions, 25);
  EXPECT_EQ(k.flops, ka.flops);
  EXPECT_EQ(k.bytes, ka.bytes);
  EXPECT_EQ(k.algorithmic_flops, ka.algorithmic_flops);
  EXPECT_EQ(k.minimal_bytes, ka.minimal_bytes);
  EXPECT_EQ(k.occupancy_theoretical, ka.occupancy_theoretical);
  EXPECT_EQ(k.occupancy_achieved, ka.occupancy_achieved);
  EXPECT_EQ(k.counters, ka.counters);
  EXPECT_EQ(k.source, roofkit::work_source::counters);
  EXPECT_EQ(k.status, "ok");

  const auto& c = b.kernels[1];
  EXPECT_EQ(c.source, roofkit::work_source::analytical);
  EXPECT_EQ(c.status, "failed");
  EXPECT_EQ(c.message, a.kernels[1].message);
  EXPECT_TRUE(c.flops.empty());
  EXPECT_FALSE(c.algorithmic_flops.has_value());
  EXPECT_FALSE(c.occupancy_achieved.has_value());
}

TEST(results, derived_values_sit_beside_raw_ones) {
  const auto j = nlohmann::json::parse(roofkit::to_json_text(full_run()));
  EXPECT_EQ(j["schema"], "roofkit.run/1");
  EXPECT_EQ(j["context"]["cc"], "9.0");
  EXPECT_EQ(j["context"]["clocks"]["sm_mhz"], 1755.5);
  EXPECT_EQ(j["ceilings"]["compute"].size(), 1u);
  EXPECT_EQ(j["ceilings"]["memory"].size(), 2u);
  EXPECT_EQ(j["ceilings"]["memory"][0]["unit"], "B/s");
  const auto& k = j["kernels"][0];
  EXPECT_DOUBLE_EQ(k["flops"]["fp32"].get<double>(), 1e12);
  EXPECT_DOUBLE_EQ(k["intensity"]["dram"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(k["intensity"]["l2"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(k["achieved"]["flop_per_s"].get<double>(), 1e13);
  EXPECT_DOUBLE_EQ(k["achieved"]["bytes_per_s"]["dram"].get<double>(), 1e12);
  EXPECT_DOUBLE_EQ(k["attainable_flop_per_s"].get<double>(), 30e12);
  EXPECT_EQ(k["bound"], "dram");
  EXPECT_NEAR(k["pct_of_roof"].get<double>(), 100.0 / 3.0, 1e-9);
  EXPECT_DOUBLE_EQ(k["occupancy"]["achieved"].get<double>(), 0.6875);
  EXPECT_EQ(k["time_s"]["n"], 25);
  EXPECT_EQ(k["launch"]["grid"], nlohmann::json::array({128, 64, 2}));
  EXPECT_DOUBLE_EQ(k["counters"]["dram__bytes.sum"].get<double>(), 1e11);
  const auto& copy = j["kernels"][1];
  EXPECT_TRUE(copy["intensity"].empty());
  EXPECT_EQ(copy["bound"], "dram");
  EXPECT_NEAR(copy["pct_of_roof"].get<double>(), 2e12 / 3e12 * 100, 1e-9);
}

TEST(results, derived_values_in_a_file_are_recomputed_not_trusted) {
  auto j = nlohmann::json::parse(roofkit::to_json_text(full_run()));
  j["kernels"][0]["pct_of_roof"] = 99.0;
  j["kernels"][0]["bound"] = "fp32";
  const auto r = roofkit::parse_run(j.dump(), "edited.json");
  const auto p = roofkit::analyze(r);
  EXPECT_EQ(p[0].bound, "dram");
  EXPECT_NEAR(p[0].pct_of_roof, 100.0 / 3.0, 1e-9);
}

TEST(results, save_and_load_through_a_file) {
  const fs::path dir = fs::temp_directory_path() / ("roofkit-results-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "run.json";
  roofkit::save_run(file, full_run());
  EXPECT_TRUE(fs::exists(file));
  for (const auto& e : fs::directory_iterator(dir)) // no temporary left beside it
    EXPECT_EQ(e.path().filename(), "run.json");
  const auto r = roofkit::load_run(file);
  EXPECT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.context.device_name, "NVIDIA H100 80GB HBM3");
  fs::remove_all(dir);
}

TEST(results, missing_file_names_it) {
  const std::string m = message_of([] { roofkit::load_run("/nonexistent/dir/run.json"); });
  EXPECT_NE(m.find("/nonexistent/dir/run.json"), std::string::npos) << m;
}

TEST(results, malformed_json_names_the_file_and_the_place) {
  const std::string m = parse_error("{\"schema\": \"roofkit.run/1\",\n \"context\": {,}}");
  EXPECT_NE(m.find("'bad.json'"), std::string::npos) << m;
  EXPECT_NE(m.find("not valid JSON"), std::string::npos) << m;
  EXPECT_NE(m.find("line 2"), std::string::npos) << m;
  EXPECT_NE(parse_error("").find("not valid JSON"), std::string::npos);
}

TEST(results, other_schema_major_is_refused) {
  EXPECT_EQ(parse_error(R"({"schema": "roofkit.run/2", "context": {}, "kernels": []})"),
            "'bad.json': schema 'roofkit.run/2' is not supported (this roofkit reads "
            "roofkit.run/1)");
  EXPECT_NE(parse_error(R"({"schema": "other/1", "context": {}, "kernels": []})")
                .find("is not a roofkit run"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"context": {}, "kernels": []})").find("no 'schema' field"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"schema": "roofkit.run/x", "context": {}, "kernels": []})")
                .find("no valid version"),
            std::string::npos);
  // A later minor version of major 1 is read.
  const auto r = roofkit::parse_run(R"({"schema": "roofkit.run/1.4", "context": {},
                                        "kernels": [], "future_field": 1})",
                                    "minor.json");
  EXPECT_TRUE(r.kernels.empty());
}

TEST(results, missing_and_mistyped_fields_are_named) {
  EXPECT_EQ(parse_error(R"([1, 2])"),
            "'bad.json': expected a JSON object at the top level, got an array");
  EXPECT_EQ(parse_error(R"({"schema": "roofkit.run/1", "kernels": []})"),
            "'bad.json': missing required field 'context'");
  EXPECT_EQ(parse_error(R"({"schema": "roofkit.run/1", "context": {}})"),
            "'bad.json': missing required field 'kernels'");
  EXPECT_EQ(parse_error(R"({"schema": "roofkit.run/1", "context": {}, "kernels": [{}]})"),
            "'bad.json': kernels[0]: missing required field 'name'");
  EXPECT_EQ(parse_error(R"({"schema": "roofkit.run/1", "context": {},
                            "kernels": [{"name": "k"}]})"),
            "'bad.json': kernels[0]: missing required field 'time_s'");
  EXPECT_EQ(parse_error(R"({"schema": "roofkit.run/1", "context": {},
                            "kernels": [{"name": "k", "time_s": {"median": "fast"}}]})"),
            "'bad.json': kernels[0].time_s.median: expected a number, got the string \"fast\"");
  EXPECT_NE(parse_error(R"({"schema": "roofkit.run/1", "context": {}, "kernels": [
              {"name": "k", "time_s": {"median": 1}, "flops": {"fp4": 1}}]})")
                .find("kernels[0].flops: unknown name 'fp4'"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"schema": "roofkit.run/1", "context": {"origin": "guessed"},
                            "kernels": []})")
                .find("context.origin: unknown origin 'guessed'"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"schema": "roofkit.run/1", "context": {},
              "ceilings": {"memory": [{"level": "l3", "value": 1}]}, "kernels": []})")
                .find("ceilings.memory[0].level: unknown memory level 'l3'"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"schema": "roofkit.run/1", "context": {},
              "ceilings": {"compute": [{"precision": "fp32"}]}, "kernels": []})")
                .find("ceilings.compute[0]: missing required field 'value'"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"schema": "roofkit.run/1", "context": {}, "kernels": [
              {"name": "k", "time_s": {"median": 1}, "launch": {"grid": [1, -2, 1]}}]})")
                .find("kernels[0].launch.grid[1]: expected a non-negative integer"),
            std::string::npos);
}

TEST(results, sample_run_loads_and_places_its_kernels) {
  const auto r = roofkit::load_run(sample_path);
  EXPECT_EQ(r.context.origin, roofkit::run_origin::analytical);
  EXPECT_EQ(r.context.device_name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(r.ceilings.size(), 11u);
  ASSERT_EQ(r.kernels.size(), 8u);
  const auto placed = roofkit::analyze(r);
  std::map<std::string, roofkit::kernel_placement> by_name;
  for (const auto& p : placed) {
    EXPECT_TRUE(p.analytical) << p.name;
    EXPECT_NE(p.bound, "unknown") << p.name;
    by_name[p.name] = p;
  }
  // The seed-like ratios the sample encodes.
  EXPECT_NEAR(by_name["copy_strided_32"].pct_of_roof / by_name["copy_coalesced"].pct_of_roof, 0.03,
              0.001);
  EXPECT_NEAR(by_name["reduce_atomic"].time_s / by_name["reduce_shared"].time_s, 24.6, 1e-9);
  EXPECT_EQ(by_name["copy_coalesced"].bound, "dram");
  EXPECT_FALSE(by_name["copy_coalesced"].has_flops);
  EXPECT_EQ(by_name["hgemm_tensor"].bound, "tensor_fp16");
  EXPECT_EQ(by_name["sgemm_tiled"].bound, "l1");
  EXPECT_TRUE(by_name["attention_mixed"].mixed_precision);
  // The file's derived values agree with the model.
  const auto j = nlohmann::json::parse(roofkit::read_text_file(sample_path));
  for (std::size_t i = 0; i < r.kernels.size(); ++i) {
    EXPECT_EQ(j["kernels"][i]["bound"], placed[i].bound);
    EXPECT_NEAR(j["kernels"][i]["pct_of_roof"].get<double>(), placed[i].pct_of_roof, 1e-9);
  }
}

} // namespace

// Found by fuzz_run_json: a number too large for a double is bad input, not an internal error.
TEST(results, number_overflow_is_a_usage_error) {
  const std::string text =
      R"({"schema": "roofkit.run/1", "context": {"clocks": {"sm_mhz": 9.9e1980}},
                               "kernels": []})";
  try {
    (void)roofkit::parse_run(text, "big.json");
    FAIL() << "an overflowing number was accepted";
  } catch (const roofkit::error& e) {
    EXPECT_EQ(e.code(), roofkit::exit_code::usage);
    EXPECT_NE(std::string(e.what()).find("big.json"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("number overflow"), std::string::npos) << e.what();
  }
}
