#pragma once
// Writing charts to files: the format from the file name, PNG/PDF through cairo when this build
// has it (otherwise a usage error with a hint to convert the SVG).
#include <filesystem>
#include <optional>
#include <string>

#include "roofkit/chart.hpp"
#include "roofkit/run.hpp"

namespace roofkit {

/// The chart formats the plot module writes.
enum class chart_format { svg, html, png, pdf, terminal };

/// "svg", "html", "png", "pdf", "term".
std::string to_string(chart_format f);
/// Parses a format name ("svg", "html"/"htm", "png", "pdf", "term"/"terminal"); nullopt if unknown.
std::optional<chart_format> parse_chart_format(const std::string& name);
/// The format implied by a file's extension; usage_error naming the file and the valid
/// extensions otherwise.
chart_format chart_format_for_path(const std::filesystem::path& path);

/// Writes a drawn chart to `path` as SVG, PNG or PDF (PNG and PDF need cairo); usage_error for
/// any other format.
void write_canvas(const canvas& c, const std::filesystem::path& path, chart_format format);

/// Writes the roofline chart of a run to `path` in `format` (not terminal). PNG and PDF need
/// cairo (cairo_available()); without it a usage error says how to convert the SVG instead.
void write_roofline_chart(const run& r, const std::filesystem::path& path, chart_format format,
                          const chart_options& options = {});

/// Writes the bandwidth view of the kernels without FLOPs (svg, png, pdf; html writes the
/// roofline page, which holds the bandwidth view too).
void write_bandwidth_chart(const run& r, const std::filesystem::path& path, chart_format format,
                           const chart_options& options = {});

/// Writes the before/after chart to `path` (svg, png or pdf; html embeds the SVG chart).
void write_compare_chart(const run& before, const run& after, const std::filesystem::path& path,
                         chart_format format, const compare_chart_options& options = {});

} // namespace roofkit
