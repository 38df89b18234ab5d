// The roofline SVG: points where the numbers put them, roofs at their values, labels that do
// not overlap, hover titles, footer, excluded kernels, valid XML.
#include <algorithm>
#include <cmath>
#include <set>

#include <gtest/gtest.h>

#include "roofkit/core.hpp"
#include "roofkit/plot.hpp"
#include "roofkit/results.hpp"
#include "test_chart_geometry.hpp"
#include "test_chart_runs.hpp"
#include "test_chart_xml.hpp"

namespace {

using chart_test::parse_xml;
using chart_test::xml_element;
using namespace roofkit;

// The axis mapping documented in chart.hpp (log_axis), written out again here.
struct frame {
  double left, top, width, height, x_min, x_max, y_min, y_max;
  double px(double intensity) const {
    return left + (std::log10(intensity) - std::log10(x_min)) /
                      (std::log10(x_max) - std::log10(x_min)) * width;
  }
  double py(double flops) const {
    return top + height -
           (std::log10(flops) - std::log10(y_min)) / (std::log10(y_max) - std::log10(y_min)) *
               height;
  }
  double x_of(double px_) const {
    return std::pow(10.0, std::log10(x_min) +
                              (px_ - left) / width * (std::log10(x_max) - std::log10(x_min)));
  }
  double y_of(double py_) const {
    return std::pow(10.0, std::log10(y_min) + (top + height - py_) / height *
                                                  (std::log10(y_max) - std::log10(y_min)));
  }
};

frame read_frame(const xml_element& root) {
  const auto areas =
      root.find_all([](const xml_element& e) { return e.attr("id") == "plot-area"; });
  EXPECT_EQ(areas.size(), 1u);
  const auto& a = *areas.at(0);
  return {std::stod(a.attr("data-left")),  std::stod(a.attr("data-top")),
          std::stod(a.attr("data-width")), std::stod(a.attr("data-height")),
          std::stod(a.attr("data-x-min")), std::stod(a.attr("data-x-max")),
          std::stod(a.attr("data-y-min")), std::stod(a.attr("data-y-max"))};
}

const xml_element* by_id(const xml_element& root, const std::string& id) {
  const auto v = root.find_all([&](const xml_element& e) { return e.attr("id") == id; });
  return v.empty() ? nullptr : v.front();
}

bool is_nice(double v) { // 1, 2 or 5 x 10^k
  const double m = v / std::pow(10.0, std::floor(std::log10(v) + 1e-12));
  return std::fabs(m - 1) < 1e-9 || std::fabs(m - 2) < 1e-9 || std::fabs(m - 5) < 1e-9;
}

using chart_test::all_text;

TEST(chart_svg, points_sit_where_their_numbers_put_them) {
  const run r = chart_test::mixed_run();
  const auto root = parse_xml(render_roofline_svg(r));
  const frame f = read_frame(*root);
  EXPECT_TRUE(is_nice(f.x_min) && is_nice(f.x_max) && is_nice(f.y_min) && is_nice(f.y_max));

  // Expected values computed here from the run's raw numbers.
  int checked = 0;
  for (std::size_t i = 0; i < r.kernels.size(); ++i) {
    const auto& k = r.kernels[i];
    const xml_element* g = by_id(*root, "k" + std::to_string(i));
    double flops = 0;
    for (const auto& [p, v] : k.flops)
      flops += v;
    if (k.status != "ok" || flops == 0) {
      EXPECT_EQ(g, nullptr) << k.name << " must not be drawn";
      continue;
    }
    ASSERT_NE(g, nullptr) << k.name;
    EXPECT_TRUE(g->has_class("kernel"));
    const double perf = flops / k.time.median_s;
    const auto points = g->find_all([](const xml_element& e) { return e.has_class("point"); });
    ASSERT_EQ(points.size(), k.bytes.size()) << k.name;
    for (const auto* p : points) {
      const auto level = parse_memory_level(p->attr("data-level"));
      ASSERT_TRUE(level);
      const double intensity = flops / k.bytes.at(*level);
      EXPECT_NEAR(std::stod(p->attr("data-intensity")), intensity, intensity * 1e-8);
      EXPECT_NEAR(std::stod(p->attr("data-flops-per-s")), perf, perf * 1e-8);
      const auto at = chart_test::parse_translate(p->attr("transform"));
      EXPECT_NEAR(at.x, f.px(intensity), 0.006) << k.name << " " << p->attr("data-level");
      EXPECT_NEAR(at.y, f.py(perf), 0.006) << k.name << " " << p->attr("data-level");
      EXPECT_GE(at.x, f.left);
      EXPECT_LE(at.x, f.left + f.width);
      EXPECT_GE(at.y, f.top);
      EXPECT_LE(at.y, f.top + f.height);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 6); // coalesced (3 levels), uncoalesced, sgemm, hgemm
  // The hand-computed position of one point: sgemm_8192 at 1365.33 FLOP/B, 51.30 TFLOP/s.
  const auto* sgemm = by_id(*root, "k2");
  const auto at = chart_test::parse_translate(
      sgemm->find_all([](const xml_element& e) { return e.has_class("point"); })[0]->attr(
          "transform"));
  EXPECT_NEAR(f.x_of(at.x), 1099511627776.0 / 805306368.0, 0.01 * 1365.33);
  EXPECT_NEAR(f.y_of(at.y), 51.30e12, 0.01 * 51.3e12);
}

TEST(chart_svg, roofs_lie_at_their_values_and_are_labelled) {
  const auto root = parse_xml(render_roofline_svg(chart_test::mixed_run()));
  const frame f = read_frame(*root);
  const auto roofs = root->find_all([](const xml_element& e) { return e.has_class("roof"); });
  ASSERT_EQ(roofs.size(), 6u); // DRAM measured + theoretical reference, L2, L1, FP32, FP16 TC
  for (const auto* l : roofs) {
    const double value = std::stod(l->attr("data-value"));
    // Measured roofs solid, theoretical dashed, a theoretical one beside a measured one dotted.
    const std::string dash = l->attr("stroke-dasharray");
    if (l->has_class("reference"))
      EXPECT_EQ(dash, "2 3");
    else if (l->attr("data-source") == "theoretical")
      EXPECT_EQ(dash, "7 4");
    else
      EXPECT_EQ(dash, "");
    const double x1 = f.x_of(std::stod(l->attr("x1"))), y1 = f.y_of(std::stod(l->attr("y1")));
    const double x2 = f.x_of(std::stod(l->attr("x2"))), y2 = f.y_of(std::stod(l->attr("y2")));
    if (l->has_class("memory")) {
      EXPECT_NEAR(y1 / x1, value, value * 0.002);
      EXPECT_NEAR(y2 / x2, value, value * 0.002);
    } else {
      EXPECT_NEAR(y1, value, value * 0.002);
      EXPECT_NEAR(y2, value, value * 0.002);
    }
  }
  const std::string text = all_text(*root);
  for (const char* label :
       {"DRAM 3.02 TB/s @ 2619 MHz (3.35 TB/s @ 2619 MHz theoretical)", "L2 4.86 TB/s",
        "L1/shared 33.4 TB/s", "FP32 66.9 TFLOP/s", "Tensor FP16/BF16 989 TFLOP/s"})
    EXPECT_NE(text.find(label), std::string::npos) << label;
  // The legend explains the line styles used.
  for (const char* style : {"measured", "theoretical", "theoretical (reference)"})
    EXPECT_NE(text.find(style), std::string::npos) << style;
  // Ridge points: each primary memory roof against each compute roof (3 x 2).
  const auto ridges =
      root->find_all([](const xml_element& e) { return e.has_class("ridge-point"); });
  EXPECT_EQ(ridges.size(), 6u);
  for (const auto* rp : ridges) {
    if (rp->attr("data-level") == "dram" && rp->attr("data-precision") == "fp32") {
      EXPECT_NEAR(std::stod(rp->attr("data-intensity")), 66.9e12 / 3024e9, 1e-4);
    }
  }
}

TEST(chart_svg, thirty_close_kernels_get_labels_that_overlap_nothing) {
  const run r = chart_test::crowded_run(30);
  chart_options every_label;
  every_label.label_regex = "."; // beyond 12 kernels only the ones that matter get a label
  every_label.colouring = chart_colouring::kernel;
  const auto root = parse_xml(render_roofline_svg(r, every_label));
  const frame f = read_frame(*root);
  struct label {
    chart_test::poly quad;
    std::string text;
    bool kernel;
  };
  std::vector<label> labels;
  for (const auto* e :
       root->find_all([](const xml_element& x) { return !x.attr("data-quad").empty(); }))
    labels.push_back({chart_test::parse_points(e->attr("data-quad")), e->text,
                      e->has_class("kernel-label-text")});
  std::set<std::string> kernel_labels;
  for (const auto& l : labels) {
    ASSERT_EQ(l.quad.size(), 4u);
    // The footprint holds the text: at least as wide as the font says it is.
    EXPECT_GE(chart_test::width_of(l.quad) + 0.01, text_width(l.text, 11) * (l.kernel ? 1 : 0.8))
        << l.text;
    if (l.kernel)
      kernel_labels.insert(l.text);
  }
  EXPECT_EQ(kernel_labels.size(), 30u);
  for (int i = 0; i < 30; ++i)
    EXPECT_TRUE(kernel_labels.count(fmt::format("stencil_variant_{:02d}", i))) << i;

  for (std::size_t i = 0; i < labels.size(); ++i)
    for (std::size_t j = i + 1; j < labels.size(); ++j)
      EXPECT_FALSE(chart_test::overlap(labels[i].quad, labels[j].quad))
          << "'" << labels[i].text << "' overlaps '" << labels[j].text << "'";

  const auto roofs = root->find_all([](const xml_element& e) { return e.has_class("roof"); });
  ASSERT_FALSE(roofs.empty());
  const auto markers = root->find_all([](const xml_element& e) { return e.has_class("point"); });
  ASSERT_EQ(markers.size(), 30u);
  for (const auto& l : labels) {
    for (const auto* rf : roofs) {
      const chart_test::poly seg{{std::stod(rf->attr("x1")), std::stod(rf->attr("y1"))},
                                 {std::stod(rf->attr("x2")), std::stod(rf->attr("y2"))}};
      EXPECT_FALSE(chart_test::overlap(l.quad, seg)) << "'" << l.text << "' crosses a roof";
    }
    for (const auto* m : markers) {
      const auto c = chart_test::parse_translate(m->attr("transform"));
      EXPECT_FALSE(
          chart_test::overlap(l.quad, chart_test::box(c.x - 4.5, c.y - 4.5, c.x + 4.5, c.y + 4.5)))
          << "'" << l.text << "' covers a point";
    }
    for (const auto& p : l.quad) {
      EXPECT_GE(p.x, f.left);
      EXPECT_LE(p.x, f.left + f.width);
      EXPECT_GE(p.y, f.top);
      EXPECT_LE(p.y, f.top + f.height);
    }
  }
  // Leader lines run from their kernel's point to their label.
  for (const auto* g :
       root->find_all([](const xml_element& e) { return e.has_class("kernel-label"); })) {
    const auto leaders = g->find_all([](const xml_element& e) { return e.has_class("leader"); });
    if (leaders.empty())
      continue;
    const xml_element* kernel = by_id(*root, g->attr("data-kernel"));
    ASSERT_NE(kernel, nullptr);
    const auto c = chart_test::parse_translate(
        kernel->find_all([](const xml_element& e) { return e.has_class("point"); })[0]->attr(
            "transform"));
    const chart_test::pt from{std::stod(leaders[0]->attr("x1")), std::stod(leaders[0]->attr("y1"))};
    const chart_test::pt to{std::stod(leaders[0]->attr("x2")), std::stod(leaders[0]->attr("y2"))};
    EXPECT_LT(std::hypot(from.x - c.x, from.y - c.y), 7.0);
    const auto texts = g->find_all([](const xml_element& e) { return e.name == "text"; });
    ASSERT_EQ(texts.size(), 1u);
    EXPECT_LT(
        chart_test::distance_to_edge(chart_test::parse_points(texts[0]->attr("data-quad")), to),
        0.05);
  }
}

TEST(chart_svg, hover_titles_footer_legend_and_exclusions) {
  const run r = chart_test::mixed_run();
  const auto root = parse_xml(render_roofline_svg(r));
  for (const auto* g : root->find_all([](const xml_element& e) { return e.has_class("kernel"); })) {
    const std::string t = g->title();
    EXPECT_NE(t.find("time "), std::string::npos) << t;
    EXPECT_NE(t.find("FLOP/B"), std::string::npos) << t;
    EXPECT_NE(t.find("achieved"), std::string::npos) << t;
    EXPECT_NE(t.find("bound: "), std::string::npos) << t;
  }
  const auto* sgemm = by_id(*root, "k2");
  EXPECT_NE(sgemm->title().find("time 21.4 ms (median of 20)"), std::string::npos)
      << sgemm->title();
  EXPECT_NE(sgemm->title().find("achieved 51.3 TFLOP/s"), std::string::npos);
  EXPECT_NE(sgemm->title().find("bound: FP32, 77%"), std::string::npos) << sgemm->title();

  const std::string text = all_text(*root);
  EXPECT_NE(text.find("NVIDIA H100 80GB HBM3 \u00b7 CC 9.0 \u00b7 132 SMs \u00b7 clocks SM "
                      "1980 MHz, memory 2619 MHz \u00b7 run date 2026-11-22"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(std::string("Chart by roofkit ") + std::string(tool_version())),
            std::string::npos);
  EXPECT_NE(text.find("ANALYTICAL"), std::string::npos);
  EXPECT_NE(text.find("no hardware counters were read"), std::string::npos);
  // Excluded kernels are listed with the reason, not drawn.
  EXPECT_NE(text.find("Not plotted"), std::string::npos);
  EXPECT_NE(text.find("broken_kernel: failed: verification: 12 of 4096 values differ"),
            std::string::npos)
      << text;
  // A kernel without FLOPs is counted in one line; the bandwidth view shows it.
  EXPECT_EQ(text.find("copy_float4"), std::string::npos);
  EXPECT_NE(text.find("1 kernel moves data only (no FLOPs): see the bandwidth view."),
            std::string::npos)
      << text;
  // The legend names every drawn kernel and every level shown.
  for (const char* s : {"coalesced_access", "uncoalesced_access", "sgemm_8192", "hgemm_bf16_8192",
                        "DRAM", "L2", "L1/shared", "ridge point"})
    EXPECT_NE(text.find(s), std::string::npos) << s;
}

TEST(chart_svg, recorded_and_imported_runs_say_so) {
  run r = chart_test::mixed_run();
  r.context.origin = run_origin::measured;
  r.context.host = "gpu-node-7";
  std::string text = all_text(*parse_xml(render_roofline_svg(r)));
  EXPECT_EQ(text.find("ANALYTICAL"), std::string::npos);
  EXPECT_EQ(text.find("RECORDED"), std::string::npos);
  EXPECT_NE(text.find("Measured: counters and timings"), std::string::npos);
  EXPECT_NE(text.find("Host: gpu-node-7."), std::string::npos);
  chart_options o;
  o.recorded = true;
  text = all_text(*parse_xml(render_roofline_svg(r, o)));
  EXPECT_NE(text.find("RECORDED"), std::string::npos);
  EXPECT_NE(text.find("not measured on this machine"), std::string::npos);
  r.context.origin = run_origin::imported;
  text = all_text(*parse_xml(render_roofline_svg(r)));
  EXPECT_NE(text.find("IMPORTED"), std::string::npos);
}

TEST(chart_svg, is_well_formed_xml) {
  const std::string svg = render_roofline_svg(chart_test::mixed_run());
  EXPECT_EQ(
      svg.rfind(
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"",
          0),
      0u);
  const auto root = parse_xml(svg);
  EXPECT_EQ(root->name, "svg");
  // Names with XML specials are escaped.
  run r = chart_test::mixed_run();
  r.kernels[0].name = "gemm<float, 128>(A & B) \"x\" 'y'";
  const auto root2 = parse_xml(render_roofline_svg(r));
  EXPECT_NE(by_id(*root2, "k0")->attr("data-name").find("gemm<float, 128>(A & B)"),
            std::string::npos);
  // The checker itself rejects broken XML.
  EXPECT_THROW(parse_xml("<svg><g></svg>"), std::runtime_error);
  EXPECT_THROW(parse_xml("<svg a=1/>"), std::runtime_error);
  EXPECT_THROW(parse_xml("<svg><text>a & b</text></svg>"), std::runtime_error);
  EXPECT_THROW(parse_xml("<svg a=\"1\" a=\"2\"/>"), std::runtime_error);
}

TEST(chart_svg, sample_run_file_renders) {
  const run r = load_run(std::string(ROOFKIT_TEST_SOURCE_DIR) + "/tests/data/runs/sample.json");
  const auto root = parse_xml(render_roofline_svg(r));
  const frame f = read_frame(*root);
  const auto points = root->find_all([](const xml_element& e) { return e.has_class("point"); });
  EXPECT_GE(points.size(), 6u);
  for (const auto* p : points) {
    const auto at = chart_test::parse_translate(p->attr("transform"));
    EXPECT_NEAR(at.x, f.px(std::stod(p->attr("data-intensity"))), 0.006);
    EXPECT_NEAR(at.y, f.py(std::stod(p->attr("data-flops-per-s"))), 0.006);
  }
}

TEST(chart_svg, options_select_levels_and_roofs) {
  chart_options o;
  o.levels = {memory_level::dram};
  o.all_roofs = true;
  const auto d = make_roofline_data(chart_test::mixed_run(), o);
  for (const auto& k : d.kernels)
    for (const auto& p : k.points)
      EXPECT_EQ(p.level, memory_level::dram);
  int compute = 0, memory = 0;
  for (const auto& rf : d.roofs)
    (rf.is_memory ? memory : compute) += rf.reference ? 0 : 1;
  EXPECT_EQ(memory, 1);
  EXPECT_EQ(compute, 4); // FP64, FP32, TF32, FP16 tensor: every compute ceiling of the run
}

} // namespace

namespace {

TEST(chart_svg, degenerate_runs_still_render) {
  using namespace roofkit;
  std::vector<run> runs;
  runs.emplace_back(); // nothing at all
  run no_ceilings;
  no_ceilings.kernels.push_back(chart_test::kernel("k", precision::fp32, 1e9, 1e8, 1e-3));
  runs.push_back(no_ceilings);
  run memory_only = chart_test::h100_run();
  memory_only.ceilings.erase(std::remove_if(memory_only.ceilings.begin(),
                                            memory_only.ceilings.end(),
                                            [](const ceiling& c) { return !c.is_memory; }),
                             memory_only.ceilings.end());
  memory_only.kernels.push_back(chart_test::kernel("k", precision::fp64, 1e12, 1e6, 1e-3));
  runs.push_back(memory_only);
  run odd = chart_test::h100_run();
  odd.kernels.push_back(chart_test::kernel(
      "void cutlass::Kernel<cutlass::gemm::kernel::GemmUniversal<cutlass::gemm::GemmShape<128, "
      "128, 32>, float, float>>(cutlass::gemm::kernel::GemmUniversal<...>::Params)",
      precision::fp32, 1e12, 1e9, 0.1));
  odd.kernels.push_back(chart_test::kernel("no_time", precision::fp32, 1e9, 1e9, 0));
  odd.kernels.push_back(chart_test::kernel("nan_bytes", precision::fp32, 1e9, std::nan(""), 1));
  odd.kernels.push_back(chart_test::kernel("tiny", precision::fp32, 1, 1e12, 10));
  runs.push_back(odd);
  for (const auto& r : runs) {
    const auto root = chart_test::parse_xml(render_roofline_svg(r));
    EXPECT_EQ(root->name, "svg");
    const std::string term = render_roofline_terminal(r);
    EXPECT_NE(term.find("Roofline: "), std::string::npos);
    EXPECT_NE(render_roofline_html(r).find("</html>"), std::string::npos);
    EXPECT_NO_THROW(render_compare_svg(r, r));
  }
  // The long C++ name is shortened on the chart (a CUTLASS kernel named by its operation),
  // whole in the hover title.
  const auto root = chart_test::parse_xml(render_roofline_svg(odd));
  const xml_element* g = by_id(*root, "k0");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->attr("data-name").rfind("void cutlass::Kernel<", 0), 0u);
  const std::string text = all_text(*root);
  EXPECT_NE(text.find("CUTLASS GemmUniversal"), std::string::npos) << text;
  EXPECT_NE(text.find("no_time: no time"), std::string::npos);
  EXPECT_NE(text.find("nan_bytes: no bytes at the levels drawn"), std::string::npos) << text;
  // The tiny kernel (1 FLOP in 10 s) is still inside the axes.
  const frame f = read_frame(*root);
  const xml_element* tiny = by_id(*root, "k3");
  ASSERT_NE(tiny, nullptr);
  const auto at = chart_test::parse_translate(
      tiny->find_all([](const xml_element& e) { return e.has_class("point"); })[0]->attr(
          "transform"));
  EXPECT_LE(at.y, f.top + f.height);
  EXPECT_GE(at.x, f.left);
}

} // namespace
