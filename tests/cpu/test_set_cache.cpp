// The configured metric set's cache file (configure_metric_set), through the real CUPTI host API
// offline: what a later session reads back is what it would have worked out, and a file that
// does not match is worked out again.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <unistd.h>

#include "roofkit/bench.hpp"
#include "roofkit/core.hpp"
#include "roofkit/profiler.hpp"

namespace {

namespace fs = std::filesystem;
using roofkit::configure_metric_set;
using roofkit::configured_set;
using roofkit::cupti_catalog;

struct scratch_cache {
  fs::path dir = fs::temp_directory_path() / ("roofkit-set-cache-" + std::to_string(::getpid()));
  scratch_cache() { fs::remove_all(dir); }
  ~scratch_cache() { fs::remove_all(dir); }
  std::vector<fs::path> files() const {
    std::vector<fs::path> out;
    if (fs::is_directory(dir))
      for (const auto& e : fs::directory_iterator(dir))
        out.push_back(e.path());
    return out;
  }
};

void expect_same_set(const configured_set& a, const configured_set& b) {
  EXPECT_EQ(a.set.set, b.set.set);
  EXPECT_EQ(a.set.chip, b.set.chip);
  EXPECT_EQ(a.set.names(), b.set.names());
  EXPECT_EQ(a.set.passes, b.set.passes);
  EXPECT_EQ(a.set.cold_passes, b.set.cold_passes);
  EXPECT_EQ(a.set.cold_names, b.set.cold_names);
  ASSERT_EQ(a.set.metrics.size(), b.set.metrics.size());
  for (std::size_t i = 0; i < a.set.metrics.size(); ++i) {
    EXPECT_EQ(a.set.metrics[i].spec.key, b.set.metrics[i].spec.key);
    EXPECT_EQ(a.set.metrics[i].spec.role, b.set.metrics[i].spec.role);
    EXPECT_EQ(a.set.metrics[i].nvidia_description, b.set.metrics[i].nvidia_description);
  }
  ASSERT_EQ(a.set.dropped.size(), b.set.dropped.size());
  for (std::size_t i = 0; i < a.set.dropped.size(); ++i) {
    EXPECT_EQ(a.set.dropped[i].spec.key, b.set.dropped[i].spec.key);
    EXPECT_EQ(a.set.dropped[i].reason, b.set.dropped[i].reason);
  }
  EXPECT_EQ(a.config, b.config);
}

TEST(set_cache, a_later_session_reads_back_what_it_would_work_out) {
  const scratch_cache cache;
  const cupti_catalog gh100("GH100");
  const auto& def = roofkit::bench_metric_set();
  const configured_set fresh = configure_metric_set(def, gh100);
  EXPECT_FALSE(fresh.from_cache);
  EXPECT_TRUE(cache.files().empty());
  EXPECT_EQ(fresh.set.passes, 4);
  EXPECT_EQ(fresh.set.cold_passes, 1);
  EXPECT_EQ(cupti_catalog::image_passes(fresh.config), 4);

  const configured_set first = configure_metric_set(def, gh100, cache.dir);
  EXPECT_FALSE(first.from_cache);
  ASSERT_EQ(cache.files().size(), 1u);
  expect_same_set(first, fresh);

  const configured_set again = configure_metric_set(def, gh100, cache.dir);
  EXPECT_TRUE(again.from_cache);
  expect_same_set(again, fresh);
  EXPECT_EQ(again.set.find("dram_read")->spec.role, roofkit::metric_role::bytes);
}

TEST(set_cache, each_set_and_chip_has_its_own_file) {
  const scratch_cache cache;
  const cupti_catalog gh100("GH100");
  const cupti_catalog ga100("GA100");
  const auto& bench = roofkit::bench_metric_set();
  const auto& roofline = roofkit::find_metric_set("roofline");
  EXPECT_NE(roofkit::metric_config_key(bench, gh100), roofkit::metric_config_key(roofline, gh100));
  EXPECT_NE(roofkit::metric_config_key(bench, gh100), roofkit::metric_config_key(bench, ga100));
  configure_metric_set(bench, gh100, cache.dir);
  configure_metric_set(roofline, gh100, cache.dir);
  const configured_set on_ga100 = configure_metric_set(bench, ga100, cache.dir);
  EXPECT_EQ(cache.files().size(), 3u);
  EXPECT_FALSE(on_ga100.from_cache);
  EXPECT_EQ(on_ga100.set.chip, "GA100");
  expect_same_set(configure_metric_set(roofline, gh100, cache.dir),
                  configure_metric_set(roofline, gh100));
  // A definition that differs in one weight is another set.
  auto changed = bench;
  changed.metrics.front().weight += 1;
  EXPECT_NE(roofkit::metric_config_key(changed, gh100), roofkit::metric_config_key(bench, gh100));
  EXPECT_FALSE(configure_metric_set(changed, gh100, cache.dir).from_cache);
}

TEST(set_cache, a_corrupt_or_stale_file_is_worked_out_again) {
  const scratch_cache cache;
  const cupti_catalog gh100("GH100");
  const auto& def = roofkit::bench_metric_set();
  const configured_set fresh = configure_metric_set(def, gh100, cache.dir);
  ASSERT_EQ(cache.files().size(), 1u);
  const fs::path file = cache.files().front();
  const std::string good = roofkit::read_text_file(file);

  std::ofstream(file, std::ios::trunc) << good.substr(0, good.size() / 2); // cut short
  configured_set c = configure_metric_set(def, gh100, cache.dir);
  EXPECT_FALSE(c.from_cache);
  expect_same_set(c, fresh);
  EXPECT_EQ(roofkit::read_text_file(file), good) << "rewritten whole";

  std::string stale = good; // another CUPTI wrote it
  const auto at = stale.find("CUPTI ");
  ASSERT_NE(at, std::string::npos);
  stale.replace(at, 6, "CUPTI 9");
  std::ofstream(file, std::ios::trunc) << stale;
  EXPECT_FALSE(configure_metric_set(def, gh100, cache.dir).from_cache);

  std::string wrong_passes = good; // a file whose image does not hold its pass count
  const auto passes = wrong_passes.find("\"passes\": 4");
  ASSERT_NE(passes, std::string::npos);
  wrong_passes.replace(passes, 11, "\"passes\": 3");
  std::ofstream(file, std::ios::trunc) << wrong_passes;
  c = configure_metric_set(def, gh100, cache.dir);
  EXPECT_FALSE(c.from_cache);
  EXPECT_EQ(c.set.passes, 4);
}

TEST(set_cache, an_unwritable_directory_only_costs_the_work) {
  const scratch_cache cache;
  fs::create_directories(cache.dir.parent_path());
  std::ofstream(cache.dir) << "a file where the directory would be";
  const cupti_catalog gh100("GH100");
  const configured_set c = configure_metric_set(roofkit::bench_metric_set(), gh100, cache.dir);
  EXPECT_FALSE(c.from_cache);
  EXPECT_EQ(c.set.passes, 4);
  fs::remove(cache.dir);
}

} // namespace
