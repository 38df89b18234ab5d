// Plateaus of a working-set sweep: optimal piecewise-constant segmentation of the log rate,
// then a least-squares fit of time = latency + bytes / bandwidth on each plateau.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <Eigen/Dense>

#include "roofkit/ceilings.hpp"

namespace roofkit {

namespace {

struct group {
  double working_set = 0;
  double log_rate = 0; // log(bytes / time) of the group's largest launch
};

std::vector<group> groups_of(const std::vector<sweep_point>& points) {
  std::map<double, const sweep_point*> largest;
  for (const auto& p : points) {
    auto& slot = largest[p.working_set_bytes];
    if (!slot || p.bytes > slot->bytes)
      slot = &p;
  }
  std::vector<group> out;
  for (const auto& [ws, p] : largest)
    out.push_back({ws, std::log(p->bytes / p->time_s)});
  return out;
}

// Segments [begin, end) of the log rates minimising the squared deviations from each segment's
// mean plus `penalty` per segment (dynamic programming, O(n^2)).
std::vector<std::pair<std::size_t, std::size_t>> segment(const std::vector<group>& g,
                                                         double penalty) {
  const std::size_t n = g.size();
  std::vector<double> sum(n + 1, 0), sum2(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    sum[i + 1] = sum[i] + g[i].log_rate;
    sum2[i + 1] = sum2[i] + g[i].log_rate * g[i].log_rate;
  }
  const auto cost = [&](std::size_t a, std::size_t b) {
    const double m = double(b - a), s = sum[b] - sum[a];
    return (sum2[b] - sum2[a]) - s * s / m;
  };
  std::vector<double> best(n + 1, std::numeric_limits<double>::infinity());
  std::vector<std::size_t> from(n + 1, 0);
  best[0] = 0;
  for (std::size_t b = 1; b <= n; ++b)
    for (std::size_t a = 0; a < b; ++a) {
      const double c = best[a] + cost(a, b) + penalty;
      if (c < best[b]) {
        best[b] = c;
        from[b] = a;
      }
    }
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t b = n; b > 0; b = from[b])
    out.emplace_back(from[b], b);
  std::reverse(out.begin(), out.end());
  return out;
}

double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// Relative least squares of t = L + b / bw: rows divided by t, so every point weighs alike.
bool fit(const std::vector<const sweep_point*>& pts, plateau& out) {
  const Eigen::Index n = static_cast<Eigen::Index>(pts.size());
  if (n == 0)
    return false;
  double bmin = pts[0]->bytes, bmax = pts[0]->bytes;
  for (const auto* p : pts) {
    bmin = std::min(bmin, p->bytes);
    bmax = std::max(bmax, p->bytes);
  }
  double latency = 0, inverse_bw = 0;
  if (n >= 3 && bmax > 1.5 * bmin) {
    Eigen::MatrixXd a(n, 2);
    Eigen::VectorXd y = Eigen::VectorXd::Ones(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      a(i, 0) = 1.0 / pts[i]->time_s;
      a(i, 1) = pts[i]->bytes / pts[i]->time_s;
    }
    const Eigen::Vector2d x = a.colPivHouseholderQr().solve(y);
    // Keep the intercept only where the data show it (over twice its standard error): a
    // latency hidden in the noise only adds variance to the bandwidth.
    const double sse = (a * x - y).squaredNorm();
    const Eigen::Matrix2d cov = (a.transpose() * a).inverse() * (sse / double(n - 2));
    if (x(0) > 2 * std::sqrt(std::max(cov(0, 0), 0.0))) {
      latency = x(0);
      inverse_bw = x(1);
    }
  }
  if (!(inverse_bw > 0)) { // no latency term: relative least squares of t = b / bw
    double num = 0, den = 0;
    for (const auto* p : pts) {
      const double r = p->bytes / p->time_s;
      num += r;
      den += r * r;
    }
    latency = 0;
    inverse_bw = num / den;
  }
  out.bandwidth = 1.0 / inverse_bw;
  out.latency_s = latency;
  double ss = 0;
  for (const auto* p : pts) {
    const double r = (latency + p->bytes * inverse_bw) / p->time_s - 1;
    ss += r * r;
  }
  out.rms_relative_residual = std::sqrt(ss / double(n));
  out.points = static_cast<int>(n);
  return true;
}

} // namespace

std::vector<plateau> find_plateaus(std::vector<sweep_point> points,
                                   const plateau_options& options) {
  points.erase(std::remove_if(points.begin(), points.end(),
                              [](const sweep_point& p) {
                                return !(p.time_s > 0) || !(p.bytes > 0) ||
                                       !(p.working_set_bytes > 0);
                              }),
               points.end());
  const auto g = groups_of(points);
  if (g.empty())
    return {};
  const double band = std::log1p(options.tolerance);
  // A split must pay for itself: a step of one tolerance band over ~2 points on either side.
  const double penalty = band * band;
  auto segments = segment(g, penalty);

  // Keep segments long enough to be plateaus, then merge neighbours of the same rate (a single
  // outlier splits a plateau into two equal halves around it).
  struct kept {
    std::size_t a, b;
    double mean;
  };
  std::vector<kept> plateaus;
  for (const auto& [a, b] : segments) {
    if (int(b - a) < options.min_working_sets)
      continue;
    double s = 0;
    for (std::size_t i = a; i < b; ++i)
      s += g[i].log_rate;
    const double mean = s / double(b - a);
    if (!plateaus.empty() && std::fabs(plateaus.back().mean - mean) < band) {
      auto& last = plateaus.back();
      const double n0 = double(last.b - last.a), n1 = double(b - a);
      last.mean = (last.mean * n0 + mean * n1) / (n0 + n1);
      last.b = b;
      continue;
    }
    plateaus.push_back({a, b, mean});
  }

  std::vector<plateau> out;
  for (auto k : plateaus) {
    // Trim the edges that belong to a transition: more than half a band off the median rate.
    std::vector<double> rates;
    for (std::size_t i = k.a; i < k.b; ++i)
      rates.push_back(g[i].log_rate);
    const double mid = median(rates);
    while (k.b - k.a > std::size_t(options.min_working_sets) &&
           std::fabs(g[k.a].log_rate - mid) > band / 2)
      ++k.a;
    while (k.b - k.a > std::size_t(options.min_working_sets) &&
           std::fabs(g[k.b - 1].log_rate - mid) > band / 2)
      --k.b;
    const double lo = g[k.a].working_set, hi = g[k.b - 1].working_set;
    std::vector<const sweep_point*> pts;
    for (const auto& p : points)
      if (p.working_set_bytes >= lo && p.working_set_bytes <= hi)
        pts.push_back(&p);
    plateau pl;
    if (!fit(pts, pl))
      continue;
    // Two rounds of outlier rejection on the fit's relative residuals.
    std::vector<const sweep_point*> inliers = pts;
    for (int round = 0; round < 2; ++round) {
      std::vector<double> res;
      for (const auto* p : inliers)
        res.push_back(std::fabs((pl.latency_s + p->bytes / pl.bandwidth) / p->time_s - 1));
      const double cut = std::max(0.02, 4 * 1.4826 * median(res));
      std::vector<const sweep_point*> kept_points;
      for (std::size_t i = 0; i < inliers.size(); ++i)
        if (res[i] <= cut)
          kept_points.push_back(inliers[i]);
      if (kept_points.size() < 3 || kept_points.size() == inliers.size())
        break;
      inliers = kept_points;
      fit(inliers, pl);
    }
    double wmin = hi, wmax = lo;
    for (const auto* p : inliers) {
      wmin = std::min(wmin, p->working_set_bytes);
      wmax = std::max(wmax, p->working_set_bytes);
    }
    pl.working_set_min = wmin;
    pl.working_set_max = wmax;
    out.push_back(pl);
  }
  return out;
}

std::optional<memory_level> sweep_plateau_level(bool l1_cached, double working_set_max,
                                                double l1_total_bytes, double l2_bytes) {
  if (!(working_set_max > 0))
    return std::nullopt;
  if (l1_cached)
    return working_set_max <= l1_total_bytes ? std::optional(memory_level::l1) : std::nullopt;
  return working_set_max <= l2_bytes ? std::optional(memory_level::l2) : std::nullopt;
}

} // namespace roofkit
