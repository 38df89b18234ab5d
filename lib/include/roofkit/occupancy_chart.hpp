#pragma once
// Charts of occupancy sweeps: a terminal (ASCII) chart, and the sweeps drawn on the shared chart
// canvas (SVG, HTML, PNG, PDF).
#include <filesystem>
#include <string>
#include <vector>

#include "roofkit/chart_canvas.hpp"
#include "roofkit/occupancy.hpp"

namespace roofkit {

/// "Active warps per SM vs block size" (the chart's title for a variable).
std::string sweep_title(occupancy_variable v);
/// The x-axis label: "threads per block", "registers per thread", ...
std::string sweep_axis_label(occupancy_variable v);

/// An ASCII chart of active warps against the swept value, the current launch marked with '@'
/// in its column and '^' under the axis. `width` and `height` count character cells.
std::string sweep_terminal_chart(const occupancy_sweep& sweep, int width = 64, int height = 10);

/// A panel per sweep (step line of active warps, occupancy on the right axis, the current launch
/// marked and labelled, hover titles), `caption` as the footer.
canvas draw_occupancy_sweeps(const std::vector<occupancy_sweep>& sweeps, const std::string& title,
                             const std::string& caption);
/// draw_occupancy_sweeps() as a standalone SVG document.
std::string sweeps_svg(const std::vector<occupancy_sweep>& sweeps, const std::string& title,
                       const std::string& caption);
/// Writes draw_occupancy_sweeps() to `path` in the format its extension names (.svg, .html, .png,
/// .pdf; PNG and PDF need cairo); usage_error for any other extension.
void write_occupancy_sweeps(const std::vector<occupancy_sweep>& sweeps, const std::string& title,
                            const std::string& caption, const std::filesystem::path& path);

} // namespace roofkit
