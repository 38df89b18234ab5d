// Chart files: formats from extensions, PNG/PDF through cairo or a clear error.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "roofkit/core.hpp"
#include "roofkit/plot.hpp"
#include "test_chart_runs.hpp"

namespace {

using namespace roofkit;
namespace fs = std::filesystem;

fs::path plot_temp_dir() {
  const fs::path d =
      fs::temp_directory_path() / ("roofkit-plot-test-" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

std::string head(const fs::path& p, std::size_t n) {
  std::ifstream in(p, std::ios::binary);
  std::string s(n, '\0');
  in.read(s.data(), static_cast<std::streamsize>(n));
  s.resize(static_cast<std::size_t>(in.gcount()));
  return s;
}

TEST(plot_files, format_from_extension) {
  EXPECT_EQ(chart_format_for_path("a/b.svg"), chart_format::svg);
  EXPECT_EQ(chart_format_for_path("x.HTML"), chart_format::html);
  EXPECT_EQ(chart_format_for_path("x.htm"), chart_format::html);
  EXPECT_EQ(chart_format_for_path("x.png"), chart_format::png);
  EXPECT_EQ(chart_format_for_path("x.pdf"), chart_format::pdf);
  try {
    chart_format_for_path("chart.jpg");
    FAIL() << "no error";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), exit_code::usage);
    EXPECT_NE(std::string(e.what()).find("'chart.jpg'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find(".svg, .html, .png, .pdf"), std::string::npos);
  }
  EXPECT_THROW(chart_format_for_path("noext"), error);
  EXPECT_EQ(parse_chart_format("term"), chart_format::terminal);
  EXPECT_FALSE(parse_chart_format("gif"));
}

TEST(plot_files, writes_every_format) {
  const fs::path d = plot_temp_dir();
  const run r = chart_test::mixed_run();
  write_roofline_chart(r, d / "c.svg", chart_format::svg);
  EXPECT_EQ(head(d / "c.svg", 5), "<?xml");
  write_roofline_chart(r, d / "c.html", chart_format::html);
  EXPECT_EQ(head(d / "c.html", 15), "<!DOCTYPE html>");
  if (cairo_available()) {
    write_roofline_chart(r, d / "c.png", chart_format::png);
    EXPECT_EQ(head(d / "c.png", 8), "\x89PNG\r\n\x1a\n");
    // 2 device pixels per canvas pixel: a 1000 px wide chart is 2000 px wide.
    const std::string ihdr = head(d / "c.png", 24);
    const unsigned w = (static_cast<unsigned char>(ihdr[16]) << 24) |
                       (static_cast<unsigned char>(ihdr[17]) << 16) |
                       (static_cast<unsigned char>(ihdr[18]) << 8) |
                       static_cast<unsigned char>(ihdr[19]);
    EXPECT_EQ(w, 2000u);
    write_roofline_chart(r, d / "c.pdf", chart_format::pdf);
    EXPECT_EQ(head(d / "c.pdf", 5), "%PDF-");
  } else {
    try {
      write_roofline_chart(r, d / "c.png", chart_format::png);
      FAIL() << "no error without cairo";
    } catch (const error& e) {
      EXPECT_EQ(e.code(), exit_code::usage);
      EXPECT_NE(e.hint().find("rsvg-convert"), std::string::npos);
    }
  }
  EXPECT_THROW(write_roofline_chart(r, d / "c.txt", chart_format::terminal), error);
  fs::remove_all(d);
}

TEST(plot_files, compare_chart_files) {
  const fs::path d = plot_temp_dir();
  const run r = chart_test::mixed_run();
  write_compare_chart(r, r, d / "cmp.svg", chart_format::svg);
  EXPECT_EQ(head(d / "cmp.svg", 5), "<?xml");
  write_compare_chart(r, r, d / "cmp.html", chart_format::html);
  const std::string page = read_text_file(d / "cmp.html");
  EXPECT_EQ(page.find("http"), std::string::npos);
  EXPECT_NE(page.find("<svg"), std::string::npos);
  fs::remove_all(d);
}

} // namespace
