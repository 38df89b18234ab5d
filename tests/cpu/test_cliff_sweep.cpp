// Sweep axes and ranges: parsing, values, defaults, thresholds, units and spreads.
#include <gtest/gtest.h>

#include "roofkit/cliff.hpp"
#include "roofkit/core.hpp"

namespace roofkit {
namespace {

std::string usage_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const error& e) {
    EXPECT_EQ(e.code(), exit_code::usage);
    return e.what();
  }
  ADD_FAILURE() << "no usage error";
  return "";
}

TEST(CliffSweep, AxisNamesRoundTrip) {
  for (auto a : {sweep_axis::block, sweep_axis::smem, sweep_axis::regs, sweep_axis::size})
    EXPECT_EQ(parse_sweep_axis(to_string(a)), a);
  const auto m = usage_message([] { parse_sweep_axis("threads"); });
  EXPECT_NE(m.find("'threads'"), std::string::npos);
  EXPECT_NE(m.find("block, smem, regs, size"), std::string::npos);
}

TEST(CliffSweep, ArithmeticRange) {
  const auto r = parse_sweep_range("64:1024:64", sweep_axis::block);
  EXPECT_EQ(r.first, 64);
  EXPECT_EQ(r.last, 1024);
  EXPECT_EQ(r.step, 64);
  EXPECT_FALSE(r.geometric);
  const auto v = sweep_values(r);
  ASSERT_EQ(v.size(), 16u);
  EXPECT_EQ(v.front(), 64);
  EXPECT_EQ(v[1], 128);
  EXPECT_EQ(v.back(), 1024);
  EXPECT_EQ(to_string(r), "64:1024:64");
}

TEST(CliffSweep, LastValueIncludedOnlyWhenReached) {
  const auto v = sweep_values(parse_sweep_range("32:100:32", sweep_axis::block));
  EXPECT_EQ(v, (std::vector<std::int64_t>{32, 64, 96}));
  EXPECT_EQ(sweep_values(parse_sweep_range("33:33:1", sweep_axis::regs)),
            (std::vector<std::int64_t>{33}));
}

TEST(CliffSweep, SuffixesAndGeometric) {
  const auto s = parse_sweep_range("0:96K:8KB", sweep_axis::smem);
  EXPECT_EQ(s.last, 96 * 1024);
  EXPECT_EQ(s.step, 8 * 1024);
  EXPECT_EQ(sweep_values(s).size(), 13u);
  const auto g = parse_sweep_range("1M:1G:x2", sweep_axis::size);
  EXPECT_TRUE(g.geometric);
  const auto v = sweep_values(g);
  ASSERT_EQ(v.size(), 11u);
  EXPECT_EQ(v.front(), 1 << 20);
  EXPECT_EQ(v[1], 2 << 20);
  EXPECT_EQ(v.back(), std::int64_t{1} << 30);
  EXPECT_EQ(to_string(g), "1048576:1073741824:x2");
  EXPECT_EQ(sweep_values(parse_sweep_range("3:100:x3", sweep_axis::size)),
            (std::vector<std::int64_t>{3, 9, 27, 81}));
}

TEST(CliffSweep, MalformedRangesNameTheText) {
  for (const char* bad : {"64:1024", "64", "a:b:c", "64:1024:0", "64:1024:-8", "64:1024:x1",
                          "1024:64:64", "64:1024:64:1", "64:1024:8Q", ":1024:64"}) {
    const auto m = usage_message([&] { parse_sweep_range(bad, sweep_axis::block); });
    EXPECT_NE(m.find(std::string("'") + bad + "'"), std::string::npos) << m;
  }
  EXPECT_NE(usage_message([] {
              parse_sweep_range("1024:64:64", sweep_axis::block);
            }).find("first 1024 is above last 64"),
            std::string::npos);
  EXPECT_NE(usage_message([] { parse_sweep_range("0:10:x2", sweep_axis::size); }).find("at 0"),
            std::string::npos);
}

TEST(CliffSweep, ValuesOutsideTheAxisAreRejected) {
  const auto m = usage_message([] { parse_sweep_range("64:2048:64", sweep_axis::block); });
  EXPECT_NE(m.find("1..1024"), std::string::npos) << m;
  EXPECT_NE(usage_message([] { parse_sweep_range("0:64:8", sweep_axis::regs); }).find("1..255"),
            std::string::npos);
  EXPECT_NE(usage_message([] { parse_sweep_range("1:300:1", sweep_axis::regs); }).find("1..255"),
            std::string::npos);
  EXPECT_NO_THROW(parse_sweep_range("0:227K:1K", sweep_axis::smem));
}

TEST(CliffSweep, CountsTakeSuffixes) {
  EXPECT_EQ(parse_count("32M", "--size"), std::int64_t{32} << 20);
  EXPECT_EQ(parse_count("1G", "--size"), std::int64_t{1} << 30);
  EXPECT_EQ(parse_count("48KiB", "--size"), 48 * 1024);
  EXPECT_EQ(parse_count("1000", "--size"), 1000);
  for (const char* bad : {"3Q", "-1", "", "1.5M", "M"}) {
    const auto m = usage_message([&] { parse_count(bad, "--size"); });
    EXPECT_NE(m.find(std::string("--size '") + bad + "'"), std::string::npos) << m;
  }
}

TEST(CliffSweep, TooManyPoints) {
  const auto m = usage_message([] { parse_sweep_range("0:1G:1", sweep_axis::smem); });
  EXPECT_NE(m.find("at most 4096"), std::string::npos) << m;
  EXPECT_NO_THROW(parse_sweep_range("1:4096:1", sweep_axis::size));
}

TEST(CliffSweep, Defaults) {
  EXPECT_EQ(sweep_values(default_sweep_range(sweep_axis::block)).size(), 32u);
  EXPECT_EQ(sweep_values(default_sweep_range(sweep_axis::smem)).back(), 224 * 1024);
  EXPECT_EQ(sweep_values(default_sweep_range(sweep_axis::regs)).front(), 16);
  const auto size = sweep_values(default_sweep_range(sweep_axis::size));
  EXPECT_EQ(size.front(), 1 << 16);
  EXPECT_EQ(size.back(), 1 << 30);
}

TEST(CliffSweep, ThresholdPercent) {
  EXPECT_DOUBLE_EQ(parse_threshold_percent("5"), 0.05);
  EXPECT_DOUBLE_EQ(parse_threshold_percent("2.5%"), 0.025);
  for (const char* bad : {"0", "100", "-1", "five", "5 %", ""}) {
    const auto m = usage_message([&] { parse_threshold_percent(bad); });
    EXPECT_NE(m.find("above 0 and below 100"), std::string::npos) << bad;
  }
}

TEST(CliffSweep, TimeUnits) {
  EXPECT_DOUBLE_EQ(*time_unit_seconds("ms"), 1e-3);
  EXPECT_DOUBLE_EQ(*time_unit_seconds("us"), 1e-6);
  EXPECT_DOUBLE_EQ(*time_unit_seconds("\u00b5s"), 1e-6);
  EXPECT_DOUBLE_EQ(*time_unit_seconds("ns"), 1e-9);
  EXPECT_DOUBLE_EQ(*time_unit_seconds("s"), 1.0);
  EXPECT_FALSE(time_unit_seconds("GB/s"));
  EXPECT_FALSE(time_unit_seconds("MS"));
}

TEST(CliffSweep, RelativeSpreadIsTheInterdecileRangeOverTheMedian) {
  EXPECT_EQ(relative_spread({}), 0);
  EXPECT_EQ(relative_spread({1.0}), 0);
  EXPECT_EQ(relative_spread({2, 2, 2, 2}), 0);
  // 11 samples 10..20: p10 = 11, p90 = 19, median 15.
  std::vector<double> s;
  for (int i = 20; i >= 10; --i)
    s.push_back(i);
  EXPECT_NEAR(relative_spread(s), 8.0 / 15.0, 1e-12);
  // One wild outlier among 20 does not move the spread much.
  std::vector<double> t(19, 1.0);
  t.push_back(100);
  EXPECT_LT(relative_spread(t), 0.01);
}

} // namespace
} // namespace roofkit
