#include <algorithm>
#include <cmath>
#include <limits>

#include "roofkit/plot.hpp"

namespace roofkit {

namespace {

constexpr double pi = 3.14159265358979323846;

struct bounds {
  double x0, y0, x1, y1;
};

template <std::size_t N> bounds bounds_of(const std::array<point2, N>& pts) {
  bounds b{pts[0].x, pts[0].y, pts[0].x, pts[0].y};
  for (const auto& p : pts) {
    b.x0 = std::min(b.x0, p.x);
    b.y0 = std::min(b.y0, p.y);
    b.x1 = std::max(b.x1, p.x);
    b.y1 = std::max(b.y1, p.y);
  }
  return b;
}

bool bounds_overlap(const bounds& a, const bounds& b) {
  return a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1;
}

// Separating-axis test between two convex point sets (2 or 4 points each).
template <std::size_t N, std::size_t M>
bool convex_overlap(const std::array<point2, N>& a, const std::array<point2, M>& b) {
  const auto separated_on_edges = [](const auto& p, const auto& q) {
    const std::size_t n = p.size();
    for (std::size_t i = 0; i < n; ++i) {
      const point2 e0 = p[i];
      const point2 e1 = p[(i + 1) % n];
      const double ax = -(e1.y - e0.y);
      const double ay = e1.x - e0.x;
      if (ax == 0 && ay == 0)
        continue;
      double pmin = std::numeric_limits<double>::max(), pmax = -pmin;
      double qmin = pmin, qmax = -pmin;
      for (const auto& v : p) {
        const double d = v.x * ax + v.y * ay;
        pmin = std::min(pmin, d);
        pmax = std::max(pmax, d);
      }
      for (const auto& v : q) {
        const double d = v.x * ax + v.y * ay;
        qmin = std::min(qmin, d);
        qmax = std::max(qmax, d);
      }
      if (pmax < qmin || qmax < pmin)
        return true;
    }
    return false;
  };
  return !separated_on_edges(a, b) && !separated_on_edges(b, a);
}

} // namespace

quad box_quad(double x0, double y0, double x1, double y1) {
  if (x1 < x0)
    std::swap(x0, x1);
  if (y1 < y0)
    std::swap(y0, y1);
  return quad{{point2{x0, y0}, point2{x1, y0}, point2{x1, y1}, point2{x0, y1}}};
}

quad text_quad(point2 origin, double width, double size, double rotate_deg) {
  const double up = font_ascent * size;
  const double down = font_descent * size;
  const double a = rotate_deg * pi / 180;
  const double c = std::cos(a), s = std::sin(a);
  // Local frame: u along the baseline, v down (SVG y); rotation is clockwise on screen.
  const auto at = [&](double u, double v) {
    return point2{origin.x + u * c - v * s, origin.y + u * s + v * c};
  };
  return quad{{at(0, -up), at(width, -up), at(width, down), at(0, down)}};
}

quad inflate(const quad& q, double margin) {
  quad out = q;
  for (std::size_t i = 0; i < 4; ++i) {
    // Move each corner outwards along both of its edges.
    const point2 prev = q.corners[(i + 3) % 4];
    const point2 next = q.corners[(i + 1) % 4];
    const point2 p = q.corners[i];
    const auto unit_away = [&](point2 from) {
      const double dx = p.x - from.x, dy = p.y - from.y;
      const double len = std::hypot(dx, dy);
      return len > 0 ? point2{dx / len, dy / len} : point2{0, 0};
    };
    const point2 u1 = unit_away(prev), u2 = unit_away(next);
    out.corners[i] = point2{p.x + (u1.x + u2.x) * margin, p.y + (u1.y + u2.y) * margin};
  }
  return out;
}

bool intersects(const quad& a, const quad& b) {
  if (!bounds_overlap(bounds_of(a.corners), bounds_of(b.corners)))
    return false;
  return convex_overlap(a.corners, b.corners);
}

bool intersects(const quad& q, point2 a, point2 b) {
  const std::array<point2, 2> seg{a, b};
  if (!bounds_overlap(bounds_of(q.corners), bounds_of(seg)))
    return false;
  return convex_overlap(q.corners, seg);
}

bool segments_intersect(point2 a, point2 b, point2 c, point2 d) {
  const std::array<point2, 2> s1{a, b}, s2{c, d};
  if (!bounds_overlap(bounds_of(s1), bounds_of(s2)))
    return false;
  return convex_overlap(s1, s2);
}

double distance(point2 a, point2 b) { return std::hypot(a.x - b.x, a.y - b.y); }

point2 nearest_point(const quad& q, point2 p) {
  // Inside test: p on the same side of every edge.
  bool inside = true;
  double sign = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    const point2 e0 = q.corners[i], e1 = q.corners[(i + 1) % 4];
    const double cross = (e1.x - e0.x) * (p.y - e0.y) - (e1.y - e0.y) * (p.x - e0.x);
    if (cross != 0) {
      if (sign == 0)
        sign = cross;
      else if ((cross > 0) != (sign > 0))
        inside = false;
    }
  }
  if (inside)
    return p;
  point2 best = q.corners[0];
  double best_d = std::numeric_limits<double>::max();
  for (std::size_t i = 0; i < 4; ++i) {
    const point2 e0 = q.corners[i], e1 = q.corners[(i + 1) % 4];
    const double dx = e1.x - e0.x, dy = e1.y - e0.y;
    const double len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((p.x - e0.x) * dx + (p.y - e0.y) * dy) / len2 : 0;
    t = std::clamp(t, 0.0, 1.0);
    const point2 c{e0.x + t * dx, e0.y + t * dy};
    const double d = distance(c, p);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

label_placer::label_placer(double x0, double y0, double x1, double y1)
    : x0_(x0), y0_(y0), x1_(x1), y1_(y1) {}

void label_placer::add_obstacle(const quad& q) { boxes_.push_back(q); }

void label_placer::add_obstacle(point2 a, point2 b) { segments_.push_back({a, b}); }

void label_placer::occupy(const quad& q) {
  label_boxes_.push_back(boxes_.size());
  boxes_.push_back(q);
}

bool label_placer::is_free(const quad& q) const {
  for (const auto& p : q.corners)
    if (p.x < x0_ || p.x > x1_ || p.y < y0_ || p.y > y1_)
      return false;
  for (const auto& b : boxes_)
    if (intersects(q, b))
      return false;
  for (const auto& s : segments_)
    if (intersects(q, s[0], s[1]))
      return false;
  return true;
}

bool label_placer::leader_is_clear(point2 a, point2 b) const {
  for (std::size_t i : label_boxes_)
    if (intersects(boxes_[i], a, b))
      return false;
  return true;
}

std::optional<placed_label> label_placer::place(point2 anchor, double w, double h, double gap,
                                                double marker_radius, double max_distance) {
  const auto accept = [&](const quad& box, bool leader) {
    placed_label out{box, leader, {}, {}};
    if (leader) {
      out.leader_to = nearest_point(box, anchor);
      const double d = distance(out.leader_to, anchor);
      out.leader_from = point2{anchor.x + (out.leader_to.x - anchor.x) / d * marker_radius,
                               anchor.y + (out.leader_to.y - anchor.y) / d * marker_radius};
      segments_.push_back({out.leader_from, out.leader_to});
    }
    label_boxes_.push_back(boxes_.size());
    boxes_.push_back(box);
    return out;
  };

  // Right next to the point: right, left, above, below, then the corners.
  const double c = gap * 0.7;
  const std::array<point2, 10> adjacent{
      point2{anchor.x + gap, anchor.y - h / 2},     point2{anchor.x - gap - w, anchor.y - h / 2},
      point2{anchor.x + c, anchor.y - c - h},       point2{anchor.x + c, anchor.y + c},
      point2{anchor.x - w / 2, anchor.y - gap - h}, point2{anchor.x - w / 2, anchor.y + gap},
      point2{anchor.x - c - w, anchor.y - c - h},   point2{anchor.x - c - w, anchor.y + c},
      point2{anchor.x + gap, anchor.y - h},         point2{anchor.x + gap, anchor.y}};
  for (const auto& tl : adjacent) {
    const quad box = box_quad(tl.x, tl.y, tl.x + w, tl.y + h);
    if (is_free(box))
      return accept(box, false);
  }

  if (max_distance <= gap)
    return std::nullopt;
  // Further out, nearest first, with a leader line.
  struct candidate {
    double score;
    double x, y;
  };
  std::vector<candidate> candidates;
  const double step = 3;
  for (double y = anchor.y - max_distance - h; y <= anchor.y + max_distance; y += step) {
    if (y < y0_ || y + h > y1_)
      continue;
    for (double x = anchor.x - max_distance - w; x <= anchor.x + max_distance; x += step) {
      if (x < x0_ || x + w > x1_)
        continue;
      const quad box = box_quad(x, y, x + w, y + h);
      const double d = distance(nearest_point(box, anchor), anchor);
      if (d <= gap || d > max_distance)
        continue;
      const double left_penalty = (x + w / 2 < anchor.x) ? 4 : 0;
      candidates.push_back({d + left_penalty, x, y});
    }
  }
  std::sort(candidates.begin(), candidates.end(),
            [](const candidate& a, const candidate& b) { return a.score < b.score; });
  for (const auto& cand : candidates) {
    const quad box = box_quad(cand.x, cand.y, cand.x + w, cand.y + h);
    if (!is_free(box))
      continue;
    const point2 to = nearest_point(box, anchor);
    const double d = distance(to, anchor);
    const point2 from{anchor.x + (to.x - anchor.x) / d * marker_radius,
                      anchor.y + (to.y - anchor.y) / d * marker_radius};
    if (!leader_is_clear(from, to))
      continue;
    return accept(box, true);
  }
  return std::nullopt;
}

// A cluster of points to label as one column: the anchors, their label widths, and the order of
// the rows (by height, then by the direction in which each point sees the column).
struct label_placer::stack {
  const std::vector<point2>& anchors;
  const std::vector<double>& widths;
  double h = 0, marker_radius = 0;
  std::vector<std::size_t> order;
  double row = 0, stack_h = 0, max_w = 0, cx0 = 0, cx1 = 0, mean_y = 0;

  stack(const std::vector<point2>& a, const std::vector<double>& w, double height, double radius)
      : anchors(a), widths(w), h(height), marker_radius(radius), order(a.size()) {
    for (std::size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return anchors[x].y < anchors[y].y; });
    row = h + 1;
    stack_h = row * static_cast<double>(anchors.size()) - 1;
    cx0 = cx1 = anchors[0].x;
    for (std::size_t i = 0; i < anchors.size(); ++i) {
      max_w = std::max(max_w, widths[i]);
      cx0 = std::min(cx0, anchors[i].x);
      cx1 = std::max(cx1, anchors[i].x);
      mean_y += anchors[i].y / static_cast<double>(anchors.size());
    }
  }
  // The label box of row k in a column at `edge` (labels start there on the right, end there on
  // the left) whose first row is at `top`.
  quad box(std::size_t k, bool right, double edge, double top) const {
    const double w = widths[order[k]];
    const double y = top + row * static_cast<double>(k);
    return right ? box_quad(edge, y, edge + w, y + h) : box_quad(edge - w, y, edge, y + h);
  }
  // The leader of row k: from the marker's edge to the column's edge.
  std::array<point2, 2> leader(std::size_t k, double edge, double top) const {
    const point2 a = anchors[order[k]];
    const point2 to{edge, top + row * static_cast<double>(k) + h / 2};
    const double d = distance(a, to);
    return {point2{a.x + (to.x - a.x) / d * marker_radius, a.y + (to.y - a.y) / d * marker_radius},
            to};
  }
};

struct label_placer::column {
  double score = std::numeric_limits<double>::max();
  bool right = true;
  double edge = 0, top = 0;
};

// The summed leader length of a column, nullopt when a box is not free or a leader crosses
// something.
std::optional<double> label_placer::column_score(const stack& s, bool right, double edge,
                                                 double top) const {
  if (top < y0_ || top + s.stack_h > y1_)
    return std::nullopt;
  std::vector<quad> boxes;
  for (std::size_t k = 0; k < s.order.size(); ++k) {
    const quad box = s.box(k, right, edge, top);
    if (!is_free(box))
      return std::nullopt;
    boxes.push_back(box);
  }
  double score = 0;
  for (std::size_t k = 0; k < s.order.size(); ++k) {
    const point2 a = s.anchors[s.order[k]];
    const point2 to{edge, top + s.row * static_cast<double>(k) + s.h / 2};
    const double d = distance(a, to);
    if (d <= s.marker_radius)
      return std::nullopt;
    const auto [from, end] = s.leader(k, edge, top);
    if (!leader_is_clear(from, end))
      return std::nullopt;
    for (std::size_t j = 0; j < boxes.size(); ++j)
      if (j != k && intersects(boxes[j], from, end))
        return std::nullopt;
    score += d;
  }
  return score;
}

// The free column with the shortest leaders, right of the cluster or left of it, searched
// outwards from the cluster and up and down from its mean height.
label_placer::column label_placer::best_column(const stack& s) const {
  column best;
  const double step = 4;
  for (int side = 0; side < 2; ++side) {
    const bool right = side == 0;
    for (double gapx = 12; gapx < (x1_ - x0_); gapx += step) {
      const double edge = right ? s.cx1 + gapx : s.cx0 - gapx;
      if (right ? edge + s.max_w > x1_ : edge - s.max_w < x0_)
        break;
      // A column this far out cannot beat the best one any more.
      if (gapx * static_cast<double>(s.anchors.size()) > best.score)
        break;
      for (double dy = 0; dy < (y1_ - y0_); dy += 3) {
        bool any_inside = false;
        for (double sign : {-1.0, 1.0}) {
          const double top = s.mean_y - s.stack_h / 2 + sign * dy;
          if (top < y0_ || top + s.stack_h > y1_)
            continue;
          any_inside = true;
          if (auto score = column_score(s, right, edge, top); score && *score < best.score)
            best = {*score, right, edge, top};
        }
        if (!any_inside && dy > s.stack_h + (y1_ - y0_))
          break;
      }
    }
  }
  return best;
}

// No column fits the whole cluster: split it by height and try two smaller columns.
std::vector<std::optional<placed_label>> label_placer::split_stack(const stack& s) {
  std::vector<std::optional<placed_label>> out(s.anchors.size());
  std::vector<point2> lower, upper;
  std::vector<double> wl, wu;
  std::vector<std::size_t> il, iu;
  for (std::size_t k = 0; k < s.order.size(); ++k) {
    const bool first = k < s.order.size() / 2;
    (first ? upper : lower).push_back(s.anchors[s.order[k]]);
    (first ? wu : wl).push_back(s.widths[s.order[k]]);
    (first ? iu : il).push_back(s.order[k]);
  }
  const auto a = place_stack(upper, wu, s.h, s.marker_radius);
  const auto b = place_stack(lower, wl, s.h, s.marker_radius);
  for (std::size_t k = 0; k < a.size(); ++k)
    out[iu[k]] = a[k];
  for (std::size_t k = 0; k < b.size(); ++k)
    out[il[k]] = b[k];
  return out;
}

std::vector<std::optional<placed_label>>
label_placer::place_stack(const std::vector<point2>& anchors, const std::vector<double>& widths,
                          double h, double marker_radius) {
  std::vector<std::optional<placed_label>> out(anchors.size());
  if (anchors.empty())
    return out;
  stack s(anchors, widths, h, marker_radius);
  const column best = best_column(s);
  if (best.score == std::numeric_limits<double>::max())
    return anchors.size() == 1 ? out : split_stack(s);
  // Order the rows by the direction in which each point sees the column, so that leaders do
  // not cross; keep the height order if that column no longer fits.
  const std::vector<std::size_t> by_height = s.order;
  const point2 centre{best.edge, best.top + s.stack_h / 2};
  std::stable_sort(s.order.begin(), s.order.end(), [&](std::size_t a, std::size_t b) {
    const auto angle = [&](point2 p) {
      return std::atan2(p.y - centre.y, std::fabs(centre.x - p.x) + 1e-9);
    };
    return angle(anchors[a]) < angle(anchors[b]);
  });
  if (!column_score(s, best.right, best.edge, best.top))
    s.order = by_height;
  for (std::size_t k = 0; k < s.order.size(); ++k) {
    const quad box = s.box(k, best.right, best.edge, best.top);
    const auto [from, to] = s.leader(k, best.edge, best.top);
    placed_label p{box, true, from, to};
    segments_.push_back({p.leader_from, p.leader_to});
    label_boxes_.push_back(boxes_.size());
    boxes_.push_back(box);
    out[s.order[k]] = p;
  }
  return out;
}

} // namespace roofkit
