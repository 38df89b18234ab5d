// The CPU references of the kernel suite against independently computed values, and the
// comparison helpers that turn them into verifications.
#include <bit>
#include <cmath>
#include <numeric>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "common/check.hpp"
#include "common/random.hpp"
#include "divergence/divergence_reference.hpp"
#include "gemm/gemm_reference.hpp"
#include "global/global_reference.hpp"
#include "layout/layout_reference.hpp"
#include "readonly/readonly_reference.hpp"
#include "reduce/reduce_reference.hpp"
#include "registers/registers_reference.hpp"
#include "smem/smem_reference.hpp"
#include "stencil/stencil_reference.hpp"
#include "transpose/transpose_reference.hpp"
#include "vadd/vadd_reference.hpp"

namespace {

using namespace roofkit::kernels;

std::vector<float> random_floats(std::size_t n, std::uint64_t seed) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = random_value(seed, i, value_kind::uniform);
  return v;
}

TEST(random_value, stays_in_range_never_zero_and_is_reproducible) {
  for (std::uint64_t i = 0; i < 100000; ++i) {
    const float u = random_value(7, i, value_kind::uniform);
    EXPECT_TRUE(u >= -1.0f && u < 1.0f && u != 0.0f) << u;
    const float s = random_value(7, i, value_kind::small_integers);
    EXPECT_TRUE(s == std::round(s) && std::fabs(s) >= 1 && std::fabs(s) <= 8) << s;
    const float k = random_value(7, i, value_kind::integers);
    EXPECT_TRUE(k == std::round(k) && std::fabs(k) >= 1 && std::fabs(k) <= 1000) << k;
  }
  EXPECT_EQ(random_value(3, 5, value_kind::uniform), random_value(3, 5, value_kind::uniform));
  EXPECT_NE(random_value(3, 5, value_kind::uniform), random_value(4, 5, value_kind::uniform));
  // Both signs and every small integer show up.
  std::set<float> seen;
  for (std::uint64_t i = 0; i < 1000; ++i)
    seen.insert(random_value(11, i, value_kind::small_integers));
  EXPECT_EQ(seen.size(), 16u);
}

TEST(global_reference, strided_gather_wraps_around_n) {
  std::vector<float> in(8), out(8);
  std::iota(in.begin(), in.end(), 1.0f); // 1..8
  strided_scale_reference(in, out, 2);   // in[(2t) mod 8]: 1 3 5 7 1 3 5 7
  EXPECT_EQ(out, (std::vector<float>{2, 6, 10, 14, 2, 6, 10, 14}));
  strided_scale_reference(in, out, 1);
  EXPECT_EQ(out, (std::vector<float>{2, 4, 6, 8, 10, 12, 14, 16}));
  std::vector<float> in5 = {1, 2, 3, 4, 5}, out5(5);
  strided_scale_reference(in5, out5, 32); // 32t mod 5 = 0 2 4 1 3
  EXPECT_EQ(out5, (std::vector<float>{2, 6, 10, 4, 8}));
}

TEST(global_reference, affine_and_scale) {
  std::vector<float> in = {0.5f, -1.0f, 3.0f}, out(3);
  affine_reference(in, out, 2.0f, 1.0f);
  EXPECT_EQ(out, (std::vector<float>{2.0f, -1.0f, 7.0f}));
  scale_reference(in, out, 2.0f);
  EXPECT_EQ(out, (std::vector<float>{1.0f, -2.0f, 6.0f}));
}

TEST(vadd_reference, adds_elementwise) {
  std::vector<float> a = {1, 2, 3}, b = {10, 20, -3}, c(3);
  add_reference(a, b, c);
  EXPECT_EQ(c, (std::vector<float>{11, 22, 0}));
}

TEST(layout_reference, luma_weights) {
  EXPECT_FLOAT_EQ(luma_reference(1, 0, 0), 0.299f);
  EXPECT_FLOAT_EQ(luma_reference(0, 1, 0), 0.587f);
  EXPECT_FLOAT_EQ(luma_reference(0, 0, 1), 0.114f);
  EXPECT_NEAR(luma_reference(0.25f, -0.5f, 0.75f), 0.299 * 0.25 - 0.587 * 0.5 + 0.114 * 0.75, 1e-7);
}

TEST(gemm_reference, matches_a_triple_loop_in_double) {
  for (std::int64_t n : {1, 7, 33}) {
    const auto a = random_floats(n * n, 1), b = random_floats(n * n, 2);
    std::vector<float> c(n * n);
    gemm_reference(a, b, c, n);
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (std::int64_t k = 0; k < n; ++k)
          s += double(a[i * n + k]) * b[k * n + j];
        EXPECT_NEAR(c[i * n + j], s, 1e-5) << i << "," << j;
      }
  }
  // 2x2 by hand: [1 2; 3 4] [5 6; 7 8] = [19 22; 43 50]
  std::vector<float> a = {1, 2, 3, 4}, b = {5, 6, 7, 8}, c(4);
  gemm_reference(a, b, c, 2);
  EXPECT_EQ(c, (std::vector<float>{19, 22, 43, 50}));
}

TEST(gemm_reference, check_accepts_the_product_and_rejects_one_wrong_element) {
  for (std::int64_t limit : {2048, 16}) { // full Eigen check; sampled rows + Freivalds
    const std::int64_t n = 40;
    const auto a = random_floats(n * n, 3), b = random_floats(n * n, 4);
    std::vector<float> c(n * n);
    for (std::int64_t i = 0; i < n; ++i) // an independent product: loops in float
      for (std::int64_t j = 0; j < n; ++j) {
        float s = 0;
        for (std::int64_t k = 0; k < n; ++k)
          s += a[i * n + k] * b[k * n + j];
        c[i * n + j] = s;
      }
    const auto good = check_gemm(a, b, c, n, limit);
    EXPECT_TRUE(good.ok) << good.message;
    c[17 * n + 23] += 0.25f;
    const auto bad = check_gemm(a, b, c, n, limit);
    EXPECT_FALSE(bad.ok) << bad.message;
    c[17 * n + 23] = NAN;
    EXPECT_FALSE(check_gemm(a, b, c, n, limit).ok);
  }
  EXPECT_DOUBLE_EQ(gemm_tolerance(2048), 2e-6 * 2048 + 1e-5);
}

TEST(transpose_reference, swaps_rows_and_columns) {
  std::vector<float> in = {1, 2, 3, 4, 5, 6, 7, 8, 9}, out(9);
  transpose_reference(in, out, 3);
  EXPECT_EQ(out, (std::vector<float>{1, 4, 7, 2, 5, 8, 3, 6, 9}));
  const std::int64_t n = 131; // crosses the 64-element blocks
  const auto big = random_floats(n * n, 5);
  std::vector<float> t(n * n);
  transpose_reference(big, t, n);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      ASSERT_EQ(t[j * n + i], big[i * n + j]);
}

TEST(reduce_reference, sums_and_dots) {
  std::vector<float> x = {1, -2, 3.5f}, y = {2, 4, 2};
  EXPECT_DOUBLE_EQ(sum_reference(x), 2.5);
  EXPECT_DOUBLE_EQ(dot_reference(x, y), 2 - 8 + 7);
  EXPECT_DOUBLE_EQ(sum_reference(std::vector<float>{}), 0.0);
}

TEST(reduce_reference, small_integer_data_makes_float_sums_exact_in_any_order) {
  // What lets the reduction kernels be checked exactly: float partial sums of +-1..+-8 values.
  const std::size_t n = 1 << 20;
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i)
    x[i] = random_value(99, i, value_kind::small_integers);
  float forward = 0, backward = 0, pairwise = 0;
  for (std::size_t i = 0; i < n; ++i)
    forward += x[i];
  for (std::size_t i = n; i-- > 0;)
    backward += x[i];
  std::vector<float> level = x;
  while (level.size() > 1) {
    for (std::size_t i = 0; i < level.size() / 2; ++i)
      level[i] = level[2 * i] + level[2 * i + 1];
    level.resize(level.size() / 2);
  }
  pairwise = level[0];
  const double exact = sum_reference(x);
  EXPECT_EQ(double(forward), exact);
  EXPECT_EQ(double(backward), exact);
  EXPECT_EQ(double(pairwise), exact);
}

TEST(stencil_reference, averages_three_neighbours_and_leaves_the_ends) {
  std::vector<float> in = {3, 6, 9, 12}, out = {-1, -1, -1, -1};
  smooth_reference(in, out);
  EXPECT_EQ(out, (std::vector<float>{-1, 6, 9, -1}));
  std::vector<float> in3 = {1, 2, 4}, out3(3, 0);
  smooth_reference(in3, out3);
  EXPECT_FLOAT_EQ(out3[1], 7.0f / 3.0f);
}

TEST(smem_reference, repeated_sum) {
  std::vector<float> in = {1, -2, 1000}, out(3);
  repeated_sum_reference(in, out, 256);
  EXPECT_EQ(out, (std::vector<float>{256, -512, 256000}));
}

TEST(divergence_reference, paths_and_lanes) {
  EXPECT_TRUE(takes_path_a(0, 0));
  EXPECT_TRUE(takes_path_a(31, 0));
  EXPECT_FALSE(takes_path_a(32, 0)); // odd warps take B
  EXPECT_TRUE(takes_path_a(64, 0));
  EXPECT_TRUE(takes_path_a(23, 24));
  EXPECT_FALSE(takes_path_a(24, 24));
  EXPECT_TRUE(takes_path_a(32 + 23, 24)); // lane 23 of warp 1
  EXPECT_FALSE(takes_path_a(1, 1));
  EXPECT_EQ(branch_reference(0.7f, true, 0), 0.7f);
  EXPECT_EQ(branch_reference(1.0f, true, 1), 1.0f * 0.999f + 0.001f);
  EXPECT_EQ(branch_reference(0.5f, false, 1), 0.0f); // 0.25 - 0.25
  EXPECT_EQ(branch_reference(0.5f, false, 2), -0.25f);
  // Path A converges to 1, path B stays bounded.
  EXPECT_NEAR(branch_reference(-0.9f, true, 20000), 1.0f, 1e-3);
  EXPECT_LE(std::fabs(branch_reference(0.99f, false, 1024)), 0.5f);
}

TEST(registers_reference, folds_a_threads_elements) {
  // k = 2, one thread, x = 2: acc = {0, 0.125} -> acc0 = 0*2 + 0.125, acc1 = 0.125*2 + 0.125.
  const std::vector<float> one = {2};
  EXPECT_EQ(fold_reference(one, 0, 1, 2), 0.125f + 0.375f);
  // Thread 1 of 2 sees only elements 1, 3, ...
  const std::vector<float> three = {100, 2, 100};
  EXPECT_EQ(fold_reference(three, 1, 2, 2), 0.5f);
  // No elements: the initial accumulators 0, 0.125, ..., (k-1)/8 summed.
  const std::vector<float> none;
  EXPECT_EQ(fold_reference(none, 0, 1, 4), 0.0f + 0.125f + 0.25f + 0.375f);
}

TEST(readonly_reference, weighted_window) {
  std::vector<float> in = {1, 2, 3}, w = {1, 10}, out(2);
  weighted_window_reference(in, w, out);
  EXPECT_EQ(out, (std::vector<float>{21, 32}));
}

TEST(checks, compare_close_reports_the_first_bad_element) {
  const std::vector<float> want = {1, 2, 3, 4};
  EXPECT_TRUE(compare_close(std::vector<float>{1, 2.0000001f, 3, 4}, want, 1e-5, 0, "x").ok);
  const auto v = compare_close(std::vector<float>{1, 2, 3.5f, 9}, want, 1e-3, 0, "x");
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("element 2"), std::string::npos) << v.message;
  EXPECT_DOUBLE_EQ(v.max_error, 5.0);
  EXPECT_FALSE(compare_close(std::vector<float>{1, NAN, 3, 4}, want, 1e9, 0, "x").ok);
  EXPECT_TRUE(compare_close(std::vector<float>{1.01f}, std::vector<float>{1}, 0, 0.02, "x").ok);
  EXPECT_FALSE(compare_close(std::vector<float>{1}, std::vector<float>{1, 2}, 1, 1, "x").ok);
}

TEST(checks, exact_poison_scalar_and_sampled) {
  EXPECT_TRUE(compare_exact(std::vector<float>{1, -0.0f}, std::vector<float>{1, -0.0f}, "x").ok);
  EXPECT_FALSE(compare_exact(std::vector<float>{1, 0.0f}, std::vector<float>{1, -0.0f}, "x").ok);
  const float poison = std::bit_cast<float>(0xFFFFFFFFu);
  EXPECT_TRUE(expect_poison(std::vector<float>{poison, poison}, "p").ok);
  EXPECT_FALSE(expect_poison(std::vector<float>{poison, NAN}, "p").ok); // a different NaN
  EXPECT_TRUE(compare_scalar(10.0, 10.0, 0.0, "s").ok);
  EXPECT_FALSE(compare_scalar(10.0, 11.0, 0.5, "s").ok);
  EXPECT_FALSE(compare_scalar(NAN, 11.0, 1e9, "s").ok);
  std::vector<float> got(200000);
  for (std::size_t i = 0; i < got.size(); ++i)
    got[i] = float(i);
  auto ident = [](std::size_t i) { return float(i); };
  EXPECT_TRUE(compare_sampled(got, ident, 1000, 1000, 0, 0, "s").ok);
  got[999] = -1; // inside the always-checked head
  const auto v = compare_sampled(got, ident, 1000, 1000, 0, 0, "s");
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("element 999"), std::string::npos) << v.message;
  auto joined = both(compare_scalar(1, 1, 0, "a"), compare_scalar(1, 2, 0, "b"));
  EXPECT_FALSE(joined.ok);
  EXPECT_EQ(joined.checked, 2);
}

} // namespace
