// Parser for ptxas verbose output (nvcc -Xptxas -v / --resource-usage).
#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cstdlib>
#include <memory>

#include <fmt/format.h>

#include "roofkit/core.hpp"
#include "roofkit/occupancy.hpp"

namespace roofkit {

namespace {

/// The integer right before `marker` in `line` ("12 registers" -> 12), or -1.
std::int64_t number_before(std::string_view line, std::string_view marker) {
  const auto at = line.find(marker);
  if (at == std::string_view::npos)
    return -1;
  std::size_t end = at;
  while (end > 0 && line[end - 1] == ' ')
    --end;
  std::size_t begin = end;
  while (begin > 0 && line[begin - 1] >= '0' && line[begin - 1] <= '9')
    --begin;
  if (begin == end)
    return -1;
  std::int64_t value = -1;
  std::from_chars(line.data() + begin, line.data() + end, value);
  return value;
}

/// The text between the first pair of single quotes after `from`, or empty.
std::string_view quoted(std::string_view line, std::size_t from) {
  const auto open = line.find('\'', from);
  if (open == std::string_view::npos)
    return {};
  const auto close = line.find('\'', open + 1);
  if (close == std::string_view::npos)
    return {};
  return line.substr(open + 1, close - open - 1);
}

/// The name quoted before " for 'sm_XY'" in a "Compiling entry function" line, or empty (then
/// the line is not an entry).
std::string_view entry_name(std::string_view line, std::size_t at) {
  return quoted(line.substr(0, line.find(" for ", at)), at);
}

} // namespace

std::vector<ptxas_kernel> parse_ptxas_log(std::string_view log) {
  std::vector<ptxas_kernel> kernels;
  ptxas_kernel* current = nullptr;
  bool in_properties = false; // the stack-frame line that follows belongs to `current`
  bool used_seen = false;     // `current` already has its "Used N registers" line
  std::size_t pos = 0;
  while (pos < log.size()) {
    std::size_t eol = log.find('\n', pos);
    if (eol == std::string_view::npos)
      eol = log.size();
    std::string_view line = log.substr(pos, eol - pos);
    pos = eol + 1;
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);

    if (const auto at = line.find("Compiling entry function");
        at != std::string_view::npos && !entry_name(line, at).empty()) {
      ptxas_kernel k;
      k.mangled_name = std::string(entry_name(line, at));
      const auto for_at = line.find(" for ", at);
      if (for_at != std::string_view::npos)
        k.arch = std::string(quoted(line, for_at));
      k.name = demangle(k.mangled_name);
      kernels.push_back(std::move(k));
      current = &kernels.back();
      in_properties = false;
      used_seen = false;
      continue;
    }
    if (line.find("Function properties for") != std::string_view::npos) {
      // A device function's properties follow; an entry's properties follow its own header.
      std::string_view name = line.substr(line.find("Function properties for") + 23);
      while (!name.empty() && name.front() == ' ')
        name.remove_prefix(1);
      if (const auto q = quoted(line, 0); !q.empty())
        name = q;
      while (!name.empty() && (name.back() == ' ' || name.back() == '\t'))
        name.remove_suffix(1);
      in_properties = current && name == current->mangled_name;
      continue;
    }
    if (!current)
      continue;
    if (line.find("stack frame") != std::string_view::npos) {
      if (!in_properties)
        continue;
      current->stack_frame = std::max<std::int64_t>(number_before(line, "bytes stack frame"), 0);
      current->spill_stores = std::max<std::int64_t>(number_before(line, "bytes spill stores"), 0);
      current->spill_loads = std::max<std::int64_t>(number_before(line, "bytes spill loads"), 0);
      continue;
    }
    const auto regs = number_before(line, "registers");
    if (regs >= 0 && regs <= INT_MAX && !used_seen && line.find("Used") != std::string_view::npos) {
      current->registers = static_cast<int>(regs);
      if (const auto bars = number_before(line, "barriers"); bars >= 0 && bars <= INT_MAX)
        current->barriers = static_cast<int>(bars);
      if (const auto smem = number_before(line, "bytes smem"); smem >= 0)
        current->static_smem = smem;
      used_seen = true;
      in_properties = false;
    }
  }
  return kernels;
}

launch_params ptxas_launch(const ptxas_kernel& kernel, const arch_spec& arch,
                           const launch_params& base) {
  launch_params l = base;
  l.registers_per_thread = kernel.registers;
  l.static_smem = kernel.static_smem;
  if (kernel.barriers >= 0)
    l.barriers = kernel.barriers;
  try {
    validate_launch(arch, l);
  } catch (const error& e) {
    throw usage_error(fmt::format("kernel '{}' on {}: {}", kernel.name, arch.id(), e.what()));
  }
  return l;
}

std::string ptxas_arch_mismatch(const std::vector<ptxas_kernel>& kernels,
                                const occupancy_target& target) {
  if (!target.arch)
    return {};
  std::vector<std::string> others;
  std::size_t count = 0;
  for (const auto& k : kernels) {
    // "sm_90a" is compiled for sm_90: compare without the a/f suffix.
    std::string arch = k.arch;
    while (!arch.empty() && std::isalpha(static_cast<unsigned char>(arch.back())))
      arch.pop_back();
    std::string id = target.arch->id();
    while (!id.empty() && std::isalpha(static_cast<unsigned char>(id.back())))
      id.pop_back();
    if (arch.empty() || arch == id)
      continue;
    ++count;
    if (std::find(others.begin(), others.end(), k.arch) == others.end())
      others.push_back(k.arch);
  }
  if (count == 0)
    return {};
  return fmt::format("the ptxas log compiled {} of {} kernel{} for {}, but the numbers are for {} "
                     "({}): recompile for {} for its register and shared-memory counts",
                     count, kernels.size(), kernels.size() == 1 ? "" : "s",
                     fmt::format("{}", fmt::join(others, ", ")), target.arch->id(), target.origin,
                     target.arch->id());
}

} // namespace roofkit
