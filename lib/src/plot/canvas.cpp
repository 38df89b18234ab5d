#include <array>
#include <cstdint>
#include <stdexcept>

#include "roofkit/plot.hpp"

namespace roofkit {

void canvas::line(point2 a, point2 b, paint p, attributes attrs) {
  items_.emplace_back(draw_line{a, b, std::move(p), std::move(attrs)});
}

void canvas::polyline(std::vector<point2> points, paint p, attributes attrs) {
  items_.emplace_back(draw_polyline{std::move(points), std::move(p), false, std::move(attrs)});
}

void canvas::polygon(std::vector<point2> points, paint p, attributes attrs) {
  items_.emplace_back(draw_polyline{std::move(points), std::move(p), true, std::move(attrs)});
}

void canvas::rect(double x, double y, double w, double h, paint p, attributes attrs,
                  double corner_radius) {
  items_.emplace_back(draw_rect{x, y, w, h, std::move(p), corner_radius, std::move(attrs)});
}

void canvas::marker(marker_shape shape, point2 at, double size, paint p, attributes attrs) {
  items_.emplace_back(draw_marker{shape, at, size, std::move(p), std::move(attrs)});
}

void canvas::text(point2 at, std::string s, text_style style, attributes attrs) {
  items_.emplace_back(draw_text{at, std::move(s), std::move(style), std::move(attrs)});
}

void canvas::begin(attributes attrs, std::string title) {
  ++open_groups_;
  items_.emplace_back(begin_group{std::move(attrs), std::move(title)});
}

void canvas::end() {
  if (open_groups_ == 0)
    throw std::logic_error("canvas::end without begin");
  --open_groups_;
  items_.emplace_back(end_group{});
}

namespace {

// Advance widths of DejaVu Sans (regular, then bold) for ASCII 32..126, in 1/1000 em, read
// from the font with cairo_text_extents (hinting off).
// clang-format off
constexpr std::array<std::uint16_t, 95> regular_widths{
     318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,
     636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531,
    1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787,
     603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500,
     500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,
     635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838};
constexpr std::array<std::uint16_t, 95> bold_widths{
     348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365,
     696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580,
    1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850,
     733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500,
     500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687,
     716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838};
// clang-format on

struct wide_glyph {
  char32_t code;
  std::uint16_t regular;
  std::uint16_t bold;
};
// The non-ASCII characters the charts use.
constexpr std::array<wide_glyph, 17> wide_glyphs{{{U'\u00b7', 318, 380},
                                                  {U'\u00b5', 636, 736},
                                                  {U'\u00d7', 838, 838},
                                                  {U'\u2026', 1000, 1000},
                                                  {U'\u2014', 1000, 1000},
                                                  {U'\u2013', 500, 500},
                                                  {U'\u2212', 838, 838},
                                                  {U'\u207b', 528, 528},
                                                  {U'\u00b9', 401, 438},
                                                  {U'\u00b2', 401, 438},
                                                  {U'\u00b3', 401, 438},
                                                  {U'\u2070', 401, 438},
                                                  {U'\u25cf', 873, 873},
                                                  {U'\u25a0', 945, 945},
                                                  {U'\u25b2', 769, 769},
                                                  {U'\u25c6', 769, 769},
                                                  {U'\u2192', 838, 838}}};

// Decodes one UTF-8 sequence starting at s[i]; advances i. Invalid bytes decode as U+FFFD.
char32_t next_code_point(std::string_view s, std::size_t& i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  int extra = 0;
  char32_t code = 0;
  if (b0 < 0x80) {
    ++i;
    return b0;
  } else if ((b0 & 0xE0) == 0xC0) {
    extra = 1;
    code = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    extra = 2;
    code = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    extra = 3;
    code = b0 & 0x07;
  } else {
    ++i;
    return 0xFFFD;
  }
  ++i;
  for (int k = 0; k < extra; ++k, ++i) {
    if (i >= s.size() || (byte(i) & 0xC0) != 0x80)
      return 0xFFFD;
    code = (code << 6) | (byte(i) & 0x3F);
  }
  return code;
}

} // namespace

double text_width(std::string_view s, double size, bool bold) {
  double units = 0;
  std::size_t i = 0;
  while (i < s.size()) {
    const char32_t c = next_code_point(s, i);
    if (c >= 32 && c < 127) {
      units += bold ? bold_widths[c - 32] : regular_widths[c - 32];
      continue;
    }
    double w = 1000;
    for (const auto& g : wide_glyphs)
      if (g.code == c)
        w = bold ? g.bold : g.regular;
    units += w;
  }
  return units / 1000.0 * size;
}

} // namespace roofkit
