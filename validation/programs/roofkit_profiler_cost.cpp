// roofkit-profiler-cost: where the range profiler's time goes per replay pass, for metric sets of
// different kinds (hardware counters only, one SASS-patched counter, the bench's set and its
// SASS-patched and hardware halves) and for the three ways a session profiles (user range per
// launch, auto range with user replay over many launches, auto range with CUPTI's kernel
// replay). One JSON object per line on stdout.
//   roofkit-profiler-cost [LAUNCHES] [each [NAME...] | without NAME,... ... | order NAME,... ...
//                                    | launch [NAME...] | sequence [NAME...]]
// each: every counter alone (those named, else the bench's); without: the bench's set less each
// group of counters; order: the bench's counters in other orders; launch: the bench's set (or
// each named counter alone) one auto range per launch, as roofline-cuda profile does; sequence:
// LAUNCHES launches in one set of passes, as a replayed batch (the bench's set with and without
// cache control, then each counter alone without it).
// ROOFKIT_LAB_SCHED=spin|yield|blocking sets the device's scheduling flag before its context is
// made: does the way the host waits for the GPU change what a pass costs?
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>

#include "roofkit/bench.hpp"
#include "roofkit/core.hpp"
#include "roofkit/profiler.hpp"

void launch_scale_add(const float* x, float* y, int n); // profiler_cost_kernel.cu

namespace {

struct arrays {
  int n = 1 << 20;
  float* x = nullptr;
  float* y = nullptr;
  arrays() {
    ROOFKIT_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&x), sizeof(float) * n));
    ROOFKIT_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&y), sizeof(float) * n));
    ROOFKIT_CUDA_CHECK(cudaMemset(x, 0, sizeof(float) * n));
    ROOFKIT_CUDA_CHECK(cudaMemset(y, 0, sizeof(float) * n));
  }
  ~arrays() {
    cudaFree(x);
    cudaFree(y);
  }
  void launch() const {
    launch_scale_add(x, y, n);
    ROOFKIT_CUDA_CHECK(cudaGetLastError());
  }
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

nlohmann::json stats_json(const roofkit::profiler_stats& s) {
  return {{"calls", s.calls},       {"passes", s.passes},    {"setup_s", s.setup_s},
          {"before_s", s.before_s}, {"start_s", s.start_s},  {"body_s", s.body_s},
          {"stop_s", s.stop_s},     {"decode_s", s.decode_s}};
  // The per-pass split (start_s_by_pass, stop_s_by_pass) left the library with the other
  // experiment-only fields; the lab scripts that read it (validation/lab/pass-cost.sh,
  // pass_cost_json.py, set_cost_table.py, host_waits_json.py) need it back here to run again.
}

// True when `name` is one of the comma-separated names of `list`.
bool listed(const std::string& list, const std::string& name) {
  return ("," + list + ",").find("," + name + ",") != std::string::npos;
}

// `def` with only the metrics `keep` accepts.
template <class Keep> roofkit::metric_set_def filtered(roofkit::metric_set_def def, Keep keep) {
  std::erase_if(def.metrics, [&](const roofkit::metric_spec& m) { return !keep(m); });
  return def;
}

const std::vector<std::string> all_modes{"user_range_per_launch", "auto_range_user_replay",
                                         "auto_range_kernel_replay", "auto_range_per_launch"};

void measure(const std::string& label, const roofkit::metric_set_def& def, int launches,
             const std::vector<std::string>& modes = all_modes) {
  const arrays a;
  for (const std::string& mode : modes) {
    const bool per_launch = mode == "user_range_per_launch";
    const bool auto_per_launch = mode == "auto_range_per_launch";
    roofkit::profiler_session s(0, def);
    // One call first: the first start of a session pays one-time costs, reported apart.
    try {
      const auto w0 = std::chrono::steady_clock::now();
      s.profile_range("warm-up", [&] { a.launch(); });
      const double first_s = seconds_since(w0);
      const roofkit::profiler_stats before = s.stats();
      const auto t0 = std::chrono::steady_clock::now();
      std::size_t ranges = 0;
      std::vector<double> dram_read;
      if (per_launch || auto_per_launch) {
        for (int i = 0; i < launches; ++i) {
          const auto r = per_launch ? s.profile_range("launch", [&] { a.launch(); })
                                    : s.profile_launch([&] { a.launch(); });
          ranges += r.values.empty() ? 0 : 1;
          auto it = r.values.find("dram__bytes_read.sum");
          if (it != r.values.end())
            dram_read.push_back(it->second);
        }
      } else if (mode == "auto_range_user_replay") {
        ranges = s.profile_launches([&] {
                    for (int i = 0; i < launches; ++i)
                      a.launch();
                  }).size();
      } else {
        ranges = s.profile([&] {
                    for (int i = 0; i < launches; ++i)
                      a.launch();
                  }).size();
      }
      const double wall = seconds_since(t0);
      nlohmann::json line = {{"set", label},
                             {"metrics", s.metrics().names()},
                             {"passes", s.passes()},
                             {"mode", mode},
                             {"launches", launches},
                             {"ranges", ranges},
                             {"first_call_s", first_s},
                             {"wall_s", wall},
                             {"wall_per_launch_s", wall / launches},
                             {"dram_read_per_launch", dram_read},
                             {"stats_after_first", stats_json(before)},
                             {"stats_total", stats_json(s.stats())}};
      std::cout << line.dump() << std::endl;
    } catch (const std::exception& e) {
      std::cout << nlohmann::json{{"set", label}, {"mode", mode}, {"error", e.what()}}.dump()
                << std::endl;
    }
  }
}

// One set of passes over `launches` launches, each a step of its own as roofline-cuda profile
// replays a batch (profile_steps), with or without cache control: what a range costs in a pass.
void measure_sequence(const std::string& label, const roofkit::metric_set_def& def, int launches,
                      roofkit::cache_control cache) {
  const arrays a;
  roofkit::profiler_options o;
  o.cache = cache;
  o.max_launch_sequence = static_cast<std::size_t>(launches);
  try {
    roofkit::profiler_session s(0, def, o);
    const std::vector<std::function<void()>> works(static_cast<std::size_t>(launches),
                                                   [&] { a.launch(); });
    s.profile_launch_sequence(works); // the first set pays the profiler's enabling
    const roofkit::profiler_stats before = s.stats();
    const auto t0 = std::chrono::steady_clock::now();
    s.profile_launch_sequence(works);
    const double wall = seconds_since(t0);
    const roofkit::profiler_stats t = s.stats();
    const double n = launches;
    std::cout << nlohmann::json{{"set", label},
                                {"mode", "sequence"},
                                {"cache", cache == roofkit::cache_control::all ? "all" : "none"},
                                {"passes", s.passes()},
                                {"launches", launches},
                                {"ms_per_launch", 1e3 * wall / n},
                                {"body_ms_per_launch", 1e3 * (t.body_s - before.body_s) / n},
                                {"flush_ms_per_launch", 1e3 * (t.flush_s - before.flush_s) / n},
                                {"wait_ms_per_launch", 1e3 * (t.wait_s - before.wait_s) / n},
                                {"start_ms_per_set", 1e3 * (t.start_s - before.start_s)},
                                {"stop_ms_per_set", 1e3 * (t.stop_s - before.stop_s)},
                                {"setup_ms_per_set", 1e3 * (t.setup_s - before.setup_s)}}
                     .dump()
              << std::endl;
  } catch (const std::exception& e) {
    std::cout << nlohmann::json{{"set", label}, {"mode", "sequence"}, {"error", e.what()}}.dump()
              << std::endl;
  }
}

} // namespace

int main(int argc, char** argv) {
  return roofkit::guarded_main("roofkit-profiler-cost", [&]() -> int {
    const int launches = argc > 1 ? std::stoi(argv[1]) : 10;
    if (const char* sched = std::getenv("ROOFKIT_LAB_SCHED")) {
      const std::string v = sched;
      if (v != "spin" && v != "yield" && v != "blocking")
        throw roofkit::usage_error("ROOFKIT_LAB_SCHED='" + v + "' (valid: spin, yield, blocking)");
      const unsigned flag = v == "spin"    ? cudaDeviceScheduleSpin
                            : v == "yield" ? cudaDeviceScheduleYield
                                           : cudaDeviceScheduleBlockingSync;
      ROOFKIT_CUDA_CHECK(cudaSetDeviceFlags(flag));
    }
    if (argc > 2 && std::string(argv[2]) == "launch") {
      if (argc == 3)
        measure("bench", roofkit::bench_metric_set(), launches, {all_modes.back()});
      for (int i = 3; i < argc; ++i)
        measure(argv[i], roofkit::custom_metric_set({argv[i]}), launches, {all_modes.back()});
      return 0;
    }
    if (argc > 2 && std::string(argv[2]) == "sequence") {
      // The bench's set, then each counter alone (those named, else the bench's), LAUNCHES
      // launches in one set of passes without cache control; the bench's set with it too.
      const auto bench = roofkit::bench_metric_set();
      measure_sequence("bench", bench, launches, roofkit::cache_control::all);
      measure_sequence("bench", bench, launches, roofkit::cache_control::none);
      std::vector<std::string> names(argv + 3, argv + argc);
      if (names.empty())
        names = roofkit::profiler_session(0, bench).metrics().names();
      for (const auto& name : names)
        measure_sequence(name, roofkit::custom_metric_set({name}), launches,
                         roofkit::cache_control::none);
      return 0;
    }
    if (argc > 2 && std::string(argv[2]) == "without") {
      // The bench's set without the counters of each argument (comma-separated names), one range
      // per launch: what leaving counters out would save.
      const roofkit::metric_set_def bench = roofkit::bench_metric_set();
      measure("bench", bench, launches, {all_modes.front()});
      for (int i = 3; i < argc; ++i) {
        const std::string drop = argv[i];
        const auto part = filtered(bench, [&](const roofkit::metric_spec& m) {
          return std::none_of(m.names.begin(), m.names.end(),
                              [&](const std::string& n) { return listed(drop, n); });
        });
        measure("bench without " + drop, part, launches, {all_modes.front()});
      }
      return 0;
    }
    if (argc > 2 && std::string(argv[2]) == "order") {
      // The bench's resolved counters in the order CUPTI was given them, sorted by name (which
      // groups them by hardware unit), and with the named ones first: does the order of the
      // configuration change what a pass costs?
      const auto names =
          roofkit::profiler_session(0, roofkit::bench_metric_set()).metrics().names();
      measure("as resolved", roofkit::custom_metric_set(names), launches, {all_modes.front()});
      auto sorted = names;
      std::sort(sorted.begin(), sorted.end());
      measure("sorted", roofkit::custom_metric_set(sorted), launches, {all_modes.front()});
      for (int i = 3; i < argc; ++i) {
        const std::string first = argv[i];
        auto ordered = names;
        std::stable_partition(ordered.begin(), ordered.end(),
                              [&](const std::string& n) { return listed(first, n); });
        measure("first " + first, roofkit::custom_metric_set(ordered), launches,
                {all_modes.front()});
      }
      return 0;
    }
    if (argc > 2 && std::string(argv[2]) == "each") {
      // Each counter alone (those named, else the bench's set's), one range per launch: which
      // counters make a pass expensive to start.
      std::vector<std::string> names(argv + 3, argv + argc);
      if (names.empty())
        names = roofkit::profiler_session(0, roofkit::bench_metric_set()).metrics().names();
      for (const auto& name : names)
        measure(name, roofkit::custom_metric_set({name}), launches, {all_modes.front()});
      return 0;
    }
    measure("hardware",
            roofkit::custom_metric_set(
                {"dram__bytes_read.sum", "dram__bytes_write.sum", "gpu__time_duration.sum"}),
            launches);
    measure("sass",
            roofkit::custom_metric_set({"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"}),
            launches);
    measure("bench", roofkit::bench_metric_set(), launches);
    // The bench's set split by how CUPTI collects a counter: SASS-patched or in hardware.
    const auto bench = roofkit::bench_metric_set();
    for (const bool sass : {false, true}) {
      const auto part = filtered(bench, [&](const roofkit::metric_spec& m) {
        return (m.names.front().find("sass") != std::string::npos) == sass;
      });
      measure(sass ? "bench-sass" : "bench-hardware", part, launches);
    }
    return 0;
  });
}
