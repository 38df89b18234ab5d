// roofkit-suite: every bundled kernel launched once at its default size, plainly (between
// cudaProfilerStart/Stop, for `ncu --profile-from-start off`) or under the bench's profiler
// (the bench's metric set, its cache control and pass structure), with every launch's values
// written as JSON. scripts/ncu-compare.sh runs both and compares launch by launch.
//   roofkit-suite plain [REGEX]
//   roofkit-suite profile all|none OUT.json [REGEX]
#include <chrono>
#include <fstream>
#include <iostream>

#include <cuda_profiler_api.h>
#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>

#include "roofkit/bench.hpp"
#include "roofkit/error.hpp"
#include "roofkit/kernel_registry.hpp"
#include "roofkit/main_guard.hpp"
#include "roofkit/profiler.hpp"

namespace {

using steady = std::chrono::steady_clock;

double since(steady::time_point t0) {
  return std::chrono::duration<double>(steady::now() - t0).count();
}

bool suite_member(const roofkit::kernel_descriptor& d) {
  return d.kind == roofkit::measurement::kernel && d.counter_profiled;
}

int plain(const std::string& regex) {
  cudaStream_t stream = nullptr;
  for (const auto* d : roofkit::select_kernels(regex)) {
    if (!suite_member(*d))
      continue;
    auto inst = d->make();
    inst->setup(d->default_size);
    inst->reset(stream);
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
    ROOFKIT_CUDA_CHECK(cudaProfilerStart());
    inst->run(stream);
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
    ROOFKIT_CUDA_CHECK(cudaProfilerStop());
    inst->teardown();
    std::cout << d->name << '\n';
  }
  return 0;
}

int profile(const std::string& cache, const std::string& out_path, const std::string& regex) {
  const auto t_start = steady::now();
  roofkit::profiler_options po;
  po.cache = roofkit::parse_cache_control(cache);
  roofkit::profiler_session session(0, roofkit::bench_metric_set(), po);
  double profile_s = 0;
  cudaStream_t stream = nullptr;
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto* d : roofkit::select_kernels(regex)) {
    if (!suite_member(*d))
      continue;
    auto inst = d->make();
    inst->setup(d->default_size);
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
    const auto t0 = steady::now();
    const auto ranges = session.profile_launches([&] { inst->run(stream); },
                                                 [&] { inst->reset(stream); });
    const double dt = since(t0);
    profile_s += dt;
    inst->teardown();
    nlohmann::json launches = nlohmann::json::array();
    for (const auto& r : ranges)
      launches.push_back(r.values);
    kernels.push_back({{"name", d->name}, {"profile_s", dt}, {"launches", launches}});
    std::cerr << "roofkit-suite: " << d->name << ": " << ranges.size() << " launch(es)\n";
  }
  nlohmann::json doc;
  doc["tool"] = "roofkit-suite";
  doc["chip"] = session.chip();
  doc["passes"] = session.passes();
  doc["metrics"] = session.metrics().names();
  doc["cache_control"] = cache;
  doc["profile_s"] = profile_s;
  const auto& st = session.stats();
  doc["profile_breakdown_s"] = {{"setup", st.setup_s}, {"passes", st.passes_s},
                                {"decode", st.decode_s}, {"calls", st.calls},
                                {"passes_total", st.passes}};
  doc["total_s"] = since(t_start);
  doc["kernels"] = kernels;
  std::ofstream(out_path) << doc.dump(1) << '\n';
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  return roofkit::guarded_main("roofkit-suite", [&]() -> int {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "plain")
      return plain(argc > 2 ? argv[2] : "");
    if (mode == "profile" && argc > 3)
      return profile(argv[2], argv[3], argc > 4 ? argv[4] : "");
    std::cerr << "usage: roofkit-suite plain [REGEX] | profile all|none OUT.json [REGEX]\n";
    return 2;
  });
}
