// Text forms of a diagnosis: `--explain` for one kernel, the report's section for a run.
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "internal/user_regex.hpp"
#include "roofkit/core.hpp"
#include "roofkit/diagnosis.hpp"

namespace roofkit {

namespace {

// Words of `text` in lines of at most `width` characters, each after `indent`.
std::string wrap_text(const std::string& text, std::size_t width, const std::string& first,
                      const std::string& indent) {
  std::istringstream in(text);
  std::string word, line = first, out;
  bool empty = true;
  while (in >> word) {
    if (!empty && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = indent;
      empty = true;
    }
    line += (empty ? "" : " ") + word;
    empty = false;
  }
  return out + line + "\n";
}

std::string number_text(double v) { return fmt::format("{:.3g}", v); }

std::string occupancy_lines(const diagnosis_occupancy& o, const cliff_command_format& command,
                            std::size_t width) {
  std::string s = fmt::format("occupancy: theoretical {:.0f}% ({} blocks per SM, limited by {}",
                              100 * o.theoretical, o.active_blocks, o.limiter);
  s += o.registers > 0 ? fmt::format(", {} registers per thread)", o.registers)
                       : std::string(", registers unknown)");
  if (o.achieved)
    s += fmt::format(", achieved {:.0f}%", 100 * *o.achieved);
  std::string out = wrap_text(s, width, "  ", "    ");
  if (o.cliff) {
    out += wrap_text("nearest cliff: " + o.cliff->text, width, "  ", "    ");
    if (const std::string cmd = command ? command(*o.cliff) : std::string(); !cmd.empty())
      out += wrap_text("test it: " + cmd, width, "  ", "    ");
  }
  return out;
}

} // namespace

std::vector<std::size_t> find_kernels(const run& r, const std::string& pattern) {
  const auto labels = kernel_labels(r);
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (labels[i] == pattern)
      out.push_back(i);
  if (!out.empty())
    return out;
  const std::regex re = detail::compile_user_regex(pattern, "kernel");
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (std::regex_search(labels[i], re) || std::regex_search(r.kernels[i].name, re))
      out.push_back(i);
  if (out.empty()) {
    std::string some;
    for (std::size_t i = 0; i < labels.size() && i < 5; ++i)
      some += (i ? ", " : "") + labels[i];
    throw usage_error(fmt::format("no kernel matches '{}' (kernels: {}{})", pattern, some,
                                  labels.size() > 5 ? ", ..." : ""));
  }
  return out;
}

std::string explain_kernel(const run& r, std::size_t index, const cliff_command_format& command,
                           std::size_t width) {
  const auto labels = kernel_labels(r);
  const auto placements = analyze(r);
  const kernel_result& k = r.kernels.at(index);
  std::string out = labels[index] + "\n";
  out += wrap_text("demangled: " + k.name, width, "  ", "    ");
  if (!k.mangled_name.empty())
    out += wrap_text("mangled: " + k.mangled_name, width, "  ", "    ");
  const auto d = diagnose_kernel(r, index, placements[index]);
  if (!d)
    return out + "  no diagnosis: the kernel was not placed under a roof\n";
  out += wrap_text("verdict (" + d->limiter + "): " + d->verdict, width, "  ", "    ");
  out += wrap_text("try: " + d->try_first, width, "  ", "    ");
  if (d->sm_clock_mhz > 0)
    out += fmt::format("  roofs at the kernel's SM clock, {:.0f} MHz\n", d->sm_clock_mhz);
  if (d->occupancy)
    out += occupancy_lines(*d->occupancy, command, width);
  out += "  findings, most time to gain first:\n";
  for (const auto& f : d->findings) {
    out +=
        wrap_text(fmt::format("{} (up to {:.0f}% of the time): {}", f.kind, 100 * f.gain, f.text),
                  width, "  - ", "      ");
    std::string ev;
    for (const auto& [key, v] : f.evidence)
      ev += (ev.empty() ? "" : ", ") + key + " " + number_text(v);
    for (const auto& [key, v] : f.evidence_text)
      ev += (ev.empty() ? "" : ", ") + key + " " + v;
    if (!ev.empty())
      out += wrap_text("evidence: " + ev, width, "      ", "      ");
  }
  return out;
}

std::string diagnosis_section(const run& r, std::size_t width) {
  const auto labels = kernel_labels(r);
  const auto placements = analyze(r);
  const auto diagnoses = diagnose_run(r, placements);
  std::string out;
  for (std::size_t i = 0; i < diagnoses.size(); ++i) {
    if (!diagnoses[i])
      continue;
    const auto& d = *diagnoses[i];
    out += wrap_text(
        fmt::format("**{}** ({}): {}. Try: {}", labels[i], d.limiter, d.verdict, d.try_first),
        width, "- ", "  ");
  }
  if (out.empty())
    return out;
  return "## Why (diagnosis)\n\nThe main limiter of each kernel, with its evidence, and what to "
         "try first.\n\n" +
         out + "\n";
}

} // namespace roofkit
