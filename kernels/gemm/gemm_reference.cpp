#include "gemm/gemm_reference.hpp"

#include <cmath>

#include <Eigen/Dense>
#include <fmt/format.h>

#include "common/buffers.hpp"
#include "common/check.hpp"
#include "common/random.hpp"

namespace roofkit::kernels {

namespace {

using row_major = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using const_map = Eigen::Map<const row_major>;

} // namespace

void gemm_reference(std::span<const float> a, std::span<const float> b, std::span<float> c,
                    std::int64_t n) {
  const const_map ma(a.data(), n, n), mb(b.data(), n, n);
  Eigen::Map<row_major> mc(c.data(), n, n);
  mc.noalias() = ma * mb;
}

double gemm_tolerance(std::int64_t n) { return 2e-6 * static_cast<double>(n) + 1e-5; }

verification check_gemm(std::span<const float> a, std::span<const float> b,
                        std::span<const float> c, std::int64_t n, std::int64_t full_check_limit) {
  const double tol = gemm_tolerance(n);
  if (n <= full_check_limit) {
    std::vector<float> want(c.size());
    gemm_reference(a, b, want, n);
    return compare_close(c, want, tol, 0.0, fmt::format("C = A B against Eigen, N={}", n));
  }
  const const_map ma(a.data(), n, n), mb(b.data(), n, n), mc(c.data(), n, n);
  // Rows chosen at random, compared element by element.
  const std::uint64_t seed = fresh_seed();
  constexpr int sampled = 64;
  verification v;
  v.ok = true;
  for (int s = 0; s < sampled && v.ok; ++s) {
    const auto row = static_cast<Eigen::Index>(random_bits(seed, s) % std::uint64_t(n));
    const Eigen::RowVectorXf want = ma.row(row) * mb;
    const Eigen::RowVectorXf got = mc.row(row);
    const auto r = compare_close(std::span<const float>(got.data(), std::size_t(n)),
                                 std::span<const float>(want.data(), std::size_t(n)), tol, 0.0,
                                 fmt::format("row {} of C against Eigen", row));
    v = s == 0 ? r
               : verification{r.ok, std::max(v.max_error, r.max_error), tol, v.checked + r.checked,
                              r.message};
  }
  if (!v.ok)
    return v;
  // Freivalds: a wrong element anywhere shows up in (C - A B) x with overwhelming probability.
  Eigen::VectorXd x(n);
  for (Eigen::Index i = 0; i < n; ++i)
    x[i] = (random_bits(seed + 1, std::uint64_t(i)) & 1) ? 1.0 : -1.0;
  const Eigen::VectorXd bx = mb.cast<double>() * x;
  const Eigen::VectorXd residual = mc.cast<double>() * x - ma.cast<double>() * bx;
  const double rtol = 1e-6 * std::pow(static_cast<double>(n), 1.5);
  Eigen::Index worst = 0;
  double max_residual = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double r = std::fabs(residual[i]);
    if (!(r <= max_residual)) { // also picks up NaN, which then stays
      max_residual = std::isnan(r) ? INFINITY : r;
      worst = i;
      if (std::isnan(r))
        break;
    }
  }
  const bool ok = std::isfinite(max_residual) && max_residual <= rtol;
  return verification{
      ok, std::max(v.max_error, max_residual), rtol, v.checked + n,
      ok ? fmt::format("C = A B: {} random rows against Eigen within {:g}, and every row by "
                       "Freivalds' test (max |(C - A B) x| = {:.3g} <= {:.3g}), N={}",
                       sampled, tol, max_residual, rtol, n)
         : fmt::format("C = A B: row {} fails Freivalds' test: |(C - A B) x| = {:.3g} > "
                       "{:.3g}, N={}",
                       worst, max_residual, rtol, n)};
}

} // namespace roofkit::kernels
