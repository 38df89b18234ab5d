// The tables of a run (context, ceilings, kernels) and the report that prints them.
#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>

#include <fmt/format.h>

#include "roofkit/error.hpp"
#include "roofkit/results.hpp"

namespace roofkit {

namespace {

cell maybe(double v, double scale = 1) {
  if (!std::isfinite(v))
    return std::monostate{};
  return v * scale;
}

cell positive_or_empty(double v, double scale = 1) {
  return std::isfinite(v) && v > 0 ? cell(v * scale) : cell(std::monostate{});
}

bool any_flops(const std::vector<kernel_placement>& placements) {
  return std::any_of(placements.begin(), placements.end(),
                     [](const auto& p) { return p.has_flops; });
}

std::vector<memory_level> levels_present(const run& r) {
  std::vector<memory_level> out;
  for (memory_level l : all_memory_levels) {
    const bool present = std::any_of(r.kernels.begin(), r.kernels.end(), [l](const auto& k) {
      auto it = k.bytes.find(l);
      return it != k.bytes.end() && it->second > 0;
    });
    if (present)
      out.push_back(l);
  }
  // Outermost first, as people read a hierarchy from DRAM in.
  std::reverse(out.begin(), out.end());
  return out;
}

const level_point* point_at(const kernel_placement& p, memory_level l) {
  for (const auto& lp : p.levels)
    if (lp.level == l)
      return &lp;
  return nullptr;
}

std::string kernel_note(const kernel_result& k, const kernel_placement& p) {
  std::vector<std::string> parts;
  if (k.status != "ok")
    parts.push_back(k.message.empty() ? "FAILED (" + k.status + ")"
                                      : "FAILED (" + k.status + "): " + k.message);
  if (!p.has_flops)
    parts.emplace_back("no FLOPs: bandwidth only");
  if (p.mixed_precision && p.compute_roof > 0)
    parts.push_back(
        fmt::format("mixed precision: combined roof {:.1f} TFLOP/s", p.compute_roof / 1e12));
  for (const auto& n : p.notes)
    parts.push_back(n);
  std::string text;
  for (const auto& part : parts)
    text += (text.empty() ? "" : "; ") + part;
  return text;
}

std::string value_unit(const ceiling& c) {
  if (c.is_memory)
    return "GB/s";
  return c.prec == precision::tensor_int8 ? "TOP/s" : "TFLOP/s";
}

} // namespace

table context_table(const run& r, bool recorded) {
  const run_context& c = r.context;
  table t;
  t.id = "context";
  t.title = "Run context";
  t.columns = {{"key", "Field"}, {"value", "Value"}};
  // Values are text (left-aligned in Markdown); empty fields are left out.
  auto add = [&t](const std::string& key, const std::string& value) {
    if (!value.empty())
      t.rows.push_back({key, value});
  };
  auto mhz = [](double v) { return v > 0 ? fmt::format("{:g}", v) : std::string(); };
  add("provenance", provenance_line(r, recorded));
  add("origin", to_string(c.origin));
  add("not_measured_here", run_is_from_elsewhere(r, recorded) ? "true" : "false");
  add("device", c.device_name);
  add("cc", c.cc_major > 0 ? fmt::format("{}.{}", c.cc_major, c.cc_minor) : "");
  add("sms", c.sm_count > 0 ? std::to_string(c.sm_count) : "");
  add("date", c.date);
  add("host", c.host);
  add("sm_clock_mhz", mhz(c.sm_clock_mhz));
  add("mem_clock_mhz", mhz(c.mem_clock_mhz));
  add("driver", c.driver_version);
  add("runtime", c.runtime_version);
  add("tool_version", c.tool_version);
  add("git_revision", c.git_revision);
  add("command", c.command);
  for (const auto& [key, value] : c.extra)
    add(key, value);
  return t;
}

table ceilings_table(const run& r) {
  table t;
  t.id = "ceilings";
  t.title = "Ceilings";
  t.columns = {
      {"ceiling", "Ceiling"}, {"kind", "Kind"}, {"value", "Value", "", 2}, {"unit", "Unit"}};
  std::vector<memory_level> levels;
  for (memory_level l : {memory_level::dram, memory_level::l2, memory_level::l1})
    if (find_memory_ceiling(r.ceilings, l) != nullptr)
      levels.push_back(l);
  for (memory_level l : levels)
    t.columns.push_back({"ridge_" + to_string(l), "Ridge " + label(l), "FLOP/B", 1});
  t.columns.push_back({"source", "Source"});
  t.columns.push_back({"sm_clock_mhz", "SM clock", "MHz", 0});
  t.columns.push_back({"mem_clock_mhz", "Memory clock", "MHz", 0});
  t.columns.push_back({"method", "Method"});

  std::vector<const ceiling*> order;
  for (const auto& c : r.ceilings)
    if (!c.is_memory)
      order.push_back(&c);
  for (const auto& c : r.ceilings)
    if (c.is_memory)
      order.push_back(&c);
  for (const ceiling* c : order) {
    std::vector<cell> row;
    row.push_back(c->is_memory ? label(c->level) : label(c->prec));
    row.push_back(std::string(c->is_memory ? "memory" : "compute"));
    row.push_back(maybe(c->value, c->is_memory ? 1e-9 : 1e-12));
    row.push_back(value_unit(*c));
    for (memory_level l : levels) {
      const ceiling* m = find_memory_ceiling(r.ceilings, l);
      row.push_back(c->is_memory ? cell(std::monostate{}) : maybe(c->value / m->value));
    }
    row.push_back(to_string(c->source));
    row.push_back(positive_or_empty(c->sm_clock_mhz));
    row.push_back(positive_or_empty(c->mem_clock_mhz));
    row.push_back(c->method);
    t.rows.push_back(std::move(row));
  }
  if (r.ceilings.empty())
    t.notes.push_back("The run has no ceilings: kernels cannot be placed under roofs.");
  return t;
}

table kernels_table(const run& r, const std::vector<kernel_placement>& placements) {
  if (placements.size() != r.kernels.size())
    throw runtime_error(fmt::format("kernels_table: {} placements for {} kernels",
                                    placements.size(), r.kernels.size()));
  const bool flops = any_flops(placements);
  const auto levels = levels_present(r);
  table t;
  t.id = "kernels";
  t.title = "Kernels";
  t.columns = {{"name", "Kernel"}, {"time_us", "Time", "us", 2}};
  if (flops)
    t.columns.push_back({"gflop_per_s", "Achieved", "GFLOP/s", 1});
  if (flops)
    for (memory_level l : levels)
      t.columns.push_back({"intensity_" + to_string(l), "AI " + label(l), "FLOP/B", 2});
  for (memory_level l : levels)
    t.columns.push_back({to_string(l) + "_gb_per_s", label(l), "GB/s", 1});
  t.columns.push_back({"bound", "Bound"});
  t.columns.push_back({"pct_of_roof", "Of roof", "%", 1});
  if (flops)
    t.columns.push_back({"attainable_gflop_per_s", "Attainable", "GFLOP/s", 1});
  const bool occupancy = std::any_of(r.kernels.begin(), r.kernels.end(), [](const auto& k) {
    return k.occupancy_achieved.has_value();
  });
  if (occupancy)
    t.columns.push_back({"occupancy_achieved_pct", "Occupancy", "%", 1});
  t.columns.push_back({"status", "Status"});
  t.columns.push_back({"source", "Source"});
  t.columns.push_back({"note", "Note"});

  for (std::size_t i = 0; i < r.kernels.size(); ++i) {
    const kernel_result& k = r.kernels[i];
    const kernel_placement& p = placements[i];
    std::vector<cell> row;
    row.push_back(k.name);
    row.push_back(positive_or_empty(k.time.median_s, 1e6));
    if (flops)
      row.push_back(p.has_flops ? maybe(p.achieved_flops, 1e-9) : cell(std::monostate{}));
    if (flops)
      for (memory_level l : levels) {
        const level_point* lp = point_at(p, l);
        row.push_back(lp && p.has_flops ? maybe(lp->intensity) : cell(std::monostate{}));
      }
    for (memory_level l : levels) {
      const level_point* lp = point_at(p, l);
      row.push_back(lp ? positive_or_empty(lp->achieved_bandwidth, 1e-9) : cell(std::monostate{}));
    }
    row.push_back(p.bound_label.empty() ? p.bound : p.bound_label);
    row.push_back(p.bound == "unknown" ? cell(std::monostate{}) : maybe(p.pct_of_roof));
    if (flops)
      row.push_back(positive_or_empty(p.attainable_flops, 1e-9));
    if (occupancy)
      row.push_back(k.occupancy_achieved ? maybe(*k.occupancy_achieved, 100)
                                         : cell(std::monostate{}));
    row.push_back(k.status);
    row.push_back(to_string(k.source));
    row.push_back(kernel_note(k, p));
    t.rows.push_back(std::move(row));
    t.highlight.push_back(k.status != "ok");
  }
  t.notes.push_back(
      "Bound: the roof that allows the least time (FLOPs / compute peak, or bytes / bandwidth "
      "per level). Of roof: that least time over the kernel's time, i.e. achieved / attainable. "
      "AI: arithmetic intensity, FLOPs per byte moved at that level.");
  return t;
}

void print_run_report(const run& r, output_format format, std::ostream& out,
                      const report_options& options) {
  const std::string& which = options.tables;
  if (which != "all" && which != "context" && which != "ceilings" && which != "kernels")
    throw usage_error(
        fmt::format("unknown table '{}' (valid: all, context, ceilings, kernels)", which));
  auto wanted = [&which](const char* name) { return which == "all" || which == name; };
  auto printer = make_printer(format, out);
  if (format == output_format::markdown) {
    out << "# roofkit run: "
        << (r.context.device_name.empty() ? std::string("unnamed GPU") : r.context.device_name)
        << "\n\n";
    out << "**" << provenance_line(r, options.recorded) << ".**\n\n";
    out << clocks_line(r) << ".";
    if (!options.source_name.empty())
      out << " File: " << options.source_name << ".";
    out << "\n\n";
    if (auto it = r.context.extra.find("note"); it != r.context.extra.end())
      out << "Note: " << it->second << "\n\n";
    if (wanted("ceilings"))
      printer->print(ceilings_table(r));
    if (wanted("kernels"))
      printer->print(kernels_table(r, analyze(r)));
    if (wanted("context"))
      printer->print(context_table(r, options.recorded));
  } else {
    if (wanted("context"))
      printer->print(context_table(r, options.recorded));
    if (wanted("ceilings"))
      printer->print(ceilings_table(r));
    if (wanted("kernels"))
      printer->print(kernels_table(r, analyze(r)));
  }
  printer->finish();
}

} // namespace roofkit
