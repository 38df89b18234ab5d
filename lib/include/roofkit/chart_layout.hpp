#pragma once
// Geometry for chart layout: convex quadrilaterals (label footprints, possibly rotated),
// intersection tests, and a greedy label placer that keeps labels clear of each other, of
// lines and of markers, drawing a leader line when a label had to move away from its point.
#include <array>
#include <optional>
#include <vector>

#include "roofkit/chart_canvas.hpp"

namespace roofkit {

/// A convex quadrilateral, corners in order (axis-aligned boxes and rotated text boxes).
struct quad {
  std::array<point2, 4> corners;
};

/// The axis-aligned box [x0, x1] x [y0, y1].
quad box_quad(double x0, double y0, double x1, double y1);
/// The footprint of a text line whose baseline starts at `origin` (text-anchor start), rotated
/// clockwise by `rotate_deg`: `width` along the baseline, ascent above, descent below.
quad text_quad(point2 origin, double width, double size, double rotate_deg = 0);
/// The quad grown by `margin` pixels on every side (each corner moves out along its two edges).
quad inflate(const quad& q, double margin);

/// True when the two convex quads share any point (separating-axis test).
bool intersects(const quad& a, const quad& b);
/// True when the segment a-b touches the quad.
bool intersects(const quad& q, point2 a, point2 b);
/// True when segments a-b and c-d cross or touch.
bool segments_intersect(point2 a, point2 b, point2 c, point2 d);
/// The point of the quad nearest to p (p itself when inside).
point2 nearest_point(const quad& q, point2 p);
/// Euclidean distance.
double distance(point2 a, point2 b);

/// A label placed by label_placer.
struct placed_label {
  quad box;            ///< the label's footprint (axis-aligned)
  bool leader = false; ///< true when a leader line joins the label to its point
  point2 leader_from;  ///< on the marker's edge
  point2 leader_to;    ///< on the label box
};

/// Greedy label placement. Obstacles are boxes and segments; every placed label becomes an
/// obstacle for the next. Labels stay inside the bounds.
class label_placer {
public:
  /// Labels must lie inside [x0, x1] x [y0, y1].
  label_placer(double x0, double y0, double x1, double y1);
  /// Something labels must not touch.
  void add_obstacle(const quad& q);
  void add_obstacle(point2 a, point2 b);
  /// True when `q` is inside the bounds and touches no obstacle.
  bool is_free(const quad& q) const;
  /// Marks `q` as taken by a label (leader lines will not cross it either).
  void occupy(const quad& q);
  /// Places a w x h box as close to `anchor` as it can (preferring the right, then above):
  /// first right next to the point (`gap` pixels away), then further out up to `max_distance`,
  /// with a leader line from the point's edge (`marker_radius` from its centre) that crosses no
  /// other label. With max_distance <= gap only the places next to the point are tried.
  /// Returns nullopt when no place is free.
  std::optional<placed_label> place(point2 anchor, double w, double h, double gap,
                                    double marker_radius, double max_distance);

  /// Places labels for a cluster of points as one or more neat columns beside it, ordered by
  /// the points' height, each joined to its point by a leader line. `widths[i]` is the width of
  /// the label of `anchors[i]`; all labels are `h` high. Entries are nullopt when no column fits.
  std::vector<std::optional<placed_label>> place_stack(const std::vector<point2>& anchors,
                                                       const std::vector<double>& widths, double h,
                                                       double marker_radius);

private:
  bool leader_is_clear(point2 a, point2 b) const;
  double x0_, y0_, x1_, y1_;
  std::vector<quad> boxes_;
  std::vector<std::array<point2, 2>> segments_;
  std::vector<std::size_t> label_boxes_; ///< indices into boxes_ of labels placed here
};

} // namespace roofkit
