#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "roofkit/core.hpp"
#include "roofkit/plot.hpp"

namespace roofkit {

std::string to_string(chart_format f) {
  switch (f) {
  case chart_format::svg:
    return "svg";
  case chart_format::html:
    return "html";
  case chart_format::png:
    return "png";
  case chart_format::pdf:
    return "pdf";
  case chart_format::terminal:
    return "term";
  }
  return "unknown";
}

std::optional<chart_format> parse_chart_format(const std::string& name) {
  std::string n = name;
  std::transform(n.begin(), n.end(), n.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (n == "svg")
    return chart_format::svg;
  if (n == "html" || n == "htm")
    return chart_format::html;
  if (n == "png")
    return chart_format::png;
  if (n == "pdf")
    return chart_format::pdf;
  if (n == "term" || n == "terminal")
    return chart_format::terminal;
  return std::nullopt;
}

chart_format chart_format_for_path(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  if (!ext.empty())
    ext = ext.substr(1);
  const auto f = parse_chart_format(ext);
  if (!f || *f == chart_format::terminal)
    throw usage_error(fmt::format("cannot tell the chart format of '{}' from its extension "
                                  "(valid: .svg, .html, .png, .pdf)",
                                  path.string()));
  return *f;
}

void write_canvas(const canvas& c, const std::filesystem::path& path, chart_format format) {
  switch (format) {
  case chart_format::svg:
    write_text_file(path, to_svg(c));
    return;
  case chart_format::png:
    write_png(c, path);
    return;
  case chart_format::pdf:
    write_pdf(c, path);
    return;
  default:
    break;
  }
  throw usage_error(fmt::format("cannot write '{}' as {} (valid: svg, png, pdf)", path.string(),
                                to_string(format)));
}

void write_roofline_chart(const run& r, const std::filesystem::path& path, chart_format format,
                          const chart_options& options) {
  if (format == chart_format::html) {
    write_text_file(path, render_roofline_html(r, options));
    return;
  }
  if (format == chart_format::terminal)
    throw usage_error("the terminal chart goes to stdout, not to a file (valid for files: svg, "
                      "html, png, pdf)");
  write_canvas(draw_roofline(make_roofline_data(r, options), options), path, format);
}

void write_bandwidth_chart(const run& r, const std::filesystem::path& path, chart_format format,
                           const chart_options& options) {
  if (format == chart_format::html) {
    // The roofline page holds the bandwidth view too.
    write_text_file(path, render_roofline_html(r, options));
    return;
  }
  if (format == chart_format::terminal)
    throw usage_error("the terminal bandwidth view goes to stdout, not to a file");
  write_canvas(draw_bandwidth(make_roofline_data(r, options), options), path, format);
}

void write_compare_chart(const run& before, const run& after, const std::filesystem::path& path,
                         chart_format format, const compare_chart_options& options) {
  if (format == chart_format::html) {
    svg_options so;
    so.standalone = false;
    const std::string svg = to_svg(draw_compare(before, after, options), so);
    write_text_file(path, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                          "<title>Before and after</title>\n<style>body{margin:16px;font-family:"
                          "\"DejaVu Sans\",Verdana,Arial,sans-serif}svg{max-width:100%;height:"
                          "auto}</style>\n</head>\n<body>\n" +
                              svg + "</body>\n</html>\n");
    return;
  }
  if (format == chart_format::terminal)
    throw usage_error("the compare chart has no terminal form (valid: svg, html, png, pdf)");
  write_canvas(draw_compare(before, after, options), path, format);
}

} // namespace roofkit
