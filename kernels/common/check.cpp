#include "common/check.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "common/buffers.hpp"
#include "common/random.hpp"

namespace roofkit::kernels {

verification compare_close(std::span<const float> got, std::span<const float> want, double atol,
                           double rtol, const std::string& what) {
  verification v;
  if (got.size() != want.size()) {
    v.message = fmt::format("{}: {} values, reference has {}", what, got.size(), want.size());
    return v;
  }
  std::size_t bad = got.size();
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = got[i], w = want[i];
    const double err = std::fabs(g - w);
    const double tol = atol + rtol * std::fabs(w);
    if (!std::isfinite(g) || !(err <= tol)) {
      if (bad == got.size())
        bad = i;
      if (!std::isfinite(g)) {
        v.max_error = INFINITY;
        v.tolerance = tol;
      }
    }
    if (std::isfinite(g) && err > v.max_error) {
      v.max_error = err;
      v.tolerance = tol;
    }
  }
  v.checked = static_cast<std::int64_t>(got.size());
  v.ok = bad == got.size();
  if (v.ok)
    v.message = fmt::format("{}: {} values within {:g} + {:g}|ref|, max error {:.3g}", what,
                            got.size(), atol, rtol, v.max_error);
  else
    v.message = fmt::format("{}: element {} is {} but the CPU reference is {} (tolerance {:g} + "
                            "{:g}|ref|)",
                            what, bad, got[bad], want[bad], atol, rtol);
  return v;
}

verification compare_exact(std::span<const float> got, std::span<const float> want,
                           const std::string& what) {
  verification v;
  if (got.size() != want.size()) {
    v.message = fmt::format("{}: {} values, reference has {}", what, got.size(), want.size());
    return v;
  }
  v.checked = static_cast<std::int64_t>(got.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::bit_cast<std::uint32_t>(got[i]) != std::bit_cast<std::uint32_t>(want[i])) {
      v.ok = false;
      v.max_error = std::isfinite(got[i]) ? std::fabs(double(got[i]) - want[i]) : INFINITY;
      v.message =
          fmt::format("{}: element {} is {:#010x} but the CPU reference is {:#010x}", what, i,
                      std::bit_cast<std::uint32_t>(got[i]), std::bit_cast<std::uint32_t>(want[i]));
      return v;
    }
  }
  v.ok = true;
  v.message = fmt::format("{}: {} values bit-identical", what, got.size());
  return v;
}

verification compare_sampled(std::span<const float> got,
                             const std::function<float(std::size_t)>& want, std::size_t first,
                             std::size_t others, double atol, double rtol,
                             const std::string& what) {
  std::vector<float> g, w;
  std::vector<std::size_t> index;
  const std::size_t head = std::min(first, got.size());
  for (std::size_t i = 0; i < head; ++i)
    index.push_back(i);
  if (got.size() > head) {
    const std::uint64_t seed = fresh_seed();
    for (std::size_t s = 0; s < others; ++s)
      index.push_back(head + static_cast<std::size_t>(random_bits(seed, s) % (got.size() - head)));
  }
  for (auto i : index) {
    g.push_back(got[i]);
    w.push_back(want(i));
  }
  auto v = compare_close(g, w, atol, rtol, what);
  if (!v.ok) {
    // Name the element by its index in the whole output.
    for (std::size_t k = 0; k < index.size(); ++k)
      if (!std::isfinite(g[k]) ||
          !(std::fabs(double(g[k]) - w[k]) <= atol + rtol * std::fabs(double(w[k])))) {
        v.message = fmt::format("{}: element {} is {} but the CPU reference is {}", what, index[k],
                                g[k], w[k]);
        break;
      }
  } else if (index.size() < got.size()) {
    v.message = fmt::format("{}: the first {} and {} random others of {} values within {:g} + "
                            "{:g}|ref|, max error {:.3g}",
                            what, head, index.size() - head, got.size(), atol, rtol, v.max_error);
  }
  return v;
}

verification compare_scalar(double got, double want, double atol, const std::string& what) {
  verification v;
  v.checked = 1;
  v.tolerance = atol;
  v.max_error = std::isfinite(got) ? std::fabs(got - want) : INFINITY;
  v.ok = std::isfinite(got) && v.max_error <= atol;
  v.message = v.ok ? fmt::format("{}: {} (reference {}, tolerance {:g})", what, got, want, atol)
                   : fmt::format("{}: {} but the CPU reference is {} (tolerance {:g})", what, got,
                                 want, atol);
  return v;
}

verification expect_poison(std::span<const float> values, const std::string& what) {
  verification v;
  v.checked = static_cast<std::int64_t>(values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    if (std::bit_cast<std::uint32_t>(values[i]) != 0xFFFFFFFFu) {
      v.message = fmt::format("{}: element {} was written ({}) but must stay untouched", what, i,
                              values[i]);
      v.max_error = INFINITY;
      return v;
    }
  v.ok = true;
  v.message = fmt::format("{}: untouched", what);
  return v;
}

verification both(verification a, const verification& b) {
  a.ok = a.ok && b.ok;
  if (b.max_error > a.max_error) {
    a.max_error = b.max_error;
    a.tolerance = b.tolerance;
  }
  a.checked += b.checked;
  a.message += "; " + b.message;
  return a;
}

} // namespace roofkit::kernels
