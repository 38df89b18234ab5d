#pragma once
// The cliff chart: the predicted occupancy staircase and the measured rate of a sweep on one
// x-axis, every predicted step and measured change marked and said in words. A pure function of
// a cliff result (roofkit/cliff.hpp); SVG, self-contained HTML, and PNG/PDF through cairo.
#include <filesystem>
#include <string>

#include "roofkit/chart_canvas.hpp"
#include "roofkit/cliff.hpp"

namespace roofkit {

/// Size and title of a cliff chart.
struct cliff_chart_options {
  std::string title; ///< empty: "<kernel>: <sweep> sweep on <device>"
  double width = 1000;
  double height = 640; ///< grows with the list of events
};

/// Draws the chart. Groups: `g.predicted` (the staircase, right axis, %), `g.achieved` (achieved
/// occupancy markers), `g.measured` (the rate, left axis, one `g.point` per point with data-value,
/// data-rate, data-occupancy and a hover title), `g.predicted-step` and `g.measured-change` (one
/// per event, with data-at and data-verdict), `g.cache-level` (size sweeps: where the working
/// set passes the L1 and the L2), `g.events` (the list under the plot).
canvas draw_cliff_chart(const cliff_result& r, const cliff_chart_options& options = {});

/// The chart as a standalone SVG document.
std::string render_cliff_svg(const cliff_result& r, const cliff_chart_options& options = {});

/// One self-contained HTML page: the chart inline and the events and points tables.
std::string render_cliff_html(const cliff_result& r, const cliff_chart_options& options = {});

/// Writes the chart in the format of the file's extension: .svg, .html, .png or .pdf (PNG and
/// PDF need cairo). usage_error for another extension.
void write_cliff_chart(const cliff_result& r, const std::filesystem::path& path,
                       const cliff_chart_options& options = {});

} // namespace roofkit
