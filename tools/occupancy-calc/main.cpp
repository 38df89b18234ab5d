// occupancy-calc: theoretical occupancy, limiters and cliffs, offline for sm_50 to sm_121.
// Argument parsing only; the logic lives in lib/ (roofkit/occupancy*.hpp).
#include <cstdio>
#include <iostream>
#include <iterator>
#include <optional>

#include <fmt/format.h>

#include "cli_help.hpp"
#include "cli_parse.hpp"
#include "roofkit/cliff.hpp"
#include "roofkit/core.hpp"
#include "roofkit/occupancy.hpp"
#include "roofkit/plot.hpp"
#include "target.hpp"

namespace {

struct options {
  std::string arch;
  std::string gpu;
  int device = -1;
  int sms = 0;
  int threads = 256;
  int regs = 32;
  std::string smem_static = "0";
  std::string smem_dynamic = "0";
  std::string carveout = "-1";
  int barriers = 1;
  bool json = false;
  bool csv = false;
  bool detail = false;
  std::string table;
  std::string ptxas;
  std::string svg_out;
  std::string target_occupancy;
  std::string smem_per_thread = "0";
  int blocks = 0;
  std::string batch_file;
};

std::string read_input(const std::string& path) {
  if (path == "-") {
    std::string text{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
    if (std::cin.bad())
      throw roofkit::usage_error("cannot read standard input");
    return text;
  }
  return roofkit::read_text_file(path);
}

double parse_fraction(const std::string& text) {
  std::string s = text;
  bool percent = !s.empty() && s.back() == '%';
  if (percent)
    s.pop_back();
  double value = -1;
  try {
    std::size_t used = 0;
    value = std::stod(s, &used);
    if (used != s.size())
      value = -1;
  } catch (const std::exception&) {
    value = -1;
  }
  // A fraction, or a percentage written with '%': never guessed from the size of the number
  // (1.5 is neither 150% nor 1.5%).
  if (percent)
    value /= 100;
  if (!(value > 0 && value <= 1))
    throw roofkit::usage_error(fmt::format(
        "target occupancy '{}' out of range (valid: a fraction 0 < x <= 1 such as 0.75, or a "
        "percentage up to 100% such as 75%)",
        text));
  return value;
}

// The command that measures a cliff on the GPU (roofline-cuda's cliff subcommand).
std::string cliff_command(const std::string& kernel, const roofkit::cliff_line& c) {
  std::string name = kernel.empty() ? "NAME" : kernel;
  if (name.rfind("void ", 0) == 0)
    name = name.substr(5);
  if (const auto paren = name.find('('); paren != std::string::npos && paren > 0)
    name = name.substr(0, paren);
  if (name.find_first_not_of(
          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_/.:-") !=
      std::string::npos) {
    std::string quoted = "'";
    for (char ch : name)
      quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    name = quoted + "'";
  }
  return fmt::format("roofline-cuda cliff --kernel {} --sweep {} --range {}", name, c.sweep,
                     c.range);
}

class calculator {
public:
  explicit calculator(const options& o) : o_(o) {}

  roofkit::output_format format() const {
    return o_.json  ? roofkit::output_format::json
           : o_.csv ? roofkit::output_format::csv
                    : roofkit::output_format::markdown;
  }

  /// The target from --arch/--gpu/--device, or nullopt when none was given.
  std::optional<roofkit::occupancy_target> target() const {
    std::optional<roofkit::occupancy_target> t;
    if (!o_.arch.empty())
      t = occupancy_calc::target_from_arch(o_.arch);
    else if (!o_.gpu.empty())
      t = occupancy_calc::target_from_gpu(o_.gpu);
    else if (o_.device >= 0)
      t = occupancy_calc::target_from_device(o_.device);
    if (t && o_.sms > 0)
      t->sm_count = o_.sms;
    return t;
  }

  roofkit::occupancy_target required_target() const {
    auto t = target();
    if (!t)
      throw roofkit::usage_error(
          "no target GPU (valid: --arch sm_XY or X.Y, --gpu NAME, or --device N)");
    return *t;
  }

  roofkit::launch_params launch() const {
    roofkit::launch_params l;
    l.threads_per_block = o_.threads;
    l.registers_per_thread = o_.regs;
    l.static_smem = roofkit::parse_size(o_.smem_static, "--smem-static");
    l.dynamic_smem = roofkit::parse_size(o_.smem_dynamic, "--smem-dynamic");
    l.carveout = roofkit::parse_carveout(o_.carveout);
    l.barriers = o_.barriers;
    return l;
  }

  roofkit::launch_params valid_launch(const roofkit::arch_spec& arch) const {
    auto l = launch();
    roofkit::validate_launch(arch, l);
    return l;
  }

  int report() const {
    const auto t = required_target();
    const auto l = valid_launch(*t.arch);
    const auto r = roofkit::compute_occupancy(*t.arch, l);
    const auto sections = roofkit::occupancy_report(t, l, r);
    if (answer_first()) {
      std::cout << roofkit::occupancy_summary(t, l, r, {}, cliff_command) << '\n'
                << "Tables (" << roofkit::section_ids(sections)
                << "): --detail; --json; --csv --table NAME.\n";
      return 0;
    }
    print(sections, "occupancy");
    return 0;
  }

  int ptxas() const {
    const std::string log = read_input(o_.ptxas);
    const auto kernels = roofkit::parse_ptxas_log(log);
    const std::string shown = o_.ptxas == "-" ? "standard input" : o_.ptxas;
    if (kernels.empty())
      throw roofkit::usage_error(fmt::format(
          "no kernel found in ptxas log '{}' (valid: the output of nvcc -Xptxas -v, with "
          "'Compiling entry function' and 'Used N registers' lines)",
          shown));
    roofkit::occupancy_target t;
    if (auto given = target())
      t = *given;
    auto base = launch();
    base.registers_per_thread = 0;
    if (const auto warning = roofkit::ptxas_arch_mismatch(kernels, t); !warning.empty())
      std::cerr << "occupancy-calc: warning: " << warning << '\n';
    auto sections = roofkit::ptxas_report(kernels, t, base);
    for (auto& s : roofkit::ptxas_cliffs_report(kernels, t, base))
      sections.push_back(std::move(s));
    if (answer_first()) {
      std::cout << roofkit::ptxas_summary(kernels, t, base, cliff_command) << '\n'
                << "Tables (" << roofkit::section_ids(sections)
                << "): --detail; --json; --csv --table NAME.\n";
      return 0;
    }
    print(sections, "kernels");
    return 0;
  }

  int cliffs() const {
    const auto t = required_target();
    const auto l = valid_launch(*t.arch);
    if (answer_first()) {
      std::cout << roofkit::occupancy_summary(t, l, roofkit::compute_occupancy(*t.arch, l), {},
                                              cliff_command)
                << '\n'
                << "Table (cliffs): --detail; --json; --csv.\n";
      return 0;
    }
    print(roofkit::cliffs_report(t, l), "cliffs");
    return 0;
  }

  int suggest() const {
    const auto t = required_target();
    roofkit::suggest_options s;
    if (!o_.target_occupancy.empty())
      s.target_occupancy = parse_fraction(o_.target_occupancy);
    s.smem_per_thread = roofkit::parse_size(o_.smem_per_thread, "--smem-per-thread");
    if (o_.blocks < 0 || o_.blocks > t.arch->max_blocks_per_sm)
      throw roofkit::usage_error(fmt::format("--blocks '{}' out of range (valid: 1..{} on {})",
                                             o_.blocks, t.arch->max_blocks_per_sm, t.arch->id()));
    s.blocks = o_.blocks;
    print(roofkit::suggest_report(t, valid_launch(*t.arch), s), "block_size");
    return 0;
  }

  int sweep() const {
    const auto t = required_target();
    const auto l = valid_launch(*t.arch);
    std::vector<roofkit::occupancy_sweep> sweeps;
    for (auto v : {roofkit::occupancy_variable::block_size, roofkit::occupancy_variable::registers,
                   roofkit::occupancy_variable::shared_memory})
      sweeps.push_back(roofkit::sweep_occupancy(*t.arch, l, v));
    if (!o_.svg_out.empty()) {
      const std::string title =
          fmt::format("Occupancy on {}{} ({}, CC {})", t.gpu_name.empty() ? "" : t.gpu_name + ", ",
                      t.arch->id(), t.arch->family, t.arch->cc());
      const std::string caption = fmt::format(
          "{} threads, {} registers/thread, {} B static + {} B dynamic shared memory, carveout "
          "{}, {} barrier(s)\noccupancy-calc {} ({}); each panel varies one value, the "
          "others held",
          l.threads_per_block, l.registers_per_thread, l.static_smem, l.dynamic_smem, l.carveout,
          l.barriers, roofkit::tool_version(), roofkit::git_revision());
      roofkit::write_occupancy_sweeps(sweeps, title, caption, o_.svg_out);
      if (roofkit::stderr_is_terminal())
        std::cerr << "occupancy-calc: wrote " << o_.svg_out << '\n';
    }
    if (format() != roofkit::output_format::markdown) {
      print(roofkit::sweep_report(sweeps), "sweep_block_size");
      return 0;
    }
    std::cout << fmt::format("Occupancy sweeps on {} ({}): {} threads, {} registers, {} B shared "
                             "memory per block\n\n",
                             t.arch->id(), t.arch->family, l.threads_per_block,
                             l.registers_per_thread, l.static_smem + l.dynamic_smem);
    for (const auto& s : sweeps)
      std::cout << roofkit::sweep_terminal_chart(s) << '\n';
    return 0;
  }

  int batch() const {
    const std::string csv = read_input(o_.batch_file);
    std::string out;
    const auto summary = roofkit::run_occupancy_batch(csv, out);
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
    if (summary.invalid > 0)
      throw roofkit::usage_error(fmt::format("{} of {} rows invalid (first: {})", summary.invalid,
                                             summary.rows, summary.first_error));
    return 0;
  }

private:
  /// Markdown without --detail or --table: the answer in a few lines instead of the tables.
  bool answer_first() const {
    return format() == roofkit::output_format::markdown && !o_.detail && o_.table.empty();
  }

  /// Prints the tables: CSV one table only (--table, else `main_table`), JSON and Markdown every
  /// table unless --table names one.
  void print(const std::vector<roofkit::report_section>& sections,
             const std::string& main_table) const {
    std::string only = o_.table;
    if (only.empty() && format() == roofkit::output_format::csv)
      only = main_table;
    try {
      roofkit::print_report(sections, format(), std::cout, only);
    } catch (const roofkit::error& e) {
      if (e.code() != roofkit::exit_code::usage)
        throw;
      throw roofkit::usage_error(std::string("--table: ") + e.what());
    }
  }

  const options& o_;
};

void add_launch_options(CLI::App& app, options& o) {
  auto* arch = app.add_option("--arch", o.arch, "Architecture: sm_90, sm_90a, 9.0 (sm_50..sm_121)");
  auto* gpu = app.add_option("--gpu", o.gpu, "GPU by name, e.g. \"H100 SXM\" (prefix allowed)");
  auto* device = app.add_option("--device", o.device, "Live query of CUDA device N");
  arch->excludes(gpu)->excludes(device);
  gpu->excludes(device);
  app.add_option("--sms", o.sms, "SM count (for grid sizes and cluster bounds with --arch)");
  app.add_option("-t,--threads", o.threads, "Threads per block (default 256)");
  app.add_option("-r,--regs", o.regs, "Registers per thread (default 32; 0 = unknown)");
  app.add_option("--smem-static", o.smem_static, "Static shared memory per block: 4096, 4K");
  app.add_option("-s,--smem-dynamic", o.smem_dynamic, "Dynamic shared memory per block: 48K");
  app.add_option("--carveout", o.carveout,
                 "Shared-memory carveout: 0..100 (%), -1/default, max_shared, max_l1");
  app.add_option("--barriers", o.barriers, "Block barriers per block (default 1)");
  auto* json = app.add_flag("--json", o.json, "JSON output");
  auto* csv = app.add_flag("--csv", o.csv, "CSV output");
  json->excludes(csv);
  app.add_flag("--detail", o.detail, "Every table (default: the answer first, in a few lines)");
  app.add_option("--table", o.table,
                 "Only this table (CSV prints one table: the main one unless this names another)");
}

} // namespace

int main(int argc, char** argv) {
  return roofkit::guarded_main("occupancy-calc", [&] {
    options o;
    CLI::App app{"occupancy-calc: theoretical occupancy of a CUDA launch, offline for sm_50 to "
                 "sm_121",
                 "occupancy-calc"};
    app.set_version_flag("--version", std::string(roofkit::tool_version()) + " (" +
                                          std::string(roofkit::git_revision()) + ")");
    if (auto doc = roofkit::cli::help_page("docs/cli/occupancy-calc.md"))
      app.footer(std::string(*doc));
    app.fallthrough();
    add_launch_options(app, o);
    app.add_option("--ptxas", o.ptxas,
                   "Read `nvcc -Xptxas -v` output (FILE or - for stdin): every kernel");

    auto* sweep =
        app.add_subcommand("sweep", "Active warps vs block size, registers and "
                                    "shared memory (terminal chart, -o FILE.svg|.html|.png|.pdf)");
    sweep->add_option("-o,--output", o.svg_out,
                      "Also write the three charts: FILE.svg, .html, .png or .pdf");
    auto* cliffs = app.add_subcommand("cliffs", "Nearest values where the block count changes");
    auto* suggest = app.add_subcommand("suggest", "Block size, register budget, shared memory "
                                                  "for N blocks, carveouts, clusters");
    suggest->add_option("--target-occupancy", o.target_occupancy,
                        "Occupancy to keep for the register budget: 0.75 or 75% (default: the "
                        "best reachable without a register limit)");
    suggest->add_option("--smem-per-thread", o.smem_per_thread,
                        "Dynamic shared memory that grows with the block size (bytes/thread)");
    suggest->add_option("--blocks", o.blocks, "Only this many blocks per SM in the smem table");
    auto* batch = app.add_subcommand(
        "batch", "CSV in (" + std::string(roofkit::occupancy_batch_header) + "), JSON Lines out");
    batch->add_option("file", o.batch_file, "CSV file, or - for stdin")->required();
    app.require_subcommand(0, 1);

    if (int code = roofkit::cli::parse_or_exit(app, argc, argv); code >= 0)
      return code;
    calculator calc(o);
    if (batch->parsed())
      return calc.batch();
    if (!o.ptxas.empty()) {
      if (sweep->parsed() || cliffs->parsed() || suggest->parsed())
        throw roofkit::usage_error("--ptxas reports occupancy and cliffs of every kernel; it "
                                   "does not combine with sweep, cliffs or suggest");
      return calc.ptxas();
    }
    if (sweep->parsed())
      return calc.sweep();
    if (cliffs->parsed())
      return calc.cliffs();
    if (suggest->parsed())
      return calc.suggest();
    return calc.report();
  });
}
