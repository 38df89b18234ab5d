// roofkit-validate: runs the validation kernels plainly (for Nsight Compute to profile) or under
// roofkit's profiler, and writes what it measured as JSON. Used by scripts/ncu-compare.sh.
//   roofkit-validate plain
//   roofkit-validate profile SET [OUT.json]
//   roofkit-validate metrics NAME[,NAME...] [OUT.json]
//   roofkit-validate status
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "roofkit/core.hpp"
#include "roofkit/profiler.hpp"
#include "roofkit/timing.hpp"
#include "validate_cases.hpp"

namespace {

namespace rv = roofkit::validation;
using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

nlohmann::json expected_json(const rv::kernel_case& c) {
  nlohmann::json e = nlohmann::json::object();
  auto put = [&](const char* key, double v) {
    if (v > 0)
      e[key] = v;
  };
  put("ld_requests", c.ld_requests);
  put("ld_sectors", c.ld_sectors);
  put("ffma", c.ffma);
  put("dfma", c.dfma);
  put("hfma", c.hfma);
  put("tensor_fp16_flops", c.tensor_fp16_flops);
  put("dram_bytes", c.dram_bytes);
  put("smem_st_wavefronts", c.smem_st_wavefronts);
  return e;
}

int profile(const roofkit::metric_set_def& def, const std::string& out_path,
            clock_type::time_point t0) {
  const auto cases = rv::case_list();
  rv::case_runner runner;
  const auto t_session = clock_type::now();
  roofkit::profiler_session s(0, def);
  const double setup_s = seconds_since(t_session);
  const auto t_profile = clock_type::now();
  const auto ranges = s.profile([&] {
    for (std::size_t i = 0; i < cases.size(); ++i)
      runner.launch(i);
  });
  const double profile_s = seconds_since(t_profile);
  if (ranges.size() != cases.size())
    throw roofkit::runtime_error("expected one range per kernel, got " +
                                 std::to_string(ranges.size()));
  nlohmann::json doc;
  doc["tool"] = "roofkit-validate";
  doc["set"] = s.metrics().set;
  doc["chip"] = s.chip();
  doc["passes"] = s.passes();
  doc["metrics"] = s.metrics().names();
  nlohmann::json keys = nlohmann::json::object();
  for (const auto& m : s.metrics().metrics)
    keys[m.spec.key] = m.name;
  doc["keys"] = keys;
  doc["session_setup_s"] = setup_s;
  doc["profile_s"] = profile_s;
  doc["kernels"] = nlohmann::json::array();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    nlohmann::json k;
    k["name"] = cases[i].name;
    k["range"] = ranges[i].name;
    k["values"] = ranges[i].values;
    k["expected"] = expected_json(cases[i]);
    if (def.name == "roofline" || def.name == "roofline-full") {
      const auto c = roofkit::derive_roofline_counts(s.metrics(), ranges[i].values);
      nlohmann::json flops = nlohmann::json::object();
      for (const auto& [p, v] : c.flops)
        flops[roofkit::to_string(p)] = v;
      nlohmann::json bytes = nlohmann::json::object();
      for (const auto& [l, v] : c.bytes)
        bytes[roofkit::to_string(l)] = v;
      k["flops"] = flops;
      k["bytes"] = bytes;
      k["time_s"] = c.time_s;
      k["sm_clock_hz"] = c.sm_clock_hz;
      k["dram_clock_hz"] = c.dram_clock_hz;
      if (c.achieved_occupancy)
        k["achieved_occupancy"] = *c.achieved_occupancy;
    }
    doc["kernels"].push_back(std::move(k));
  }
  doc["process_s"] = seconds_since(t0);
  const std::string text = doc.dump(2) + "\n";
  if (out_path.empty()) {
    std::cout << text;
  } else {
    std::ofstream(out_path) << text;
    std::cerr << "roofkit-validate: " << def.name << " on " << s.chip() << ": " << s.passes()
              << " passes, profile() " << profile_s << " s, process " << seconds_since(t0)
              << " s -> " << out_path << '\n';
  }
  return 0;
}

int status() {
  const auto st = roofkit::check_profiler(0);
  std::cout << "profiler: " << (st.ok ? "ok" : "unavailable") << " chip=" << st.chip
            << " exit=" << st.exit << "\n";
  if (!st.ok)
    std::cout << "message: " << st.message << "\nhint: " << st.hint << "\n";
  // Timing works with or without counters.
  rv::case_runner runner;
  roofkit::timing_options o;
  o.repetitions = 5;
  const auto t = roofkit::time_kernel([&](cudaStream_t) { runner.launch(0); }, o);
  std::cout << "timing: coalesced median " << t.time.median_s * 1e6 << " us over "
            << t.time.repetitions << " reps, SM clock " << t.sm_clock.mhz << " MHz ("
            << t.sm_clock.method << ")\n";
  return 0;
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty())
      out.push_back(item);
  return out;
}

} // namespace

int main(int argc, char** argv) {
  const auto t0 = clock_type::now();
  return roofkit::guarded_main("roofkit-validate", [&] {
    const std::string mode = argc > 1 ? argv[1] : "";
    const std::string arg = argc > 2 ? argv[2] : "";
    const std::string out = argc > 3 ? argv[3] : "";
    if (mode == "plain") {
      rv::case_runner runner;
      for (std::size_t i = 0; i < rv::case_list().size(); ++i)
        runner.launch(i);
      ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
      std::cerr << "roofkit-validate: plain run " << seconds_since(t0) << " s\n";
      return 0;
    }
    if (mode == "profile" && !arg.empty())
      return profile(roofkit::find_metric_set(arg), out, t0);
    if (mode == "metrics" && !arg.empty())
      return profile(roofkit::custom_metric_set(split(arg)), out, t0);
    if (mode == "status")
      return status();
    throw roofkit::usage_error("usage: roofkit-validate plain | profile SET [OUT] | metrics "
                               "NAME[,NAME...] [OUT] | status");
  });
}
