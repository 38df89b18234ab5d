// A sweep over a launch parameter of the user's own program: the program is run with each value
// substituted into its command line, and timed (or its own figure read from its output).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <regex>

#include <fmt/format.h>
#include <sys/wait.h>

#include "internal/user_regex.hpp"
#include "roofkit/arch.hpp"
#include "roofkit/cliff.hpp"
#include "roofkit/core.hpp"
#include "roofkit/occupancy.hpp"
#include "sweep_point.hpp"

namespace roofkit {

namespace {

struct process_output {
  int status = 0; ///< exit code, or 128 + signal
  std::string out;
  double wall_s = 0;
};

process_output run_shell(const std::string& command) {
  process_output r;
  const auto t0 = std::chrono::steady_clock::now();
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe)
    throw runtime_error(fmt::format("cannot start '{}'", command));
  char buf[4096];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0)
    r.out.append(buf, n);
  const int st = pclose(pipe);
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (st == -1)
    r.status = -1;
  else if (WIFEXITED(st))
    r.status = WEXITSTATUS(st);
  else if (WIFSIGNALED(st))
    r.status = 128 + WTERMSIG(st);
  return r;
}

std::string substitute(const std::string& command, std::int64_t value) {
  std::string s = command;
  const std::string v = std::to_string(value);
  for (std::size_t pos = s.find("{}"); pos != std::string::npos; pos = s.find("{}", pos + 1))
    s.replace(pos, 2, v);
  return s;
}

// One value: the prediction, then the program's repetitions (its wall time, or the figure the
// regex finds in its output).
cliff_point measure_program(const exec_sweep_options& o, const std::optional<std::regex>& re,
                            const arch_spec& arch, std::int64_t v) {
  cliff_point p;
  p.value = v;
  p.block = o.axis == sweep_axis::block ? int(v) : o.block;
  p.dynamic_smem = o.axis == sweep_axis::smem ? v : o.dynamic_smem;
  p.static_smem = o.static_smem;
  p.registers = o.registers;
  detail::predict_occupancy(arch, p);
  std::vector<double> samples;
  const std::string cmd = substitute(o.command, v);
  for (int rep = 0; rep < o.repetitions && p.status == "ok"; ++rep) {
    const auto out = run_shell(cmd);
    if (out.status != 0) {
      p.status = "error";
      p.message = fmt::format("'{}' exited with status {}", cmd, out.status);
      break;
    }
    if (!re) {
      samples.push_back(out.wall_s);
      continue;
    }
    std::smatch m;
    if (!std::regex_search(out.out, m, *re)) {
      p.status = "error";
      p.message = fmt::format("the output of '{}' does not match '{}'", cmd, o.metric_regex);
      break;
    }
    double x = std::strtod(m[1].str().c_str(), nullptr);
    if (!(x > 0) || !std::isfinite(x)) {
      p.status = "error";
      p.message = fmt::format("'{}' is not a positive number", m[1].str());
      break;
    }
    samples.push_back(x * o.metric_scale);
  }
  if (p.status == "ok" && !samples.empty()) {
    p.repetitions = int(samples.size());
    p.spread = relative_spread(samples);
    const double median = median_of(samples);
    if (re && o.metric_is_rate) {
      p.rate = median;
    } else {
      p.time_median_s = median;
      p.time_min_s = *std::min_element(samples.begin(), samples.end());
      p.time_max_s = *std::max_element(samples.begin(), samples.end());
      p.rate = 1 / median;
    }
  }
  return p;
}

} // namespace

cliff_result run_exec_sweep(const exec_sweep_options& o) {
  if (o.command.find("{}") == std::string::npos)
    throw usage_error(
        fmt::format("command '{}' has no '{{}}' where the swept value goes", o.command));
  if (o.axis != sweep_axis::block && o.axis != sweep_axis::smem)
    throw usage_error(fmt::format("sweep '{}' of a program is not supported (valid: block, smem)",
                                  to_string(o.axis)));
  if (o.repetitions < 1 || o.repetitions > 1000)
    throw usage_error(fmt::format("repetitions {} out of range (valid: 1..1000)", o.repetitions));
  std::optional<std::regex> re;
  if (!o.metric_regex.empty()) {
    re.emplace(detail::compile_user_regex(o.metric_regex, "metric regex",
                                          "an ECMAScript regex with the number in a group"));
    if (re->mark_count() < 1)
      throw usage_error(
          fmt::format("metric regex '{}' has no group: put the number in (...)", o.metric_regex));
  }
  const arch_spec* arch = find_arch(o.cc_major, o.cc_minor);
  if (!arch)
    throw usage_error(fmt::format("no architecture table for CC {}.{} (valid: {})", o.cc_major,
                                  o.cc_minor, valid_arch_names()));
  const auto values = sweep_values(o.range);
  if (values.empty())
    throw usage_error(fmt::format("range {} has no values", to_string(o.range)));

  cliff_result r;
  r.kernel = "program: " + o.command;
  r.kernel_description = "the user's program, run once per value and repetition";
  r.axis = o.axis;
  r.range = o.range;
  r.options = o.detection;
  if (re && o.metric_is_rate) {
    r.rate_name = "the program's rate";
    r.rate_unit = o.metric_unit.empty() ? "1/s" : o.metric_unit;
  } else {
    r.rate_name = re ? "1 / the program's time" : "1 / wall time";
    r.rate_unit = "1/s";
  }
  r.cc_major = o.cc_major;
  r.cc_minor = o.cc_minor;
  r.sm_count = o.sm_count;
  r.command = o.command;
  r.extra["metric"] = re ? "regex " + o.metric_regex : "wall time of the process";
  if (o.registers == 0)
    r.extra["registers"] =
        "unknown: the prediction has no register limit (give the registers per thread)";

  r.points = detail::sweep_points(values, o.progress,
                                  [&](std::int64_t v) { return measure_program(o, re, *arch, v); });
  analyze_cliffs(r);
  return r;
}

} // namespace roofkit
