// Cliffs of a launch: the nearest register count, shared-memory size and block size at which the
// number of resident blocks changes; their tables.
#include <cmath>

#include <fmt/format.h>

#include "internal/occupancy_point.hpp"
#include "internal/text_util.hpp"
#include "roofkit/cliff.hpp"
#include "roofkit/core.hpp"
#include "roofkit/occupancy.hpp"

namespace roofkit {

using detail::percent_short;

namespace {

std::string blocks_text(int blocks) {
  return fmt::format("{} block{}", blocks, blocks == 1 ? "" : "s");
}

std::string value_text(occupancy_variable v, std::int64_t value) {
  switch (v) {
  case occupancy_variable::block_size:
    return fmt::format("{} threads", value);
  case occupancy_variable::registers:
    return fmt::format("{} registers", value);
  case occupancy_variable::shared_memory:
    return fmt::format("{} of shared memory", format_bytes(value));
  }
  return {};
}

std::string bare_value(occupancy_variable v, std::int64_t value) {
  return v == occupancy_variable::shared_memory ? format_bytes(value) : fmt::format("{}", value);
}

std::string unit_name(occupancy_variable v, std::int64_t amount) {
  switch (v) {
  case occupancy_variable::block_size:
    return amount == 1 ? "thread" : "threads";
  case occupancy_variable::registers:
    return amount == 1 ? "register" : "registers";
  case occupancy_variable::shared_memory:
    return amount == 1 ? "byte" : "bytes";
  }
  return {};
}

std::string describe(const occupancy_cliff& c) {
  std::string text =
      fmt::format("{}: {}, {}", value_text(c.variable, c.current.value),
                  blocks_text(c.current.active_blocks), percent_short(c.current.occupancy));
  const char* fewer = c.variable == occupancy_variable::shared_memory ? "or less" : "or fewer";
  if (c.below)
    text += fmt::format("; at {} {}: {}, {}", bare_value(c.variable, c.below->value), fewer,
                        blocks_text(c.below->active_blocks), percent_short(c.below->occupancy));
  else
    text += fmt::format("; no smaller value changes it");
  if (c.above) {
    const bool drop = c.above->active_blocks < c.current.active_blocks;
    text += fmt::format("; {} more {} before the next {} (at {}: {}, {})", c.headroom,
                        unit_name(c.variable, c.headroom), drop ? "drop" : "change",
                        bare_value(c.variable, c.above->value), blocks_text(c.above->active_blocks),
                        percent_short(c.above->occupancy));
  } else {
    text += fmt::format("; no change up to the maximum of {}", bare_value(c.variable, c.maximum));
  }
  return text;
}

occupancy_cliff stepwise_cliff(const arch_spec& arch, const launch_params& l, occupancy_variable v,
                               std::int64_t current, std::int64_t minimum, std::int64_t maximum) {
  occupancy_cliff c;
  c.variable = v;
  c.maximum = maximum;
  c.current = detail::occupancy_at(arch, l, v, current);
  for (std::int64_t x = current - 1; x >= minimum; --x) {
    auto p = detail::occupancy_at(arch, l, v, x);
    if (p.active_blocks != c.current.active_blocks) {
      c.below = p;
      break;
    }
  }
  for (std::int64_t x = current + 1; x <= maximum; ++x) {
    auto p = detail::occupancy_at(arch, l, v, x);
    if (p.active_blocks != c.current.active_blocks) {
      c.above = p;
      break;
    }
  }
  return c;
}

// Shared memory changes the block count only where the allocation (static + dynamic + reserved,
// rounded up to the allocation unit) changes, so only those values are evaluated.
occupancy_cliff smem_cliff(const arch_spec& arch, const launch_params& l) {
  occupancy_cliff c;
  c.variable = occupancy_variable::shared_memory;
  const std::int64_t minimum = l.static_smem;
  const std::int64_t maximum = arch.shared_memory_per_block_optin;
  const std::int64_t current = l.static_smem + l.dynamic_smem;
  const std::int64_t unit = arch.shared_memory_allocation_unit;
  const std::int64_t reserved = arch.reserved_shared_memory_per_block;
  c.maximum = maximum;
  c.current = detail::occupancy_at(arch, l, c.variable, current);
  const std::int64_t alloc = (current + reserved + unit - 1) / unit * unit;
  for (std::int64_t x = alloc - unit - reserved;; x -= unit) {
    const std::int64_t at = x < minimum ? minimum : x;
    if (at >= current)
      break;
    auto p = detail::occupancy_at(arch, l, c.variable, at);
    if (p.active_blocks != c.current.active_blocks) {
      c.below = p;
      break;
    }
    if (at == minimum)
      break;
  }
  for (std::int64_t x = alloc - reserved + 1; x <= maximum; x += unit) {
    auto p = detail::occupancy_at(arch, l, c.variable, x);
    if (p.active_blocks != c.current.active_blocks) {
      c.above = p;
      break;
    }
  }
  return c;
}

} // namespace

std::vector<occupancy_cliff> find_cliffs(const arch_spec& arch, const launch_params& launch) {
  std::vector<occupancy_cliff> cliffs;
  if (launch.registers_per_thread > 0)
    cliffs.push_back(stepwise_cliff(arch, launch, occupancy_variable::registers,
                                    launch.registers_per_thread, 1, arch.max_registers_per_thread));
  cliffs.push_back(smem_cliff(arch, launch));
  cliffs.push_back(stepwise_cliff(arch, launch, occupancy_variable::block_size,
                                  launch.threads_per_block, 1, arch.max_threads_per_block));
  for (auto& c : cliffs) {
    c.headroom = (c.above ? c.above->value : c.maximum + 1) - c.current.value - 1;
    c.text = describe(c);
  }
  return cliffs;
}

namespace {

cell num(std::int64_t v) { return v; }
cell real(double v) { return v; }
cell text(std::string v) { return v; }

} // namespace

std::vector<report_section> cliffs_report(const occupancy_target& target,
                                          const launch_params& launch) {
  table t;
  t.id = "cliffs";
  t.title = "Cliffs on " + target_name(target);
  t.columns = {{"variable", "Parameter"},
               {"value", "Value"},
               {"active_blocks", "Blocks"},
               {"occupancy", "Occupancy", {}, 3},
               {"below", "Nearest lower with other blocks"},
               {"below_blocks", "Blocks there"},
               {"below_occupancy", "Occupancy there", {}, 3},
               {"above", "Nearest higher with other blocks"},
               {"above_blocks", "Blocks there"},
               {"above_occupancy", "Occupancy there", {}, 3},
               {"headroom", "Headroom"},
               {"text", "Summary"}};
  for (const auto& c : find_cliffs(*target.arch, launch)) {
    std::vector<cell> row{text(std::string(to_string(c.variable))), num(c.current.value),
                          num(c.current.active_blocks), real(c.current.occupancy)};
    for (const auto& side : {c.below, c.above}) {
      if (side)
        row.insert(row.end(), {num(side->value), num(side->active_blocks), real(side->occupancy)});
      else
        row.insert(row.end(), {cell{}, cell{}, cell{}});
    }
    row.push_back(num(c.headroom));
    row.push_back(text(c.text));
    t.rows.push_back(std::move(row));
  }
  t.notes.push_back("Headroom: how much the value can grow before the block count changes "
                    "(registers per thread, bytes of shared memory per block, threads).");
  return {{t, false}};
}

std::vector<report_section> ptxas_cliffs_report(const std::vector<ptxas_kernel>& kernels,
                                                const occupancy_target& target,
                                                const launch_params& base) {
  table c;
  c.id = "cliffs";
  c.title = "Cliffs per kernel";
  c.columns = {{"kernel", "Kernel"}, {"arch", "Arch"},         {"variable", "Parameter"},
               {"value", "Value"},   {"headroom", "Headroom"}, {"text", "Summary"}};
  for (const auto& kernel : kernels) {
    const arch_spec& arch = target.arch ? *target.arch : find_arch(kernel.arch);
    const launch_params l = ptxas_launch(kernel, arch, base);
    for (const auto& cl : find_cliffs(arch, l))
      c.rows.push_back({text(kernel.name), text(arch.id()),
                        text(std::string(to_string(cl.variable))), num(cl.current.value),
                        num(cl.headroom), text(cl.text)});
  }
  return {{c, false}};
}

} // namespace roofkit
