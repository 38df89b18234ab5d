// Measured roofs by default (choose_roofs): the cache key, hits and misses, stale driver or
// clocks, a corrupt cache file, machine files of another GPU (refused, or accepted on request),
// with a fake measurement in place of the GPU.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <gtest/gtest.h>

#include "roofkit/ceilings.hpp"
#include "roofkit/core.hpp"

using namespace roofkit;
namespace fs = std::filesystem;

namespace {

gpu_identity h100() {
  gpu_identity g;
  g.uuid = "GPU-1b2c3d4e-0000-1111-2222-333344445555";
  g.name = "NVIDIA H100 80GB HBM3";
  g.driver = "580.95.05";
  g.sm_clock_mhz = 1980;
  g.mem_clock_mhz = 2619;
  return g;
}

gpu_identity a100() {
  gpu_identity g;
  g.uuid = "GPU-99999999-8888-7777-6666-555544443333";
  g.name = "NVIDIA A100-SXM4-80GB";
  g.driver = "580.95.05";
  g.sm_clock_mhz = 1410;
  g.mem_clock_mhz = 1593;
  return g;
}

ceiling_measurement figure(const char* name, double value, std::optional<memory_level> level,
                           std::optional<precision> prec) {
  ceiling_measurement m;
  m.name = name;
  m.unit = level ? "B/s" : "FLOP/s";
  m.value = m.best = value;
  m.level = level;
  m.prec = prec;
  m.sm_clock_mhz = 1975;
  return m;
}

// A stand-in for the GPU: counts its calls and answers fixed figures.
struct fake_gpu {
  gpu_identity identity = h100();
  int measured = 0;
  bool fail_one = false;
  ceilings_result measure(const ceilings_options& o) {
    ++measured;
    EXPECT_TRUE(o.quick);
    ceilings_result r;
    r.measurements = {
        figure("DRAM write stream", 3.2e12, memory_level::dram, std::nullopt),
        figure("FP32 FMA 32 chains", 66.0e12, std::nullopt, precision::fp32),
        figure("mma.sync FP64 m16n8k16 x4", 66.5e12, std::nullopt, precision::tensor_fp64)};
    if (fail_one)
      r.measurements.back().check = "measurement error: measured SM clock 2093 MHz is above";
    r.ceilings = best_ceilings(r.measurements, 2619);
    r.elapsed_s = 4.2;
    r.cc_major = 9;
    r.sm_count = 132;
    return r;
  }
};

class ceilings_cache : public ::testing::Test {
protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("roofkit-cache-test-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  roofs_request request(const std::string& ceilings = "") {
    roofs_request rq;
    rq.ceilings = ceilings;
    rq.cache_dir = dir;
    rq.identify = [this](int) { return gpu.identity; };
    rq.measure = [this](const ceilings_options& o, const std::vector<ceiling>&) {
      return gpu.measure(o);
    };
    rq.warn = [this](const std::string& s) { warnings.push_back(s); };
    return rq;
  }
  chosen_roofs choose(const std::string& ceilings = "") {
    return choose_roofs(request(ceilings), {});
  }

  fs::path dir;
  fake_gpu gpu;
  std::vector<std::string> warnings;
};

const ceiling* roof(const std::vector<ceiling>& cs, precision p) {
  for (const auto& c : cs)
    if (!c.is_memory && c.prec == p)
      return &c;
  return nullptr;
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

} // namespace

TEST(ceilings_cache_key, names_the_gpu_driver_and_both_clocks) {
  const gpu_identity g = h100();
  const std::string key = ceilings_cache_key(g);
  EXPECT_NE(key.find(g.uuid), std::string::npos);
  EXPECT_NE(key.find("580.95.05"), std::string::npos);
  EXPECT_NE(key.find("1980"), std::string::npos);
  EXPECT_NE(key.find("2619"), std::string::npos);
  gpu_identity other = g;
  other.driver = "590.10.01";
  EXPECT_NE(ceilings_cache_key(other), key);
  other = g;
  other.sm_clock_mhz = 1755;
  EXPECT_NE(ceilings_cache_key(other), key);
  other = g;
  other.mem_clock_mhz = 2600;
  EXPECT_NE(ceilings_cache_key(other), key);
  other = g;
  other.uuid = a100().uuid;
  EXPECT_NE(ceilings_cache_key(other), key);
  EXPECT_EQ(ceilings_cache_key(h100()), key);
}

TEST(ceilings_cache_key, cache_directory_follows_xdg_then_home) {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const std::string saved_xdg = xdg ? xdg : "", saved_home = home ? home : "";
  ::setenv("XDG_CACHE_HOME", "/tmp/xdg-here", 1);
  ::setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(default_cache_dir(), fs::path("/tmp/xdg-here/roofkit"));
  ::unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(default_cache_dir(), fs::path("/home/someone/.cache/roofkit"));
  ::unsetenv("HOME");
  EXPECT_TRUE(default_cache_dir().empty());
  if (xdg)
    ::setenv("XDG_CACHE_HOME", saved_xdg.c_str(), 1);
  if (home)
    ::setenv("HOME", saved_home.c_str(), 1);
  // One file per GPU, named by its UUID.
  EXPECT_EQ(ceilings_cache_path("/c", h100()),
            fs::path("/c/ceilings-GPU-1b2c3d4e-0000-1111-2222-333344445555.json"));
  EXPECT_NE(ceilings_cache_path("/c", h100()), ceilings_cache_path("/c", a100()));
}

TEST_F(ceilings_cache, first_run_measures_and_caches_later_runs_hit) {
  const chosen_roofs first = choose();
  EXPECT_EQ(gpu.measured, 1);
  EXPECT_EQ(first.origin, "measured");
  ASSERT_TRUE(first.result.has_value());
  EXPECT_EQ(first.path, ceilings_cache_path(dir, h100()).string());
  EXPECT_TRUE(fs::exists(first.path));
  ASSERT_NE(roof(first.measured, precision::fp32), nullptr);
  EXPECT_NE(first.note.find("measured " + first.date), std::string::npos) << first.note;
  EXPECT_TRUE(warnings.empty());

  const chosen_roofs second = choose();
  EXPECT_EQ(gpu.measured, 1) << "a cache hit must not measure";
  EXPECT_EQ(second.origin, "cache");
  EXPECT_FALSE(second.result.has_value());
  EXPECT_EQ(second.date, first.date);
  ASSERT_EQ(second.measured.size(), first.measured.size());
  const ceiling* fp32 = roof(second.measured, precision::fp32);
  ASSERT_NE(fp32, nullptr);
  EXPECT_DOUBLE_EQ(fp32->value, 66.0e12);
  EXPECT_DOUBLE_EQ(fp32->sm_clock_mhz, 1975);
  EXPECT_EQ(fp32->source, ceiling_source::measured);
  EXPECT_NE(second.note.find(first.date), std::string::npos) << second.note;
  EXPECT_NE(second.note.find("cache"), std::string::npos) << second.note;
  EXPECT_TRUE(warnings.empty());
}

TEST_F(ceilings_cache, new_driver_or_clocks_measure_again) {
  choose();
  gpu.identity.driver = "590.10.01";
  EXPECT_EQ(choose().origin, "measured");
  EXPECT_EQ(gpu.measured, 2);
  EXPECT_EQ(choose().origin, "cache");
  gpu.identity.sm_clock_mhz = 1755;
  EXPECT_EQ(choose().origin, "measured");
  gpu.identity.mem_clock_mhz = 2400;
  EXPECT_EQ(choose().origin, "measured");
  EXPECT_EQ(gpu.measured, 4);
  EXPECT_EQ(choose().origin, "cache");
  EXPECT_EQ(gpu.measured, 4);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
}

TEST_F(ceilings_cache, another_gpu_has_its_own_entry) {
  choose();
  gpu.identity = a100();
  EXPECT_EQ(choose().origin, "measured");
  gpu.identity = h100();
  EXPECT_EQ(choose().origin, "cache");
  EXPECT_EQ(gpu.measured, 2);
}

TEST_F(ceilings_cache, corrupt_file_is_measured_again_with_one_warning) {
  const fs::path path = ceilings_cache_path(dir, h100());
  for (const std::string& text :
       {std::string("{\"schema\": \"roofkit.machine/1\", \"ceilings\": [{\"precis"),
        std::string("not json at all"), std::string("{\"schema\": \"roofkit.machine/1\"}"),
        std::string("{\"schema\": \"roofkit.machine/1\", \"ceilings\": []}"), std::string()}) {
    warnings.clear();
    write(path, text);
    const int before = gpu.measured;
    chosen_roofs c;
    ASSERT_NO_THROW(c = choose()) << text;
    EXPECT_EQ(gpu.measured, before + 1) << text;
    EXPECT_EQ(c.origin, "measured");
    ASSERT_EQ(warnings.size(), 1u) << text;
    EXPECT_NE(warnings[0].find(path.string()), std::string::npos) << warnings[0];
    EXPECT_NE(warnings[0].find("measuring them again"), std::string::npos) << warnings[0];
    EXPECT_EQ(choose().origin, "cache") << "the cache was not rewritten after: " << text;
  }
}

TEST_F(ceilings_cache, failed_checks_use_what_passed_and_cache_nothing) {
  gpu.fail_one = true;
  const chosen_roofs c = choose();
  EXPECT_EQ(roof(c.measured, precision::tensor_fp64), nullptr);
  EXPECT_NE(roof(c.measured, precision::fp32), nullptr);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("not cached"), std::string::npos) << warnings[0];
  EXPECT_FALSE(fs::exists(ceilings_cache_path(dir, h100())));
  gpu.fail_one = false;
  EXPECT_EQ(choose().origin, "measured");
  EXPECT_EQ(gpu.measured, 2);
}

TEST_F(ceilings_cache, theoretical_measures_nothing) {
  const chosen_roofs c = choose("theoretical");
  EXPECT_EQ(c.origin, "theoretical");
  EXPECT_TRUE(c.measured.empty());
  EXPECT_EQ(gpu.measured, 0);
  EXPECT_NE(c.note.find("theoretical"), std::string::npos);
}

TEST_F(ceilings_cache, machine_file_of_another_gpu_is_refused_unless_asked) {
  // Measured on the A100, applied on the H100.
  gpu.identity = a100();
  choose();
  const fs::path a100_file = ceilings_cache_path(dir, a100());
  gpu.identity = h100();
  try {
    choose(a100_file.string());
    FAIL() << "a machine file of another GPU was accepted";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), exit_code::usage);
    const std::string what = e.what();
    EXPECT_NE(what.find(a100().uuid), std::string::npos) << what;
    EXPECT_NE(what.find(h100().uuid), std::string::npos) << what;
    EXPECT_NE(what.find(a100_file.string()), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  EXPECT_TRUE(warnings.empty());

  roofs_request rq = request(a100_file.string());
  rq.any_gpu = true;
  const chosen_roofs c = choose_roofs(rq, {});
  EXPECT_EQ(c.origin, "file");
  EXPECT_FALSE(c.measured.empty());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("used although"), std::string::npos) << warnings[0];
  EXPECT_NE(c.note.find("used although"), std::string::npos) << c.note;
  EXPECT_EQ(gpu.measured, 1);
}

TEST_F(ceilings_cache, machine_file_of_this_gpu_is_used_as_it_is) {
  choose();
  const fs::path file = ceilings_cache_path(dir, h100());
  const chosen_roofs c = choose(file.string());
  EXPECT_EQ(c.origin, "file");
  EXPECT_NE(roof(c.measured, precision::fp32), nullptr);
  EXPECT_NE(c.note.find(file.string()), std::string::npos);
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(gpu.measured, 1);
}

TEST(machine_gpu_mismatch, uuid_first_then_the_name) {
  machine_ceilings m;
  m.device_name = "NVIDIA H100 80GB HBM3";
  m.gpu = h100();
  EXPECT_EQ(machine_gpu_mismatch(m, h100()), "");
  gpu_identity twin = h100(); // same model, another board
  twin.uuid = "GPU-00000000-0000-0000-0000-000000000001";
  EXPECT_NE(machine_gpu_mismatch(m, twin), "");
  // An older file without a UUID: judged by the name.
  m.gpu.uuid.clear();
  EXPECT_EQ(machine_gpu_mismatch(m, twin), "");
  EXPECT_NE(machine_gpu_mismatch(m, a100()).find("NVIDIA A100"), std::string::npos);
  m.gpu = {};
  m.device_name.clear();
  EXPECT_NE(machine_gpu_mismatch(m, h100()), "");
}

TEST(machine_file, identity_round_trips) {
  ceilings_result r;
  r.measurements = {figure("FP32 FMA", 66e12, std::nullopt, precision::fp32)};
  r.ceilings = best_ceilings(r.measurements, 2619);
  r.gpu = h100();
  const machine_ceilings m = make_machine_ceilings(r, "NVIDIA H100 80GB HBM3", 9, 0, 132, "x");
  const machine_ceilings back = parse_machine_ceilings(machine_json_text(m), "test");
  EXPECT_EQ(back.gpu.uuid, h100().uuid);
  EXPECT_EQ(back.gpu.driver, h100().driver);
  EXPECT_DOUBLE_EQ(back.gpu.sm_clock_mhz, 1980);
  EXPECT_DOUBLE_EQ(back.gpu.mem_clock_mhz, 2619);
  EXPECT_EQ(ceilings_cache_key(back.gpu), ceilings_cache_key(h100()));
}
