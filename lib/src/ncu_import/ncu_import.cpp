// Builds a run from `ncu --csv --page raw` output (see docs/roofline-model.md, "Nsight Compute
// import", for the metrics and conventions).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "internal/csv.hpp"
#include "roofkit/core.hpp"
#include "roofkit/ncu_import.hpp"

namespace roofkit {

namespace {

// Columns of the raw page that describe the launch rather than hold a metric.
const std::set<std::string> identity_columns = {
    "ID",     "Process ID", "Process Name", "Host Name", "Kernel Name", "Kernel Time", "Context",
    "Stream", "Block Size", "Grid Size",    "Device",    "CC",          "Section Name"};

const char* time_metric = "gpu__time_duration.sum";
const char* sm_clock_metric = "sm__cycles_elapsed.avg.per_second";
const char* dram_clock_metric = "dram__cycles_elapsed.avg.per_second";
const char* tensor_prefix = "sm__ops_path_tensor_src_";

/// An FP instruction counter and the FLOPs one thread instruction counts for.
struct flop_op {
  const char* op;
  precision prec;
  double flops;        // per thread instruction
  double scalar_flops; // with half2_packed = false
};

constexpr std::array<flop_op, 9> flop_ops{{
    {"dadd", precision::fp64, 1, 1},
    {"dmul", precision::fp64, 1, 1},
    {"dfma", precision::fp64, 2, 2},
    {"fadd", precision::fp32, 1, 1},
    {"fmul", precision::fp32, 1, 1},
    {"ffma", precision::fp32, 2, 2},
    {"hadd", precision::fp16, 2, 1},
    {"hmul", precision::fp16, 2, 1},
    {"hfma", precision::fp16, 4, 2},
}};

std::string op_metric(const char* unit_prefix, const char* op) {
  return fmt::format("{}__sass_thread_inst_executed_op_{}_pred_on.sum", unit_prefix, op);
}

/// One launch: its identity columns and its metrics in base units.
struct launch_row {
  int line = 0;
  std::map<std::string, std::string> ids;
  std::map<std::string, double> metrics;
  std::map<std::string, std::string> texts;

  std::optional<double> get(const std::string& name) const {
    auto it = metrics.find(name);
    return it == metrics.end() ? std::nullopt : std::optional<double>(it->second);
  }
  std::string id(const std::string& column) const {
    auto it = ids.find(column);
    return it == ids.end() ? std::string() : it->second;
  }
};

double seconds_of(const launch_row& row) {
  if (auto t = row.get(time_metric))
    return *t;
  if (auto t = row.get("gpu__time_duration.avg"))
    return *t;
  auto cycles = row.get("sm__cycles_elapsed.avg");
  auto rate = row.get(sm_clock_metric);
  if (cycles && rate && *rate > 0)
    return *cycles / *rate;
  return 0;
}

/// Cycles elapsed in the kernel on the clock of the unit that counts `metric` ("smsp__..." ->
/// smsp__cycles_elapsed.avg): the count itself, or its rate times the kernel time; the SM's
/// cycles when the unit's are missing (SM and SMSP share a clock).
std::optional<double> elapsed_cycles(const launch_row& row, const std::string& metric,
                                     double time) {
  std::vector<std::string> units;
  if (auto pos = metric.find("__"); pos != std::string::npos)
    units.push_back(metric.substr(0, pos));
  for (const char* u : {"sm", "smsp"})
    units.emplace_back(u);
  for (const auto& unit : units) {
    if (auto c = row.get(unit + "__cycles_elapsed.avg"))
      return c;
    if (auto rate = row.get(unit + "__cycles_elapsed.avg.per_second"); rate && time > 0)
      return *rate * time;
  }
  return std::nullopt;
}

/// A `.sum` amount in whichever form the export has it: `.sum`, its `.sum.per_second` rate
/// times the kernel time, or its `.sum.per_cycle_elapsed` rate times the elapsed cycles (ncu's
/// roofline sections collect that form).
std::optional<double> amount(const launch_row& row, const std::string& sum_metric, double time) {
  if (auto v = row.get(sum_metric))
    return v;
  if (auto rate = row.get(sum_metric + ".per_second"); rate && time > 0)
    return *rate * time;
  if (auto rate = row.get(sum_metric + ".per_cycle_elapsed"))
    if (auto cycles = elapsed_cycles(row, sum_metric, time))
      return *rate * *cycles;
  return std::nullopt;
}

std::optional<precision> tensor_precision(const std::string& family) {
  if (family.find("fp16") != std::string::npos || family.find("bf16") != std::string::npos)
    return precision::tensor_fp16;
  if (family.find("tf32") != std::string::npos)
    return precision::tensor_tf32;
  if (family.find("fp8") != std::string::npos)
    return precision::tensor_fp8;
  if (family.find("fp64") != std::string::npos)
    return precision::tensor_fp64;
  if (family.find("int8") != std::string::npos)
    return precision::tensor_int8;
  return std::nullopt;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

const std::string sparsity_off = "_sparsity_off";
const std::string sparsity_on = "_sparsity_on";

/// One tensor path of the export: its dense work (the `_sparsity_off` counter when the export
/// has it, else the family's own counter) and its sparse work (`_sparsity_on`), kept apart.
struct tensor_family {
  std::string base;                  ///< "sm__ops_path_tensor_src_bf16_dst_fp32"
  std::string dense;                 ///< metric counting dense ops
  std::optional<std::string> sparse; ///< metric counting sparse ops, when present
  precision prec = precision::tensor_fp16;
};

/// Tensor metric families present (a family is named by any form of its .sum: .sum,
/// .sum.per_second, .sum.per_cycle_elapsed). A family whose summary family is also present is
/// dropped (no double counting of "src_fp8" and "src_fp8_dst_fp32").
std::vector<tensor_family> tensor_families(const std::vector<std::string>& metric_columns) {
  std::set<std::string> names;
  for (const auto& name : metric_columns) {
    if (name.rfind(tensor_prefix, 0) != 0)
      continue;
    for (const char* suffix : {".sum.per_cycle_elapsed", ".sum.per_second", ".sum"})
      if (ends_with(name, suffix)) {
        names.insert(name.substr(0, name.size() - std::string(suffix).size()));
        break;
      }
  }
  std::set<std::string> bases;
  for (const auto& n : names) {
    if (ends_with(n, sparsity_off))
      bases.insert(n.substr(0, n.size() - sparsity_off.size()));
    else if (ends_with(n, sparsity_on))
      bases.insert(n.substr(0, n.size() - sparsity_on.size()));
    else
      bases.insert(n);
  }
  std::vector<tensor_family> out;
  for (const auto& b : bases) {
    const bool covered = std::any_of(bases.begin(), bases.end(), [&b](const auto& g) {
      return g != b && b.rfind(g + "_", 0) == 0;
    });
    const auto p = tensor_precision(b);
    if (covered || !p)
      continue;
    tensor_family f;
    f.base = b;
    f.prec = *p;
    f.dense = names.count(b + sparsity_off) ? b + sparsity_off : b;
    if (names.count(b + sparsity_on))
      f.sparse = b + sparsity_on;
    out.push_back(std::move(f));
  }
  return out;
}

struct launch_work {
  double time = 0;
  std::map<precision, double> flops;
  std::map<precision, double> sparse_ops; ///< tensor ops with sparsity on: not placed
  std::map<memory_level, double> bytes;
};

/// An amount that ncu's hierarchical roofline scales from a cycle or writeback count: the first
/// of `metrics` present, times its factor.
std::optional<double> scaled_amount(const launch_row& row,
                                    const std::vector<std::pair<std::string, double>>& metrics,
                                    double time) {
  for (const auto& [metric, factor] : metrics)
    if (auto v = amount(row, metric, time))
      return *v * factor;
  return std::nullopt;
}

// Bytes per level, in ncu's hierarchical-roofline definitions first (CC 9.0+: L1 = 128 B per
// LSU writeback cycle of global, local, and shared traffic; L2 = 32 B per L2-to-crossbar active
// cycle), then the t_bytes counters of older exports.
const std::vector<std::pair<std::string, double>> l1_byte_metrics = {
    {"l1tex__lsu_writeback_active_mem_lgds.sum", 128},
    {"l1tex__t_bytes.sum", 1},
};
const std::vector<std::pair<std::string, double>> l2_byte_metrics = {
    {"lts__lts2xbar_cycles_active.sum", 32},
    {"lts__t_bytes.sum", 1},
};

launch_work work_of(const launch_row& row, const std::vector<tensor_family>& tensor,
                    const ncu_import_options& options) {
  launch_work w;
  w.time = seconds_of(row);
  std::map<precision, bool> seen;
  for (const auto& op : flop_ops) {
    std::optional<double> count = amount(row, op_metric("smsp", op.op), w.time);
    if (!count)
      count = amount(row, op_metric("sm", op.op), w.time);
    if (!count)
      continue;
    w.flops[op.prec] += *count * (options.half2_packed ? op.flops : op.scalar_flops);
  }
  for (const auto& family : tensor) {
    if (auto ops = amount(row, family.dense + ".sum", w.time))
      w.flops[family.prec] += *ops;
    if (family.sparse)
      if (auto ops = amount(row, *family.sparse + ".sum", w.time); ops && *ops > 0)
        w.sparse_ops[family.prec] += *ops;
  }
  for (auto it = w.flops.begin(); it != w.flops.end();)
    it = it->second > 0 ? std::next(it) : w.flops.erase(it);

  std::optional<double> dram = amount(row, "dram__bytes.sum", w.time);
  if (!dram) {
    auto rd = amount(row, "dram__bytes_read.sum", w.time);
    auto wr = amount(row, "dram__bytes_write.sum", w.time);
    if (rd || wr)
      dram = rd.value_or(0) + wr.value_or(0);
  }
  if (dram && *dram > 0)
    w.bytes[memory_level::dram] = *dram;
  if (auto l2 = scaled_amount(row, l2_byte_metrics, w.time); l2 && *l2 > 0)
    w.bytes[memory_level::l2] = *l2;
  if (auto l1 = scaled_amount(row, l1_byte_metrics, w.time); l1 && *l1 > 0)
    w.bytes[memory_level::l1] = *l1;
  return w;
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v)
    s += x;
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}

/// "(256, 1, 1)" -> {256, 1, 1}; nullopt when it is not three numbers.
std::optional<std::array<std::uint32_t, 3>> parse_dims(const std::string& text) {
  unsigned x = 0;
  unsigned y = 0;
  unsigned z = 0;
  if (std::sscanf(text.c_str(), " ( %u , %u , %u )", &x, &y, &z) == 3)
    return std::array<std::uint32_t, 3>{x, y, z};
  return std::nullopt;
}

std::uint32_t as_count(std::optional<double> v) {
  return v && *v > 0 ? static_cast<std::uint32_t>(std::llround(*v)) : 0;
}

/// Compute and memory peaks from `.peak_sustained` metrics times the measured clocks. Tensor
/// roofs are dense: a family's `_sparsity_off` peak, or half its own peak, which counts sparse
/// operations (2x dense).
std::vector<ceiling> ceilings_of(const std::vector<launch_row>& rows,
                                 const std::vector<tensor_family>& tensor,
                                 const ncu_import_options& options) {
  using scaled = std::pair<std::string, double>; // a per-cycle peak and its factor
  struct peak_rule {
    bool is_memory;
    precision prec;
    memory_level level;
    std::vector<scaled> per_cycle; // first present wins
    std::vector<std::string> clocks;
  };
  std::vector<peak_rule> rules;
  const double half_fma = options.half2_packed ? 4 : 2;
  const std::vector<std::string> sm_clock = {sm_clock_metric};
  auto fma_peak = [](const char* op, double factor) {
    return std::vector<scaled>{{op_metric("smsp", op) + ".peak_sustained", factor},
                               {op_metric("sm", op) + ".peak_sustained", factor}};
  };
  rules.push_back({false, precision::fp64, memory_level::dram, fma_peak("dfma", 2), sm_clock});
  rules.push_back({false, precision::fp32, memory_level::dram, fma_peak("ffma", 2), sm_clock});
  rules.push_back(
      {false, precision::fp16, memory_level::dram, fma_peak("hfma", half_fma), sm_clock});
  for (const auto& f : tensor) {
    std::vector<scaled> peaks;
    if (f.dense != f.base)
      peaks.emplace_back(f.dense + ".sum.peak_sustained", 1);
    peaks.emplace_back(f.base + ".sum.peak_sustained", 0.5);
    rules.push_back({false, f.prec, memory_level::dram, peaks, sm_clock});
  }
  rules.push_back({true,
                   precision::fp32,
                   memory_level::dram,
                   {{"dram__bytes.sum.peak_sustained", 1}},
                   {dram_clock_metric}});
  rules.push_back({true,
                   precision::fp32,
                   memory_level::l2,
                   {{"lts__lts2xbar_cycles_active.sum.peak_sustained", 32},
                    {"lts__t_bytes.sum.peak_sustained", 1}},
                   {"lts__cycles_elapsed.avg.per_second"}});
  rules.push_back({true,
                   precision::fp32,
                   memory_level::l1,
                   {{"l1tex__lsu_writeback_active_mem_lgds.sum.peak_sustained", 128},
                    {"l1tex__t_bytes.sum.peak_sustained", 1}},
                   {"l1tex__cycles_elapsed.avg.per_second", sm_clock_metric}});

  std::vector<double> sm_hz;
  std::vector<double> dram_hz;
  for (const auto& row : rows) {
    if (auto v = row.get(sm_clock_metric))
      sm_hz.push_back(*v);
    if (auto v = row.get(dram_clock_metric))
      dram_hz.push_back(*v);
  }
  std::vector<ceiling> out;
  std::set<precision> precisions_done;
  for (const auto& rule : rules) {
    std::vector<double> values;
    std::string used;
    std::string used_clock;
    double used_factor = 1;
    for (const auto& row : rows) {
      std::optional<double> clock;
      for (const auto& name : rule.clocks)
        if ((clock = row.get(name))) {
          used_clock = name;
          break;
        }
      for (const auto& [metric, factor] : rule.per_cycle) {
        auto per_cycle = row.get(metric);
        if (per_cycle && clock && *per_cycle > 0 && *clock > 0) {
          values.push_back(*per_cycle * factor * *clock);
          used = metric;
          used_factor = factor;
          break;
        }
      }
    }
    if (values.empty())
      continue;
    if (!rule.is_memory && !precisions_done.insert(rule.prec).second) {
      // Two tensor families of one precision (fp16 and bf16): keep the higher peak.
      for (auto& c : out)
        if (!c.is_memory && c.prec == rule.prec)
          c.value = std::max(c.value, median_of(values));
      continue;
    }
    ceiling c;
    c.is_memory = rule.is_memory;
    c.prec = rule.prec;
    c.level = rule.level;
    c.value = median_of(values);
    c.source = ceiling_source::theoretical;
    c.sm_clock_mhz = median_of(sm_hz) / 1e6;
    c.mem_clock_mhz = median_of(dram_hz) / 1e6;
    c.method = fmt::format("ncu {} x {}{}", used, used_clock,
                           used_factor != 1 ? fmt::format(" x {}", used_factor) : "");
    if (!rule.is_memory && rule.prec >= precision::tensor_fp64 && used_factor == 0.5)
      c.method += " (dense: half the peak, which counts sparse operations)";
    out.push_back(std::move(c));
  }
  return out;
}

/// Finds the header row: a line starting with "ID" that has a "Kernel Name" column.
std::size_t header_offset(std::string_view text, int& line) {
  std::size_t pos = 0;
  line = 1;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos)
      end = text.size();
    const std::string_view l = text.substr(pos, end - pos);
    if (l.rfind("\"ID\",", 0) == 0 && l.find("\"Kernel Name\"") != std::string_view::npos)
      return pos;
    pos = end + 1;
    ++line;
  }
  return std::string_view::npos;
}

} // namespace

std::vector<std::string> ncu_roofline_metrics() {
  std::vector<std::string> m = {time_metric, sm_clock_metric, dram_clock_metric,
                                "lts__cycles_elapsed.avg.per_second",
                                "l1tex__cycles_elapsed.avg.per_second"};
  for (const auto& op : flop_ops)
    m.push_back(op_metric("smsp", op.op));
  for (const char* op : {"dfma", "ffma", "hfma"})
    m.push_back(op_metric("smsp", op) + ".peak_sustained");
  for (const char* name :
       {"dram__bytes.sum", "dram__bytes.sum.peak_sustained", "lts__t_bytes.sum",
        "lts__t_bytes.sum.peak_sustained", "l1tex__t_bytes.sum",
        "l1tex__t_bytes.sum.peak_sustained", "sm__warps_active.avg.pct_of_peak_sustained_active",
        "sm__maximum_warps_per_active_cycle_pct", "launch__registers_per_thread",
        "device__attribute_display_name", "device__attribute_multiprocessor_count"})
    m.emplace_back(name);
  return m;
}

namespace {

/// A usage error about the CSV `source`.
error import_error(const std::string& source, const std::string& what) {
  return usage_error(fmt::format("'{}': {}", source, what));
}

/// Checks that the header has a kernel time and at least one roofline metric.
void check_columns(const std::vector<std::string>& header,
                   const std::vector<std::string>& metric_columns,
                   const std::vector<tensor_family>& tensor, const std::string& source) {
  const auto has_column = [&header](const std::string& name) {
    return std::find(header.begin(), header.end(), name) != header.end();
  };
  if (!has_column(time_metric) && !has_column("gpu__time_duration.avg") &&
      !(has_column("sm__cycles_elapsed.avg") && has_column(sm_clock_metric)))
    throw import_error(source, fmt::format("no kernel time: the CSV has no '{}' column (collect "
                                           "it with ncu --metrics {})",
                                           time_metric, time_metric));
  const bool has_work =
      !tensor.empty() ||
      std::any_of(metric_columns.begin(), metric_columns.end(), [](const std::string& name) {
        return name.find("sass_thread_inst_executed_op_") != std::string::npos ||
               name.rfind("dram__bytes", 0) == 0 || name.rfind("lts__t_bytes.sum", 0) == 0 ||
               name.rfind("l1tex__t_bytes.sum", 0) == 0;
      });
  if (!has_work)
    throw import_error(source, "the CSV has none of the roofline metrics (FLOP counters "
                               "smsp__sass_thread_inst_executed_op_*_pred_on.sum, dram__bytes.sum, "
                               "lts__t_bytes.sum, l1tex__t_bytes.sum); see docs/roofline-model.md");
}

/// The launch rows after the header (and the units row, when there is one).
std::vector<launch_row> read_launch_rows(const std::vector<detail::csv_record>& records,
                                         const std::string& source) {
  const auto& header = records.front().fields;
  std::vector<std::string> units(header.size());
  std::size_t next = 1;
  const std::size_t id_col = 0;
  if (records.size() > 1 && records[1].fields.size() == header.size() &&
      records[1].fields[id_col].empty()) {
    units = records[1].fields;
    next = 2;
  }

  std::vector<launch_row> rows;
  for (std::size_t r = next; r < records.size(); ++r) {
    const auto& rec = records[r];
    if (rec.fields[0].rfind("==", 0) == 0 || (rec.fields.size() == 1 && header.size() > 1))
      continue; // ==PROF== lines and program output after the table
    if (rec.fields.size() != header.size())
      throw import_error(source, fmt::format("line {}: {} fields, the header has {}", rec.line,
                                             rec.fields.size(), header.size()));
    launch_row row;
    row.line = rec.line;
    for (std::size_t c = 0; c < header.size(); ++c) {
      const std::string& name = header[c];
      const std::string& value = rec.fields[c];
      if (identity_columns.count(name)) {
        row.ids[name] = value;
        continue;
      }
      if (auto v = ncu_value(value, units[c]))
        row.metrics[name] = *v;
      else if (!value.empty() && value != "n/a")
        row.texts[name] = value;
    }
    rows.push_back(std::move(row));
  }
  if (rows.empty())
    throw import_error(source, "the CSV has a header but no kernel rows");
  return rows;
}

/// One kernel from the launches of one name and launch configuration: times, work and counters
/// over the launches; `name` is its name in the run.
kernel_result kernel_of_launches(const std::vector<const launch_row*>& launches, std::string name,
                                 const std::vector<tensor_family>& tensor,
                                 const ncu_import_options& options, const std::string& source) {
  const launch_row& first = *launches.front();
  kernel_result k;
  k.name = std::move(name);
  k.source = work_source::imported;

  std::vector<double> times;
  std::map<precision, std::vector<double>> flops;
  std::map<memory_level, std::vector<double>> bytes;
  std::map<std::string, std::vector<double>> counters;
  std::map<precision, std::vector<double>> sparse;
  std::vector<double> occ_achieved;
  std::vector<double> occ_theoretical;
  std::vector<double> sm_hz;
  std::vector<double> dram_hz;
  for (const launch_row* row : launches) {
    const launch_work w = work_of(*row, tensor, options);
    if (!(w.time > 0))
      throw import_error(source, fmt::format("line {}: kernel '{}' has no value for {}", row->line,
                                             k.name, time_metric));
    times.push_back(w.time);
    for (const auto& [p, f] : w.flops)
      flops[p].push_back(f);
    for (const auto& [l, b] : w.bytes)
      bytes[l].push_back(b);
    for (const auto& [p, ops] : w.sparse_ops)
      sparse[p].push_back(ops);
    if (auto v = row->get(sm_clock_metric))
      sm_hz.push_back(*v);
    if (auto v = row->get(dram_clock_metric))
      dram_hz.push_back(*v);
    for (const auto& [metric, v] : row->metrics)
      counters[metric].push_back(v);
    if (auto v = row->get("sm__warps_active.avg.pct_of_peak_sustained_active"))
      occ_achieved.push_back(*v / 100);
    if (auto v = row->get("sm__maximum_warps_per_active_cycle_pct"))
      occ_theoretical.push_back(*v / 100);
  }
  k.time.median_s = median_of(times);
  k.time.min_s = *std::min_element(times.begin(), times.end());
  k.time.max_s = *std::max_element(times.begin(), times.end());
  k.time.repetitions = static_cast<int>(times.size());
  for (const auto& [p, v] : flops)
    k.flops[p] = mean(v);
  for (const auto& [l, v] : bytes)
    k.bytes[l] = mean(v);
  for (const auto& [metric, v] : counters)
    k.counters[metric] = mean(v);
  // Sparse tensor work is not comparable with a dense roof: kept beside, not placed.
  for (const auto& [p, v] : sparse)
    k.counters["roofkit__sparse_tensor_ops_" + to_string(p)] = mean(v);
  // Each kernel is compared with roofs at the clocks it ran at.
  if (!sm_hz.empty())
    k.sm_clock_mhz = mean(sm_hz) / 1e6;
  if (!dram_hz.empty())
    k.mem_clock_mhz = mean(dram_hz) / 1e6;
  if (!occ_achieved.empty())
    k.occupancy_achieved = mean(occ_achieved);
  if (!occ_theoretical.empty())
    k.occupancy_theoretical = mean(occ_theoretical);

  if (auto d = parse_dims(first.id("Grid Size")))
    k.launch.grid = *d;
  else if (auto g = first.get("launch__grid_size"))
    k.launch.grid = {as_count(g), 1, 1};
  if (auto d = parse_dims(first.id("Block Size")))
    k.launch.block = *d;
  else if (auto b = first.get("launch__block_size"))
    k.launch.block = {as_count(b), 1, 1};
  k.launch.registers_per_thread = as_count(first.get("launch__registers_per_thread"));
  k.launch.static_smem_bytes = as_count(first.get("launch__shared_mem_per_block_static"));
  k.launch.dynamic_smem_bytes = as_count(first.get("launch__shared_mem_per_block_dynamic"));
  return k;
}

/// The kernels of the run: launches of one kernel with one launch configuration are grouped, in
/// order of first appearance; a kernel launched with several configurations gets one per
/// configuration, named with its grid and block.
std::vector<kernel_result> kernels_of_rows(const std::vector<launch_row>& rows,
                                           const std::vector<tensor_family>& tensor,
                                           const ncu_import_options& options,
                                           const std::string& source) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const launch_row*>> groups;
  std::map<std::string, std::set<std::string>> configs_per_name;
  for (const auto& row : rows) {
    const std::string name = row.id("Kernel Name");
    const std::string config = row.id("Grid Size") + " " + row.id("Block Size");
    const std::string key = name + '\x1f' + config;
    if (!groups.count(key))
      order.push_back(key);
    groups[key].push_back(&row);
    configs_per_name[name].insert(config);
  }

  std::vector<kernel_result> kernels;
  for (const auto& key : order) {
    const auto& launches = groups[key];
    const launch_row& first = *launches.front();
    std::string name = first.id("Kernel Name");
    if (name.empty())
      name = "kernel " + first.id("ID");
    if (configs_per_name[first.id("Kernel Name")].size() > 1)
      name += fmt::format(" [grid {} block {}]", first.id("Grid Size"), first.id("Block Size"));
    kernels.push_back(kernel_of_launches(launches, std::move(name), tensor, options, source));
  }
  return kernels;
}

/// The run's context: the device and host of the first row, the median clocks over all rows.
void fill_context(run_context& c, const std::vector<launch_row>& rows, const std::string& source,
                  const ncu_import_options& options) {
  c.origin = run_origin::imported;
  c.tool_version = std::string(tool_version());
  c.git_revision = std::string(git_revision());
  const launch_row& first = rows.front();
  if (auto it = first.texts.find("device__attribute_display_name"); it != first.texts.end())
    c.device_name = it->second;
  c.host = first.id("Host Name");
  if (unsigned major = 0, minor = 0;
      std::sscanf(first.id("CC").c_str(), "%u.%u", &major, &minor) == 2) {
    c.cc_major = static_cast<int>(major);
    c.cc_minor = static_cast<int>(minor);
  }
  c.sm_count = static_cast<int>(as_count(first.get("device__attribute_multiprocessor_count")));
  std::vector<double> sm_hz;
  std::vector<double> dram_hz;
  for (const auto& row : rows) {
    if (auto v = row.get(sm_clock_metric))
      sm_hz.push_back(*v);
    if (auto v = row.get(dram_clock_metric))
      dram_hz.push_back(*v);
  }
  c.sm_clock_mhz = median_of(sm_hz) / 1e6;
  c.mem_clock_mhz = median_of(dram_hz) / 1e6;
  c.extra["imported_from"] = source;
  c.extra["fp16_convention"] = options.half2_packed
                                   ? "half2 packed: HADD, HMUL = 2 FLOPs, HFMA = 4 (ncu)"
                                   : "scalar: HADD, HMUL = 1 FLOP, HFMA = 2 (NERSC)";
}

} // namespace

run import_ncu_csv(std::string_view text, const std::string& source,
                   const ncu_import_options& options) {
  int first_line = 1;
  const std::size_t start = header_offset(text, first_line);
  if (start == std::string_view::npos)
    throw import_error(source,
                       "not an ncu CSV export: no header row starting with \"ID\" and naming "
                       "\"Kernel Name\" (export with: ncu --csv --page raw --metrics ...)");
  const auto records = detail::read_csv(text.substr(start), first_line);
  const auto& header = records.front().fields;
  std::vector<std::string> metric_columns;
  for (const auto& h : header)
    if (!identity_columns.count(h))
      metric_columns.push_back(h);
  const auto tensor = tensor_families(metric_columns);
  check_columns(header, metric_columns, tensor, source);
  const std::vector<launch_row> rows = read_launch_rows(records, source);

  run result;
  result.kernels = kernels_of_rows(rows, tensor, options, source);
  fill_context(result.context, rows, source, options);
  result.ceilings = ceilings_of(rows, tensor, options);
  if (result.ceilings.empty())
    result.context.extra["ceilings"] = "none in the CSV (no *.peak_sustained metrics)";
  return result;
}

run import_ncu_csv_file(const std::filesystem::path& path, const ncu_import_options& options) {
  return import_ncu_csv(read_text_file(path), path.string(), options);
}

} // namespace roofkit
