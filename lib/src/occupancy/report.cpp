// Report tables of occupancy results.
#include <algorithm>
#include <cmath>
#include <ostream>
#include <variant>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "internal/cell_json.hpp"
#include "internal/text_util.hpp"
#include "roofkit/core.hpp"
#include "roofkit/occupancy.hpp"

// GCC 12 reports a false "maybe uninitialized" for std::variant<std::string, ...> copied out of
// braced row lists (GCC bug 105593 family).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace roofkit {

using detail::percent;

namespace {

cell num(std::int64_t v) { return v; }
cell real(double v) { return v; }
cell text(std::string v) { return v; }
cell flag(bool v) { return v; }
cell limit_cell(int v) { return v == unlimited_blocks ? cell{} : cell{std::int64_t{v}}; }

std::string carveout_text(int carveout) {
  return carveout == carveout_default ? "default (max shared)" : fmt::format("{}%", carveout);
}

table record(std::string id, std::string title) {
  table t;
  t.id = std::move(id);
  t.title = std::move(title);
  t.rows.emplace_back();
  return t;
}

void field(table& t, std::string key, std::string header, cell value, std::string unit = {},
           int decimals = 2) {
  t.columns.push_back({std::move(key), std::move(header), std::move(unit), decimals});
  t.rows.front().push_back(std::move(value));
}

table transpose(const table& t) {
  table out;
  out.id = t.id;
  out.title = t.title;
  out.notes = t.notes;
  out.columns = {{"field", "Field"}, {"value", "Value"}};
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    const auto& col = t.columns[i];
    const cell& c = t.rows.empty() || i >= t.rows.front().size() ? cell{} : t.rows.front()[i];
    std::string value = to_text(c);
    if (const auto* d = std::get_if<double>(&c))
      value = fmt::format("{:.{}f}", *d, std::max(col.decimals, 0));
    if (!col.unit.empty() && !value.empty())
      value += " " + col.unit;
    out.rows.push_back({col.header, value});
    out.highlight.push_back(col.key == "limiters" || col.key == "occupancy");
  }
  return out;
}

table target_table(const occupancy_target& t) {
  table r = record("target", "Target");
  field(r, "arch", "Architecture", text(t.arch->id()));
  field(r, "compute_capability", "Compute capability", text(t.arch->cc()));
  field(r, "family", "Family", text(t.arch->family));
  field(r, "gpu", "GPU", t.gpu_name.empty() ? cell{} : text(t.gpu_name));
  field(r, "sm_count", "SMs", t.sm_count > 0 ? num(t.sm_count) : cell{});
  field(r, "origin", "Described by", text(t.origin));
  return r;
}

table launch_table(const launch_params& l) {
  table r = record("launch", "Launch");
  field(r, "threads", "Threads per block", num(l.threads_per_block));
  field(r, "regs", "Registers per thread", num(l.registers_per_thread));
  field(r, "smem_static", "Static shared memory", num(l.static_smem), "B");
  field(r, "smem_dynamic", "Dynamic shared memory", num(l.dynamic_smem), "B");
  field(r, "carveout", "Carveout (%, -1 = default)", num(l.carveout));
  field(r, "barriers", "Block barriers", num(l.barriers));
  return r;
}

} // namespace

std::string target_name(const occupancy_target& t) {
  std::string name = fmt::format("{} ({}, CC {})", t.arch->id(), t.arch->family, t.arch->cc());
  if (!t.gpu_name.empty())
    name = t.gpu_name + ", " + name;
  return name;
}

namespace {

nlohmann::json row_json(const table& t, const std::vector<cell>& row) {
  nlohmann::json obj = nlohmann::json::object();
  for (std::size_t i = 0; i < t.columns.size(); ++i)
    obj[t.columns[i].key] = i < row.size() ? detail::cell_to_json(row[i]) : nlohmann::json(nullptr);
  return obj;
}

} // namespace

std::string section_ids(const std::vector<report_section>& sections) {
  std::string ids;
  for (const auto& s : sections)
    ids += (ids.empty() ? "" : ", ") + s.data.id;
  return ids;
}

void print_report(const std::vector<report_section>& sections, output_format format,
                  std::ostream& out, const std::string& only) {
  std::vector<const report_section*> chosen;
  for (const auto& s : sections)
    if (only.empty() ? format != output_format::csv || chosen.empty() : s.data.id == only)
      chosen.push_back(&s);
  if (chosen.empty())
    throw usage_error(
        fmt::format("no table '{}' in this output (valid: {})", only, section_ids(sections)));
  if (format == output_format::json) {
    nlohmann::json doc = nlohmann::json::object();
    doc["schema"] = occupancy_schema;
    for (const auto* s : chosen) {
      if (s->record) {
        doc[s->data.id] = s->data.rows.empty() ? nlohmann::json(nullptr)
                                               : row_json(s->data, s->data.rows.front());
      } else {
        nlohmann::json rows = nlohmann::json::array();
        for (const auto& row : s->data.rows)
          rows.push_back(row_json(s->data, row));
        doc[s->data.id] = std::move(rows);
      }
    }
    out << doc.dump(2) << '\n';
    return;
  }
  auto p = make_printer(format, out);
  for (const auto* s : chosen)
    p->print(format == output_format::markdown && s->record ? transpose(s->data) : s->data);
  p->finish();
}

std::vector<report_section> occupancy_report(const occupancy_target& target, const launch_params& l,
                                             const occupancy_result& r) {
  const arch_spec& a = *target.arch;
  std::vector<report_section> out;
  out.push_back({target_table(target), true});
  out.push_back({launch_table(l), true});

  table occ = record("occupancy", "Occupancy");
  field(occ, "active_blocks_per_sm", "Active blocks per SM", num(r.active_blocks));
  field(occ, "active_warps_per_sm", "Active warps per SM", num(r.active_warps));
  field(occ, "max_warps_per_sm", "Max warps per SM", num(a.max_warps_per_sm));
  field(occ, "occupancy", "Occupancy", real(r.occupancy), {}, 3);
  field(occ, "limiters", "Limited by", text(limiter_names(r.limiters)));
  field(occ, "warps_per_block", "Warps per block", num(r.warps_per_block));
  field(occ, "allocated_registers_per_block", "Registers allocated per block",
        num(r.allocated_registers_per_block));
  field(occ, "allocated_smem_per_block", "Shared memory allocated per block (incl. reserved)",
        num(r.allocated_smem_per_block), "B");
  field(occ, "smem_per_sm", "Shared memory per SM (after carveout)", num(r.smem_per_sm), "B");
  field(occ, "optin_assumed", "Opt-in shared-memory limit assumed", flag(r.optin_assumed));
  field(occ, "reason", "Why no block fits", r.reason.empty() ? cell{} : text(r.reason));
  occ.notes.push_back(fmt::format("Occupancy {} on {}: {} of {} warps per SM, limited by {}.",
                                  percent(r.occupancy), target_name(target), r.active_warps,
                                  a.max_warps_per_sm, limiter_names(r.limiters)));
  if (r.active_blocks == 0)
    occ.notes.push_back("No block fits: " + r.reason + ".");
  if (r.optin_assumed)
    occ.notes.push_back(fmt::format(
        "Static + dynamic shared memory ({} B) exceeds {}: the opt-in limit ({} B) is assumed set "
        "with cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, ...).",
        l.static_smem + l.dynamic_smem, format_bytes(a.shared_memory_per_block),
        a.shared_memory_per_block_optin));
  out.push_back({occ, true});

  table lim;
  lim.id = "limits";
  lim.title = "Block limit of each resource";
  lim.columns = {
      {"resource", "Resource"}, {"used_per_block", "Per block"}, {"available_per_sm", "Per SM"},
      {"unit", "Unit"},         {"block_limit", "Block limit"},  {"limiting", "Limiting"},
      {"detail", "Detail"}};
  auto row = [&](limiter which, cell used, cell avail, std::string unit, std::string detail) {
    lim.rows.push_back({text(std::string(to_string(which))), std::move(used), std::move(avail),
                        text(std::move(unit)), limit_cell(r.limit(which)),
                        flag(r.limited_by(which)), text(std::move(detail))});
    lim.highlight.push_back(r.limited_by(which));
  };
  row(limiter::warps, num(r.warps_per_block), num(a.max_warps_per_sm), "warps",
      fmt::format("{} threads in warps of {}", l.threads_per_block, a.warp_size));
  row(limiter::registers, num(r.allocated_registers_per_block), num(a.registers_per_sm),
      "registers",
      l.registers_per_thread == 0
          ? std::string("register count unknown (0): no limit")
          : fmt::format("{}/thread, allocated {}/warp; {} sub-partitions, max {}/block",
                        l.registers_per_thread,
                        (l.registers_per_thread * a.warp_size + a.register_allocation_unit - 1) /
                            a.register_allocation_unit * a.register_allocation_unit,
                        a.warp_allocation_granularity, a.max_registers_per_block));
  row(limiter::shared_memory, num(r.allocated_smem_per_block), num(r.smem_per_sm), "bytes",
      fmt::format("{} static + {} dynamic + {} reserved, in units of {}; carveout {}",
                  l.static_smem, l.dynamic_smem, a.reserved_shared_memory_per_block,
                  a.shared_memory_allocation_unit, carveout_text(l.carveout)));
  row(limiter::blocks, num(1), num(a.max_blocks_per_sm), "blocks", "block slots per SM");
  row(limiter::barriers, num(l.barriers),
      a.block_barriers_per_sm ? num(a.block_barriers_per_sm) : cell{}, "barriers",
      a.block_barriers_per_sm ? fmt::format("{} barriers per SM", a.block_barriers_per_sm)
                              : std::string("no barrier limit before CC 9.0"));
  lim.notes.push_back("An empty block limit means the resource sets none. Defaults as the CUDA "
                      "runtime: 1 block barrier, carveout -1 (maximum shared memory).");
  out.push_back({lim, false});
  return out;
}

namespace {

// "block_size": the block size with the highest occupancy.
table block_size_table(const occupancy_target& target, const launch_params& launch,
                       const suggest_options& options) {
  const arch_spec& a = *target.arch;
  smem_for_block_size smem;
  if (options.smem_per_thread > 0)
    smem = [&](int threads) { return launch.dynamic_smem + options.smem_per_thread * threads; };
  const auto bs = suggest_block_size(a, launch, smem);
  table b = record("block_size", "Block size with the highest occupancy");
  field(b, "block_size", "Block size", num(bs.block_size));
  field(b, "active_blocks_per_sm", "Active blocks per SM", num(bs.active_blocks));
  field(b, "active_warps_per_sm", "Active warps per SM", num(bs.active_warps));
  field(b, "occupancy", "Occupancy", real(bs.occupancy), {}, 3);
  field(b, "dynamic_smem", "Dynamic shared memory at that size", num(bs.dynamic_smem), "B");
  field(b, "min_grid_size", "Blocks for one full wave",
        target.sm_count > 0 ? num(bs.min_grid_size(target.sm_count)) : cell{});
  b.notes.push_back(fmt::format(
      "Block sizes tried from {} down in steps of {}; ties go to the larger block, as "
      "cudaOccupancyMaxPotentialBlockSize does{}.",
      a.max_threads_per_block, a.warp_size,
      options.smem_per_thread > 0 ? fmt::format(" (dynamic shared memory {} + {} x threads bytes)",
                                                launch.dynamic_smem, options.smem_per_thread)
                                  : std::string()));
  return b;
}

// "registers": the register budget for a target occupancy.
table registers_table(const arch_spec& a, const launch_params& launch,
                      const suggest_options& options, const occupancy_result& current) {
  const double target_occ =
      options.target_occupancy > 0 ? options.target_occupancy : register_free_occupancy(a, launch);
  const auto rs = suggest_registers(a, launch, target_occ);
  table r = record("registers", "Register budget for a target occupancy");
  field(r, "target_occupancy", "Target occupancy", real(rs.target_occupancy), {}, 3);
  field(r, "max_registers", "Most registers per thread (multiple of 8)",
        rs.max_registers ? num(rs.max_registers) : cell{});
  field(r, "occupancy", "Occupancy there", real(rs.occupancy), {}, 3);
  field(r, "min_blocks_per_sm", "Blocks per SM needed", num(rs.min_blocks_per_sm));
  field(r, "launch_bounds", "__launch_bounds__",
        rs.launch_bounds.empty() ? cell{} : text(rs.launch_bounds));
  field(r, "maxrregcount", "nvcc flag", rs.maxrregcount.empty() ? cell{} : text(rs.maxrregcount));
  if (rs.max_registers == 0)
    r.notes.push_back(fmt::format("No register count reaches {}: other resources limit first.",
                                  percent(target_occ)));
  else
    r.notes.push_back(fmt::format(
        "Keep the kernel at {} registers or fewer ({} or {}) to hold {} (now {} registers, {}).",
        rs.max_registers, rs.launch_bounds, rs.maxrregcount, percent(target_occ),
        launch.registers_per_thread, percent(current.occupancy)));
  return r;
}

// "smem_for_blocks": the largest dynamic shared memory for N resident blocks.
table smem_for_blocks_table(const arch_spec& a, const launch_params& launch,
                            const suggest_options& options) {
  table s;
  s.id = "smem_for_blocks";
  s.title = "Largest dynamic shared memory for N resident blocks";
  s.columns = {{"blocks", "Blocks per SM"},
               {"max_dynamic_smem", "Max dynamic shared memory", "B"},
               {"occupancy", "Occupancy", {}, 3},
               {"runtime_reported", "cudaOccAvailableDynamicSMemPerBlock says", "B"},
               {"runtime_overreports", "Runtime over-reports"}};
  const int top = blocks_without_smem_limit(a, launch);
  const int first = options.blocks > 0 ? options.blocks : 1;
  const int last = options.blocks > 0 ? options.blocks : std::min(top, 64);
  const int warps_per_block = (launch.threads_per_block + a.warp_size - 1) / a.warp_size;
  for (int n = first; n <= last; ++n) {
    const auto m = max_dynamic_smem_for_blocks(a, launch, n);
    s.rows.push_back({num(n), m.max_dynamic_smem >= 0 ? num(m.max_dynamic_smem) : cell{},
                      real(static_cast<double>(n * warps_per_block) / a.max_warps_per_sm),
                      m.runtime_reported >= 0 ? num(m.runtime_reported) : cell{},
                      flag(m.runtime_overreports)});
    s.highlight.push_back(m.runtime_overreports);
  }
  if (a.reserved_shared_memory_per_block > 0)
    s.notes.push_back(fmt::format(
        "Correct values charge the {} B reserved per block; the runtime's "
        "cudaOccAvailableDynamicSMemPerBlock forgets it and can report sizes at which fewer "
        "blocks fit (highlighted).",
        a.reserved_shared_memory_per_block));
  return s;
}

// "carveouts": the effect of the shared-memory carveout.
table carveouts_table(const arch_spec& a, const launch_params& launch) {
  table c;
  c.id = "carveouts";
  c.title = "Effect of the shared-memory carveout";
  c.columns = {{"carveout", "Carveout (%)"},
               {"preferred_smem_per_sm", "Preferred shared memory per SM", "B"},
               {"smem_per_sm", "Shared memory per SM for this launch", "B"},
               {"active_blocks_per_sm", "Active blocks per SM"},
               {"occupancy", "Occupancy", {}, 3}};
  for (const auto& e : carveout_effects(a, launch)) {
    c.rows.push_back({num(e.carveout), num(e.preferred_smem), num(e.smem_per_sm),
                      num(e.active_blocks), real(e.occupancy)});
    c.highlight.push_back(e.carveout == launch.carveout);
  }
  c.notes.push_back(
      a.has_carveout()
          ? "Each row is the smallest percentage that selects a supported size "
            "(-1 = the default, maximum shared memory). A preference too small for "
            "one block is raised to the smallest size that holds it."
          : "Shared memory is fixed on this architecture: the carveout has no effect.");
  return c;
}

// "clusters" (CC >= 9): upper bounds on active clusters; nullopt without clusters.
std::optional<table> clusters_table(const occupancy_target& target,
                                    const occupancy_result& current) {
  const arch_spec& a = *target.arch;
  const auto bounds = cluster_bounds(a, current.active_blocks, target.sm_count);
  if (bounds.empty())
    return std::nullopt;
  table k;
  k.id = "clusters";
  k.title = "Active clusters (upper bound)";
  k.columns = {{"cluster_size", "Cluster size"},
               {"portable", "Portable"},
               {"max_active_clusters_bound", "Upper bound on active clusters"}};
  for (const auto& cb : bounds)
    k.rows.push_back(
        {num(cb.cluster_size), flag(cb.portable),
         cb.max_active_clusters_bound > 0 ? num(cb.max_active_clusters_bound) : cell{}});
  k.notes.push_back(
      target.sm_count > 0
          ? fmt::format("Upper bound = floor({} blocks per SM x {} SMs / cluster size). A "
                        "cluster must fit in one GPC, so the real count is lower and depends "
                        "on the SKU: ask cudaOccupancyMaxActiveClusters.",
                        current.active_blocks, target.sm_count)
          : fmt::format("Upper bound = floor(blocks per SM x SMs / cluster size); {}. A "
                        "cluster must fit in one GPC: ask cudaOccupancyMaxActiveClusters for "
                        "the real count.",
                        target.sm_count_hint.empty() ? "it needs the target's SM count"
                                                     : target.sm_count_hint));
  return k;
}

} // namespace

std::vector<report_section> suggest_report(const occupancy_target& target,
                                           const launch_params& launch,
                                           const suggest_options& options) {
  const arch_spec& a = *target.arch;
  const auto current = compute_occupancy(a, launch, false);
  std::vector<report_section> out;
  out.push_back({block_size_table(target, launch, options), true});
  out.push_back({registers_table(a, launch, options, current), true});
  out.push_back({smem_for_blocks_table(a, launch, options), false});
  out.push_back({carveouts_table(a, launch), false});
  if (auto k = clusters_table(target, current))
    out.push_back({*k, false});
  return out;
}

std::vector<report_section> sweep_report(const std::vector<occupancy_sweep>& sweeps) {
  std::vector<report_section> out;
  for (const auto& s : sweeps) {
    table t;
    t.id = "sweep_" + std::string(to_string(s.variable));
    t.title = "Sweep of " + std::string(to_string(s.variable));
    t.columns = {{"value", "Value"},
                 {"active_blocks_per_sm", "Active blocks"},
                 {"active_warps_per_sm", "Active warps"},
                 {"occupancy", "Occupancy", {}, 3},
                 {"limiters", "Limited by"},
                 {"current", "Current launch"}};
    for (const auto& p : s.points) {
      const bool is_current = p.value == s.current.value;
      t.rows.push_back({num(p.value), num(p.active_blocks), num(p.active_warps), real(p.occupancy),
                        text(limiter_names(p.limiters)), flag(is_current)});
      t.highlight.push_back(is_current);
    }
    out.push_back({t, false});
  }
  return out;
}

std::vector<report_section> ptxas_report(const std::vector<ptxas_kernel>& kernels,
                                         const occupancy_target& target,
                                         const launch_params& base) {
  table k;
  k.id = "kernels";
  k.title = fmt::format("Kernels at {} threads per block", base.threads_per_block);
  k.columns = {{"kernel", "Kernel"},
               {"arch", "Arch"},
               {"regs", "Registers"},
               {"smem_static", "Static smem", "B"},
               {"barriers", "Barriers"},
               {"spill_stores", "Spill stores", "B"},
               {"active_blocks_per_sm", "Blocks/SM"},
               {"active_warps_per_sm", "Warps/SM"},
               {"occupancy", "Occupancy", {}, 3},
               {"limiters", "Limited by"},
               {"reason", "Why no block fits"}};
  for (const auto& kernel : kernels) {
    const arch_spec& arch = target.arch ? *target.arch : find_arch(kernel.arch);
    const launch_params l = ptxas_launch(kernel, arch, base);
    const auto r = compute_occupancy(arch, l);
    k.rows.push_back({text(kernel.name), text(arch.id()), num(kernel.registers),
                      num(kernel.static_smem), num(l.barriers), num(kernel.spill_stores),
                      num(r.active_blocks), num(r.active_warps), real(r.occupancy),
                      text(limiter_names(r.limiters)), r.reason.empty() ? cell{} : text(r.reason)});
    k.highlight.push_back(r.active_blocks == 0);
  }
  if (target.arch)
    k.notes.push_back("Architecture from " + target.origin + " (the log's own is ignored).");
  else
    k.notes.push_back("Each kernel on the architecture ptxas compiled it for.");
  return {{k, false}};
}

} // namespace roofkit
