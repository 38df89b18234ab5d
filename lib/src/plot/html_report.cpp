// The self-contained HTML page: chart inline, a sortable kernel table, hover links both ways.
// Nothing in the page refers to anything outside it (no URL, no external script, style or font).
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "chart_internal.hpp"
#include "roofkit/build_info.hpp"

namespace roofkit {

namespace {

constexpr const char *page_css =
    R"(body{font-family:"DejaVu Sans",Verdana,Arial,sans-serif;margin:16px 24px;color:#222;background:#fff}
h1{font-size:18px;margin:4px 0 12px}
.chart svg{max-width:100%;height:auto}
.chart svg.focus g.kernel:not(.hl),.chart svg.focus g.kernel-label:not(.hl){opacity:.2}
.chart g.kernel.hl path.point{stroke:#000;stroke-width:1.6}
.chart g.kernel-label.hl text{font-weight:bold}
.chart g.legend-kernel.hl text{font-weight:bold}
table{border-collapse:collapse;font-size:13px;margin-top:12px}
th,td{border-bottom:1px solid #ddd;padding:4px 10px;text-align:right;white-space:nowrap}
th{background:#f4f4f4;cursor:pointer;user-select:none}
th.sorted-asc::after{content:" \25B2"}
th.sorted-desc::after{content:" \25BC"}
td.name,th.name,td.text,th.text{text-align:left}
tr.hl td{background:#fff1c2}
tr.excluded td{color:#7a0016}
.swatch{display:inline-block;width:10px;height:10px;border-radius:5px;margin-right:6px}
p.origin{color:#b54708;font-size:13px}
p.origin.measured{color:#444}
p.foot{color:#666;font-size:12px}
)";

// Hover links between table rows, points, labels and legend entries; column sorting.
constexpr const char *page_js = R"((function(){
var svg=document.querySelector('.chart svg');
function mark(id,on){
  document.querySelectorAll('[data-kernel="'+id+'"]').forEach(function(e){e.classList.toggle('hl',on);});
  var g=document.getElementById(id);if(g)g.classList.toggle('hl',on);
  if(svg)svg.classList.toggle('focus',on);
}
function hook(el,id){el.addEventListener('mouseenter',function(){mark(id,true);});
  el.addEventListener('mouseleave',function(){mark(id,false);});}
document.querySelectorAll('[data-kernel]').forEach(function(e){hook(e,e.getAttribute('data-kernel'));});
document.querySelectorAll('g.kernel').forEach(function(g){hook(g,g.id);});
var table=document.getElementById('kernels');
table.querySelectorAll('th').forEach(function(th,col){th.addEventListener('click',function(){
  var asc=!th.classList.contains('sorted-asc');
  table.querySelectorAll('th').forEach(function(h){h.classList.remove('sorted-asc','sorted-desc');});
  th.classList.add(asc?'sorted-asc':'sorted-desc');
  var num=th.getAttribute('data-type')==='num';
  var body=table.tBodies[0];var rows=Array.prototype.slice.call(body.rows);
  rows.sort(function(a,b){
    var x=a.cells[col].getAttribute('data-sort'),y=b.cells[col].getAttribute('data-sort');
    if(num){x=x===''?NaN:parseFloat(x);y=y===''?NaN:parseFloat(y);
      if(isNaN(x))return isNaN(y)?0:1;if(isNaN(y))return -1;return asc?x-y:y-x;}
    return asc?x.localeCompare(y):y.localeCompare(x);});
  rows.forEach(function(r){body.appendChild(r);});
});});
})();
)";

struct column_def {
  std::string header;
  bool numeric;
};

std::string cell(const std::string &shown, const std::string &sort, const std::string &cls = "") {
  return fmt::format("<td{} data-sort=\"{}\">{}</td>", cls.empty() ? "" : " class=\"" + cls + "\"",
                     xml_escape(sort), xml_escape(shown));
}

std::string num_cell(double v, const std::string &shown) {
  if (!std::isfinite(v))
    return cell("", "");
  return cell(shown, fmt::format("{:.9g}", v));
}

} // namespace

std::string render_roofline_html(const run &r, const chart_options &options) {
  const roofline_chart_data d = make_roofline_data(r, options);
  svg_options so;
  so.standalone = false;
  const std::string svg = to_svg(draw_roofline(d, options), so);

  std::set<memory_level> levels;
  for (const auto &k : d.kernels)
    for (const auto &p : k.points)
      levels.insert(p.level);
  std::vector<memory_level> level_columns;
  for (memory_level l : {memory_level::dram, memory_level::l2, memory_level::l1})
    if (levels.count(l))
      level_columns.push_back(l);

  std::vector<column_def> columns{{"#", true},    {"Kernel", false}, {"Status", false},
                                  {"Time", true}, {"FLOPs", true},   {"Achieved", true}};
  for (memory_level l : level_columns)
    columns.push_back({"Intensity " + label(l) + " (FLOP/B)", true});
  columns.push_back({"Bound", false});
  columns.push_back({"% of roof", true});

  std::string rows;
  for (const auto &k : d.kernels) {
    const kernel_result &kr = r.kernels[k.run_index];
    const std::string id = fmt::format("k{}", k.run_index);
    std::string row =
        fmt::format("<tr data-kernel=\"{}\" title=\"{}\">", id, xml_escape(k.tooltip));
    row += num_cell(static_cast<double>(k.run_index), std::to_string(k.run_index));
    row += fmt::format("<td class=\"name\" data-sort=\"{}\"><span class=\"swatch\" "
                       "style=\"background:{}\"></span>{}</td>",
                       xml_escape(k.name), k.color, xml_escape(k.label));
    row += cell(kr.status, kr.status, "text");
    row += num_cell(k.time_s, chart_detail::format_time(k.time_s));
    row += num_cell(k.flops, format_si(k.flops, "FLOP"));
    row += num_cell(k.flops_per_s, format_si(k.flops_per_s, "FLOP/s"));
    for (memory_level l : level_columns) {
      const chart_point *p = nullptr;
      for (const auto &q : k.points)
        if (q.level == l)
          p = &q;
      row += p ? num_cell(p->intensity, chart_detail::format_number(p->intensity)) : cell("", "");
    }
    row += cell(k.bound, k.bound, "text");
    row += k.pct_of_roof > 0 ? num_cell(k.pct_of_roof, fmt::format("{:.0f}%", k.pct_of_roof))
                             : cell("", "");
    rows += row + "</tr>\n";
  }
  for (const auto &e : d.excluded) {
    const kernel_result &kr = r.kernels[e.run_index];
    std::string row = "<tr class=\"excluded\">";
    row += num_cell(static_cast<double>(e.run_index), std::to_string(e.run_index));
    row += fmt::format("<td class=\"name\" data-sort=\"{}\">{}</td>", xml_escape(e.name),
                       xml_escape(chart_detail::short_name(e.name, 40)));
    row += cell(kr.status, kr.status, "text");
    row += kr.time.median_s > 0
               ? num_cell(kr.time.median_s, chart_detail::format_time(kr.time.median_s))
               : cell("", "");
    for (std::size_t i = 4; i + 1 < columns.size(); ++i)
      row += cell("", "");
    row += cell("not plotted: " + e.reason, "", "text");
    rows += row + "</tr>\n";
  }

  std::string head;
  for (const auto &c : columns)
    head += fmt::format("<th data-type=\"{}\"{}>{}</th>", c.numeric ? "num" : "text",
                        c.header == "Kernel" ? " class=\"name\"" : "", xml_escape(c.header));

  std::string page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  page += fmt::format("<title>{}</title>\n<style>\n{}</style>\n</head>\n<body>\n",
                      xml_escape(d.title), page_css);
  page += fmt::format("<h1>{}</h1>\n", xml_escape(d.title));
  page += fmt::format("<p class=\"origin{}\">{}</p>\n", d.origin_badge.empty() ? " measured" : "",
                      xml_escape(d.origin_text));
  page += "<div class=\"chart\">\n" + svg + "</div>\n";
  page += fmt::format("<table id=\"kernels\">\n<thead><tr>{}</tr></thead>\n<tbody>\n{}</tbody>\n"
                      "</table>\n",
                      head, rows);
  page += "<p class=\"foot\">Hover a row to find its point, or a point to find its row; click a "
          "column heading to sort.";
  for (const auto &line : d.footer)
    page += "<br>" + xml_escape(line);
  page += "</p>\n<script>\n";
  page += page_js;
  page += "</script>\n</body>\n</html>\n";
  return page;
}

} // namespace roofkit
