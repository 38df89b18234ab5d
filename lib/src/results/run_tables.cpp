// The tables of a run (context, ceilings, kernels) and the report that prints them.
#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>

#include <fmt/format.h>

#include "roofkit/core.hpp"
#include "roofkit/diagnosis.hpp"
#include "roofkit/results.hpp"

namespace roofkit {

namespace {

cell maybe(double v, double scale = 1) {
  if (!std::isfinite(v))
    return std::monostate{};
  return v * scale;
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

std::string kernel_note(const kernel_result& k, const kernel_placement& p) {
  std::vector<std::string> parts;
  if (k.status != "ok")
    parts.push_back(k.message.empty() ? "FAILED (" + k.status + ")"
                                      : "FAILED (" + k.status + "): " + k.message);
  if (!p.has_flops)
    parts.emplace_back("no FLOPs: bandwidth only");
  if (k.overhead_dominated)
    parts.emplace_back("launch overhead dominates: rates are bounds");
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

// A label with an ASCII "..." for the ellipsis, so that Markdown widths stay right.
std::string ascii_label(std::string s) {
  const std::string ellipsis = "\u2026";
  for (auto at = s.find(ellipsis); at != std::string::npos; at = s.find(ellipsis, at))
    s.replace(at, ellipsis.size(), "...");
  return s;
}

// A bound label for the narrow table: "combined FP32 + FP16" as "FP32+FP16".
std::string compact_bound(const std::string& s) {
  const std::string_view prefix = "combined ";
  std::string_view in = s;
  if (in.substr(0, prefix.size()) == prefix)
    in.remove_prefix(prefix.size());
  std::string out;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in.substr(i, 3) == " + ") {
      out += '+';
      i += 2;
    } else {
      out += in[i];
    }
  }
  return out;
}

// Splits text into lines of at most `width` characters, at spaces.
std::vector<std::string> wrap(const std::string& text, std::size_t width) {
  std::vector<std::string> lines;
  std::string line, word;
  const auto flush_word = [&] {
    if (word.empty())
      return;
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    word.clear();
  };
  for (char ch : text) {
    if (ch == ' ')
      flush_word();
    else
      word += ch;
  }
  flush_word();
  if (!line.empty())
    lines.push_back(line);
  return lines;
}

std::string wrapped(const std::string& text, std::size_t width) {
  std::string out;
  for (const auto& l : wrap(text, width))
    out += (out.empty() ? "" : "\n") + l;
  return out;
}

constexpr std::size_t narrow_width = 120;

// The kernels table in at most 120 columns: the answer per kernel (time, achieved, DRAM, bound,
// % of roof, occupancy) and a flag; the full table is the wide one.
table narrow_kernels_table(const run& r, const std::vector<kernel_placement>& placements,
                           const std::string& wide_hint) {
  const bool flops = any_flops(placements);
  const bool occupancy = std::any_of(r.kernels.begin(), r.kernels.end(), [](const auto& k) {
    return k.occupancy_achieved.has_value();
  });
  const auto levels = levels_present(r);
  const memory_level main_level =
      std::find(levels.begin(), levels.end(), memory_level::dram) != levels.end() || levels.empty()
          ? memory_level::dram
          : levels.front();
  const std::string lvl = main_level == memory_level::l1 ? "L1" : label(main_level);
  table t;
  t.id = "kernels";
  t.title = "Kernels";
  t.columns = {{"name", "Kernel"}, {"time_us", "Time us", "", 2}};
  if (flops) {
    t.columns.push_back({"gflop_per_s", "GFLOP/s", "", 1});
    t.columns.push_back({"intensity_" + to_string(main_level), "AI " + lvl, "", 2});
  }
  t.columns.push_back({to_string(main_level) + "_gb_per_s", lvl + " GB/s", "", 1});
  t.columns.push_back({"bound", "Bound"});
  t.columns.push_back({"pct_of_roof", "Roof %", "", 1});
  if (occupancy)
    t.columns.push_back({"occupancy_achieved_pct", "Occ %", "", 0});
  t.columns.push_back({"flag", "Flag"});
  const auto labels = kernel_labels(r, 28);
  for (std::size_t i = 0; i < r.kernels.size(); ++i) {
    const kernel_result& k = r.kernels[i];
    const kernel_placement& p = placements[i];
    const level_point* lp = find_level(p, main_level);
    std::vector<cell> row{ascii_label(labels[i]), positive_or_empty(k.time.median_s, 1e6)};
    if (flops) {
      row.push_back(p.has_flops ? maybe(p.achieved_flops, 1e-9) : cell(std::monostate{}));
      row.push_back(lp && p.has_flops ? maybe(lp->intensity) : cell(std::monostate{}));
    }
    row.push_back(lp ? positive_or_empty(lp->achieved_bandwidth, 1e-9) : cell(std::monostate{}));
    row.push_back(compact_bound(p.bound_label.empty() ? p.bound : p.bound_label));
    row.push_back(p.bound == "unknown" ? cell(std::monostate{}) : maybe(p.pct_of_roof));
    if (occupancy)
      row.push_back(k.occupancy_achieved ? maybe(*k.occupancy_achieved, 100)
                                         : cell(std::monostate{}));
    // One flag in full; two joined with "+" and "overhead" as "ovh", so that the column stays
    // within 12 characters and the table within 120 columns.
    std::vector<std::string> flags;
    if (k.status != "ok")
      flags.emplace_back("FAILED");
    if (k.overhead_dominated)
      flags.emplace_back("overhead");
    if (!p.has_flops && k.status == "ok")
      flags.emplace_back("no FLOPs");
    std::string flag;
    for (const auto& f : flags)
      flag += (flag.empty() ? "" : "+") + (flags.size() > 1 && f == "overhead" ? "ovh" : f);
    row.push_back(flag);
    t.rows.push_back(std::move(row));
    t.highlight.push_back(k.status != "ok");
  }
  t.notes.push_back(wrapped(
      fmt::format(
          "Bound: the roof that allows the least time; Roof %: achieved / attainable; "
          "AI: FLOP per byte at {}; Occ: achieved occupancy. Flag: FAILED (verification "
          "or error), overhead (ovh beside another flag: launch overhead dominates the time, "
          "the rates are bounds), no FLOPs (placed on bandwidth only).{}",
          lvl, wide_hint.empty() ? "" : " " + wide_hint),
      narrow_width));
  return t;
}

table narrow_ceilings_table(const table& wide) {
  table t = wide;
  // Drop the method (the wide table and the JSON keep it).
  for (std::size_t i = 0; i < t.columns.size(); ++i)
    if (t.columns[i].key == "method") {
      t.columns.erase(t.columns.begin() + static_cast<std::ptrdiff_t>(i));
      for (auto& row : t.rows)
        if (i < row.size())
          row.erase(row.begin() + static_cast<std::ptrdiff_t>(i));
      --i;
    }
  for (auto& c : t.columns) {
    if (c.key.rfind("ridge_", 0) == 0) {
      c.header = c.header == "Ridge L1/shared" ? "Ridge L1" : c.header;
      c.unit.clear();
    }
    if (c.key == "sm_clock_mhz" || c.key == "mem_clock_mhz") {
      c.header = c.key == "sm_clock_mhz" ? "SM MHz" : "Mem MHz";
      c.unit.clear();
    }
  }
  t.notes.push_back(
      "Ridge: the intensity (FLOP/byte) at which a compute roof meets a memory roof.");
  for (auto& n : t.notes)
    n = wrapped(n, narrow_width);
  return t;
}

table narrow_context_table(const table& wide) {
  table t = wide;
  // "| key | value |": the value gets what the widest key leaves of the 120 columns.
  std::size_t key_w = t.columns.front().header.size();
  for (const auto& row : t.rows)
    if (const auto* k = std::get_if<std::string>(&row.front()))
      key_w = std::max(key_w, k->size());
  const std::size_t value_w = narrow_width > key_w + 27 ? narrow_width - key_w - 7 : 20;
  for (auto& row : t.rows)
    if (row.size() == 2)
      if (const auto* v = std::get_if<std::string>(&row[1]); v && v->size() > value_w)
        row[1] = v->substr(0, value_w - 3) + "...";
  return t;
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
  for (const auto& note : c.notes)
    add("note", note);
  add("host", c.host);
  add("gpu_uuid", c.gpu_uuid);
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
  std::string unconfirmed;
  for (const auto& c : r.ceilings)
    if (c.method.find("[unconfirmed") != std::string::npos)
      unconfirmed +=
          (unconfirmed.empty() ? "" : ", ") + (c.is_memory ? label(c.level) : label(c.prec));
  if (!unconfirmed.empty())
    t.notes.push_back("UNCONFIRMED: " + unconfirmed +
                      " rest on datasheet values no primary source confirms (data/gpus.json)");
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
  t.columns.push_back({"why", "Why"});
  t.columns.push_back({"note", "Note"});
  t.columns.push_back({"display_name", "Label"});

  const auto labels = kernel_labels(r);
  const auto diagnoses = diagnose_run(r, placements);
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
        const level_point* lp = find_level(p, l);
        row.push_back(lp && p.has_flops ? maybe(lp->intensity) : cell(std::monostate{}));
      }
    for (memory_level l : levels) {
      const level_point* lp = find_level(p, l);
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
    row.push_back(diagnoses[i] ? diagnoses[i]->limiter : std::string());
    row.push_back(kernel_note(k, p));
    row.push_back(labels[i]);
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
    const std::size_t width = options.wide ? std::string::npos : narrow_width;
    out << wrapped("**" + provenance_line(r, options.recorded) + ".**", width) << "\n\n";
    std::string clocks = clocks_line(r) + ".";
    if (!options.source_name.empty())
      clocks += " File: " + options.source_name + ".";
    out << wrapped(clocks, width) << "\n\n";
    if (auto it = r.context.extra.find("roofs"); it != r.context.extra.end())
      out << wrapped("Roofs: " + it->second + ".", width) << "\n\n";
    if (auto it = r.context.extra.find("note"); it != r.context.extra.end())
      out << wrapped("Note: " + it->second, width) << "\n\n";
    for (const auto& note : r.context.notes)
      out << wrapped("Note: " + note + ".", width) << "\n\n";
    if (wanted("ceilings"))
      printer->print(options.wide ? ceilings_table(r) : narrow_ceilings_table(ceilings_table(r)));
    if (wanted("kernels")) {
      const auto placements = analyze(r);
      printer->print(options.wide ? kernels_table(r, placements)
                                  : narrow_kernels_table(r, placements, options.wide_hint));
    }
    if (wanted("kernels")) {
      out << diagnosis_section(r, options.wide ? std::string::npos : narrow_width);
    }
    for (const auto& t : which == "all" ? options.extra_tables : std::vector<table>{})
      printer->print(t);
    if (wanted("context"))
      printer->print(options.wide ? context_table(r, options.recorded)
                                  : narrow_context_table(context_table(r, options.recorded)));
  } else {
    if (wanted("context"))
      printer->print(context_table(r, options.recorded));
    if (wanted("ceilings"))
      printer->print(ceilings_table(r));
    if (wanted("kernels"))
      printer->print(kernels_table(r, analyze(r)));
    for (const auto& t : which == "all" ? options.extra_tables : std::vector<table>{})
      printer->print(t);
  }
  printer->finish();
}

} // namespace roofkit
