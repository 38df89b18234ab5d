// The self-contained HTML page: chart inline, a sortable kernel table, hover links both ways.
// Nothing in the page refers to anything outside it (no URL, no external script, style or font).
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "internal/chart_parts.hpp"
#include "roofkit/core.hpp"

namespace roofkit {

namespace {

constexpr const char* page_css =
    R"(body{font-family:"DejaVu Sans",Verdana,Arial,sans-serif;margin:16px 24px;color:#222;background:#fff}
h1{font-size:18px;margin:4px 0 12px}
h2{font-size:15px;margin:20px 0 6px}
.chart svg{max-width:100%;height:auto}
.chart svg.focus g.kernel:not(.hl),.chart svg.focus g.kernel-label:not(.hl){opacity:.2}
.chart g.kernel.hl path.point{stroke:#000;stroke-width:1.6}
.chart g.kernel-label.hl text{font-weight:bold}
.chart g.legend-kernel.hl text{font-weight:bold}
.chart .toggle{cursor:pointer}
.chart .toggle.off{opacity:.3}
.hidden{display:none}
#search-row{margin:8px 0;font-size:13px}
#search{font-size:13px;padding:3px 6px;width:22em}
#search.bad{border-color:#b00020}
#tip{position:fixed;display:none;pointer-events:none;background:#fffef4;border:1px solid #888;padding:6px 8px;font-size:12px;line-height:1.4;white-space:pre-line;box-shadow:0 2px 6px rgba(0,0,0,.2);max-width:460px;z-index:10}
table{border-collapse:collapse;font-size:13px;margin-top:12px}
th,td{border-bottom:1px solid #ddd;padding:4px 10px;text-align:right;white-space:nowrap}
th{background:#f4f4f4;cursor:pointer;user-select:none}
th.sorted-asc::after{content:" \25B2"}
th.sorted-desc::after{content:" \25BC"}
td.name,th.name,td.text,th.text{text-align:left}
tr.hl td{background:#fff1c2}
tr.excluded td{color:#7a0016}
tr.data-only td{color:#444}
.swatch{display:inline-block;width:10px;height:10px;border-radius:5px;margin-right:6px}
p.origin{color:#b54708;font-size:13px}
p.origin.measured{color:#444}
p.foot{color:#666;font-size:12px}
)";

// Hover box on points and bars, legend toggles (topic, level), search, hover links between
// rows and points, column sorting.
constexpr const char* page_js = R"((function(){
var svgs=document.querySelectorAll('.chart svg');
function mark(id,on){
  document.querySelectorAll('[data-kernel="'+id+'"]').forEach(function(e){e.classList.toggle('hl',on);});
  var g=document.getElementById(id);if(g)g.classList.toggle('hl',on);
  if(svgs[0])svgs[0].classList.toggle('focus',on);
}
function hook(el,id){el.addEventListener('mouseenter',function(){mark(id,true);});
  el.addEventListener('mouseleave',function(){mark(id,false);});}
document.querySelectorAll('[data-kernel]').forEach(function(e){hook(e,e.getAttribute('data-kernel'));});
document.querySelectorAll('g.kernel').forEach(function(g){hook(g,g.id);});
var tip=document.getElementById('tip');
function showTip(e){var t=e.currentTarget.getAttribute('data-tip');tip.textContent=t;
  tip.style.display='block';moveTip(e);}
function moveTip(e){var x=e.clientX+14,y=e.clientY+14,w=tip.offsetWidth,h=tip.offsetHeight;
  if(x+w>window.innerWidth)x=Math.max(0,e.clientX-w-14);if(y+h>window.innerHeight)y=Math.max(0,e.clientY-h-14);
  tip.style.left=x+'px';tip.style.top=y+'px';}
document.querySelectorAll('[data-tip]').forEach(function(el){
  el.addEventListener('mouseover',showTip);el.addEventListener('mousemove',moveTip);
  el.addEventListener('mouseout',function(){tip.style.display='none';});});
var offTopics={},offLevels={},pattern=null;
function matches(name){return !pattern||pattern.test(name);}
function apply(){
  var shown=0,total=0;
  document.querySelectorAll('g.kernel').forEach(function(g){total++;
    var vis=!offTopics[g.getAttribute('data-topic')]&&matches(g.getAttribute('data-name'));
    if(vis)shown++;
    g.classList.toggle('hidden',!vis);
    var lb=document.querySelector('g.kernel-label[data-kernel="'+g.id+'"]');if(lb)lb.classList.toggle('hidden',!vis);
    g.querySelectorAll('[data-level]').forEach(function(p){p.classList.toggle('hidden',!!offLevels[p.getAttribute('data-level')]);});
  });
  document.querySelectorAll('g.bar-group,g.bandwidth-name').forEach(function(b){
    var row=document.querySelector('tr[data-kernel="'+b.getAttribute('data-kernel')+'"]');
    var name=row?row.getAttribute('data-name'):'';
    b.classList.toggle('hidden',!!offTopics[b.getAttribute('data-topic')]||!matches(name));});
  document.querySelectorAll('#kernels tbody tr').forEach(function(r){
    r.classList.toggle('hidden',!!offTopics[r.getAttribute('data-topic')]||!matches(r.getAttribute('data-name')||''));});
  var c=document.getElementById('search-count');if(c)c.textContent=shown+' of '+total+' plotted kernels shown';
}
document.querySelectorAll('.toggle').forEach(function(t){t.addEventListener('click',function(){
  var topic=t.getAttribute('data-topic'),level=t.getAttribute('data-level');
  if(topic!==null){offTopics[topic]=!offTopics[topic];
    document.querySelectorAll('.toggle[data-topic="'+topic+'"]').forEach(function(x){x.classList.toggle('off',offTopics[topic]);});}
  if(level!==null){offLevels[level]=!offLevels[level];t.classList.toggle('off',offLevels[level]);}
  apply();});});
var search=document.getElementById('search');
search.addEventListener('input',function(){var v=search.value;search.classList.remove('bad');
  if(!v){pattern=null;}else{try{pattern=new RegExp(v,'i');}catch(err){search.classList.add('bad');
    pattern=new RegExp(v.replace(/[.*+?^${}()|[\]\\]/g,'\\$&'),'i');}}
  apply();});
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
apply();
})();
)";

struct column_def {
  std::string header;
  bool numeric;
};

std::string html_cell(const std::string& shown, const std::string& sort,
                      const std::string& cls = "") {
  return fmt::format("<td{} data-sort=\"{}\">{}</td>", cls.empty() ? "" : " class=\"" + cls + "\"",
                     xml_escape(sort), xml_escape(shown));
}

std::string num_cell(double v, const std::string& shown) {
  if (!std::isfinite(v))
    return html_cell("", "");
  return html_cell(shown, fmt::format("{:.9g}", v));
}

std::string occupancy_cell(const kernel_result& kr) {
  if (!kr.occupancy_achieved && !kr.occupancy_theoretical)
    return html_cell("", "");
  const double v = kr.occupancy_achieved.value_or(*kr.occupancy_theoretical);
  return num_cell(100 * v,
                  fmt::format("{:.0f}%{}", 100 * v, kr.occupancy_achieved ? "" : " (theor.)"));
}

const std::string overhead_text = "launch overhead dominates: rates are bounds";

// Rows of the kernels the roofline does not show (no FLOPs, or excluded), with the reason.
std::string excluded_rows(const run& r, const roofline_chart_data& d, std::size_t column_count) {
  std::string rows;
  for (const auto& e : d.excluded) {
    const kernel_result& kr = r.kernels[e.run_index];
    const chart_bandwidth_kernel* bk = nullptr;
    for (const auto& b : d.data_only)
      if (b.run_index == e.run_index)
        bk = &b;
    const std::string topic = bk ? bk->topic : kr.topic;
    std::string row = fmt::format(
        "<tr class=\"{}\" data-kernel=\"k{}\" data-topic=\"{}\" data-name=\"{}\">",
        bk ? "data-only" : "excluded", e.run_index, xml_escape(topic), xml_escape(e.name));
    row += num_cell(static_cast<double>(e.run_index), std::to_string(e.run_index));
    row += fmt::format("<td class=\"name\" data-sort=\"{}\">{}</td>", xml_escape(e.name),
                       xml_escape(chart_detail::short_name(e.name, 40)));
    row += html_cell(topic, topic, "text");
    row += html_cell(kr.status, kr.status, "text");
    row += kr.time.median_s > 0
               ? num_cell(kr.time.median_s, chart_detail::format_time(kr.time.median_s))
               : html_cell("", "");
    for (std::size_t i = 5; i + 2 < column_count; ++i)
      row += html_cell("", "");
    row += occupancy_cell(kr);
    std::string note = bk ? e.reason : "not plotted: " + e.reason;
    if (kr.overhead_dominated)
      note += "; " + overhead_text;
    row += html_cell(note, "", "text");
    rows += row + "</tr>\n";
  }

  return rows;
}

} // namespace

std::string render_roofline_html(const run& r, const chart_options& options) {
  const roofline_chart_data d = make_roofline_data(r, options);
  svg_options so;
  so.standalone = false;
  const std::string svg = to_svg(draw_roofline(d, options), so);
  const std::string bandwidth_svg =
      d.data_only.empty() ? std::string() : to_svg(draw_bandwidth(d, options), so);

  std::set<memory_level> levels;
  for (const auto& k : d.kernels)
    for (const auto& p : k.points)
      levels.insert(p.level);
  std::vector<memory_level> level_columns;
  for (memory_level l : {memory_level::dram, memory_level::l2, memory_level::l1})
    if (levels.count(l))
      level_columns.push_back(l);

  std::vector<column_def> columns{{"#", true},       {"Kernel", false}, {"Topic", false},
                                  {"Status", false}, {"Time", true},    {"FLOPs", true},
                                  {"Achieved", true}};
  for (memory_level l : level_columns)
    columns.push_back({"Intensity " + label(l) + " (FLOP/B)", true});
  columns.push_back({"Bound", false});
  columns.push_back({"% of roof", true});
  columns.push_back({"Compute roof", false});
  columns.push_back({"Occupancy", true});
  columns.push_back({"Note", false});

  std::string rows;
  for (const auto& k : d.kernels) {
    const kernel_result& kr = r.kernels[k.run_index];
    const std::string id = fmt::format("k{}", k.run_index);
    std::string row =
        fmt::format("<tr data-kernel=\"{}\" data-topic=\"{}\" data-name=\"{}\" title=\"{}\">", id,
                    xml_escape(k.topic), xml_escape(k.name), xml_escape(k.tooltip));
    row += num_cell(static_cast<double>(k.run_index), std::to_string(k.run_index));
    row += fmt::format("<td class=\"name\" data-sort=\"{}\"><span class=\"swatch\" "
                       "style=\"background:{}\"></span>{}</td>",
                       xml_escape(k.name), k.color, xml_escape(k.label));
    row += html_cell(k.topic, k.topic, "text");
    row += html_cell(kr.status, kr.status, "text");
    row += num_cell(k.time_s, chart_detail::format_time(k.time_s));
    row += num_cell(k.flops, format_si(k.flops, "FLOP"));
    row += num_cell(k.flops_per_s, format_si(k.flops_per_s, "FLOP/s"));
    for (memory_level l : level_columns) {
      const chart_point* p = nullptr;
      for (const auto& q : k.points)
        if (q.level == l)
          p = &q;
      row +=
          p ? num_cell(p->intensity, chart_detail::format_number(p->intensity)) : html_cell("", "");
    }
    row += html_cell(k.bound, k.bound, "text");
    row += k.pct_of_roof > 0 ? num_cell(k.pct_of_roof, fmt::format("{:.0f}%", k.pct_of_roof))
                             : html_cell("", "");
    row += html_cell(k.compute_roof, k.compute_roof, "text");
    row += occupancy_cell(kr);
    row += k.overhead_dominated ? html_cell(overhead_text, overhead_text, "text overhead")
                                : html_cell("", "", "text");
    rows += row + "</tr>\n";
  }
  rows += excluded_rows(r, d, columns.size());

  std::string head;
  for (const auto& c : columns)
    head += fmt::format("<th data-type=\"{}\"{}>{}</th>", c.numeric ? "num" : "text",
                        c.header == "Kernel" ? " class=\"name\"" : "", xml_escape(c.header));

  std::string page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  page += fmt::format("<title>{}</title>\n<style>\n{}</style>\n</head>\n<body>\n",
                      xml_escape(d.title), page_css);
  page += fmt::format("<h1>{}</h1>\n", xml_escape(d.title));
  page += fmt::format("<p class=\"origin{}\">{}</p>\n", d.origin_badge.empty() ? " measured" : "",
                      xml_escape(d.origin_text));
  page += "<div id=\"search-row\"><label>Kernels: <input id=\"search\" type=\"search\" "
          "placeholder=\"name or regular expression\" autocomplete=\"off\"></label> "
          "<span id=\"search-count\"></span></div>\n";
  page += "<div class=\"chart\" id=\"roofline\">\n" + svg + "</div>\n";
  if (!bandwidth_svg.empty())
    page += fmt::format("<h2>{} kernel{} without FLOPs</h2>\n<div class=\"chart\" "
                        "id=\"bandwidth\">\n{}</div>\n",
                        d.data_only.size(), d.data_only.size() == 1 ? "" : "s", bandwidth_svg);
  page += fmt::format("<h2>Every kernel ({})</h2>\n<table id=\"kernels\">\n<thead><tr>{}</tr>"
                      "</thead>\n<tbody>\n{}</tbody>\n</table>\n",
                      r.kernels.size(), head, rows);
  page += "<p class=\"foot\">Hover a point or bar for its numbers, a row to find its point; click "
          "a topic or memory level in a legend to hide or show it; click a column heading to "
          "sort.";
  for (const auto& line : d.footer)
    page += "<br>" + xml_escape(line);
  page += "</p>\n<div id=\"tip\" role=\"tooltip\"></div>\n<script>\n";
  page += page_js;
  page += "</script>\n</body>\n</html>\n";
  return page;
}

} // namespace roofkit
