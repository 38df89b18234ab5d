#pragma once
// Geometry written independently of the library for the chart tests: convex polygons (label
// footprints read from data-quad), their overlap, and segments.
#include <array>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace chart_test {

struct pt {
  double x = 0, y = 0;
};
using poly = std::vector<pt>;

/// Parses "x,y x,y ..." (data-quad and polyline points).
inline poly parse_points(const std::string& s) {
  poly out;
  std::istringstream in(s);
  std::string tok;
  while (in >> tok) {
    pt p;
    if (std::sscanf(tok.c_str(), "%lf,%lf", &p.x, &p.y) == 2)
      out.push_back(p);
  }
  return out;
}

/// Parses "translate(x y)".
inline pt parse_translate(const std::string& s) {
  pt p;
  std::sscanf(s.c_str(), "translate(%lf %lf)", &p.x, &p.y);
  return p;
}

/// Separating-axis overlap of two convex polygons (a segment is a 2-point polygon). Touching
/// within `eps` does not count.
inline bool overlap(const poly& a, const poly& b, double eps = 1e-6) {
  for (const poly* p : {&a, &b}) {
    const std::size_t n = p->size();
    for (std::size_t i = 0; i < n; ++i) {
      const pt e0 = (*p)[i], e1 = (*p)[(i + 1) % n];
      const double ax = e0.y - e1.y, ay = e1.x - e0.x;
      const double len = std::hypot(ax, ay);
      if (len == 0)
        continue;
      double amin = 1e300, amax = -1e300, bmin = 1e300, bmax = -1e300;
      for (const auto& v : a) {
        const double d = (v.x * ax + v.y * ay) / len;
        amin = std::min(amin, d);
        amax = std::max(amax, d);
      }
      for (const auto& v : b) {
        const double d = (v.x * ax + v.y * ay) / len;
        bmin = std::min(bmin, d);
        bmax = std::max(bmax, d);
      }
      if (amax <= bmin + eps || bmax <= amin + eps)
        return false;
    }
  }
  return true;
}

inline poly box(double x0, double y0, double x1, double y1) {
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

inline double width_of(const poly& q) { return std::hypot(q[1].x - q[0].x, q[1].y - q[0].y); }

/// Distance from p to the boundary of a convex polygon.
inline double distance_to_edge(const poly& q, pt p) {
  double best = 1e300;
  for (std::size_t i = 0; i < q.size(); ++i) {
    const pt a = q[i], b = q[(i + 1) % q.size()];
    const double dx = b.x - a.x, dy = b.y - a.y;
    double t = ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy);
    t = std::max(0.0, std::min(1.0, t));
    best = std::min(best, std::hypot(a.x + t * dx - p.x, a.y + t * dy - p.y));
  }
  return best;
}

} // namespace chart_test
