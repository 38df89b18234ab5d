// roofkit-suite: every bundled kernel launched once at its default size, plainly (between
// cudaProfilerStart/Stop, for `ncu --profile-from-start off`) or under the bench's profiler
// (the bench's metric set, its cache control and pass structure), with every launch's values
// written as JSON. scripts/ncu-compare.sh runs both and compares launch by launch.
//   roofkit-suite plain [REGEX]
//   roofkit-suite profile[-each] all|all-sweep|all-evict|none OUT.json [REGEX]
// Both start with a primer: two L2 flushes (a read sweep of 4 x L2 and a discard each), profiled
// like the kernels and reported apart. A profiler that leaves dirty lines of its own in the L2
// before its first pass shows them as DRAM writes of the first sweep, which writes nothing.
// Experiments: ROOFKIT_SUITE_PAD_MB=N first allocates N MiB that nothing touches, so that every
// buffer lands elsewhere in device memory; ROOFKIT_SUITE_METRICS=a,b,... profiles those metrics
// instead of the bench's set; ROOFKIT_SUITE_HOLD_FLUSHER, ROOFKIT_SUITE_FLUSH_BEFORE and
// ROOFKIT_SUITE_DRIVER_FLUSH (plain);
// ROOFKIT_SUITE_CACHE_CONFIG=L1|shared sets the device's preferred cache configuration first
// (cudaDeviceSetCacheConfig), for kernels that state none.
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <cuda_profiler_api.h>
#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>

#include "roofkit/bench.hpp"
#include "roofkit/core.hpp"
#include "roofkit/profiler.hpp"
#include "roofkit/registry.hpp"
#include "roofkit/timing.hpp"

#include "../../lib/src/profiler/driver_l2_flush.hpp"

namespace {

using steady = std::chrono::steady_clock;

double since(steady::time_point t0) {
  return std::chrono::duration<double>(steady::now() - t0).count();
}

bool suite_member(const roofkit::kernel_descriptor& d) {
  return d.kind != roofkit::measurement::transfer && d.counter_profiled;
}

bool env_is_one(const char* name) {
  const char* v = std::getenv(name);
  return v && *v == '1';
}

constexpr const char* primer_name = "primer/l2-flush-twice";

// The padding allocation of ROOFKIT_SUITE_PAD_MB, held until exit.
struct padding {
  void* ptr = nullptr;
  padding() {
    const char* mb = std::getenv("ROOFKIT_SUITE_PAD_MB");
    if (mb && std::atol(mb) > 0)
      ROOFKIT_CUDA_CHECK(cudaMalloc(&ptr, std::size_t(std::atol(mb)) << 20));
  }
  ~padding() { cudaFree(ptr); }
};

// The bench's metric set, or the comma-separated names in ROOFKIT_SUITE_METRICS (an experiment).
roofkit::metric_set_def suite_metric_set() {
  const char* names = std::getenv("ROOFKIT_SUITE_METRICS");
  if (!names || !*names)
    return roofkit::bench_metric_set();
  std::vector<std::string> list;
  std::istringstream in(names);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty())
      list.push_back(item);
  return roofkit::custom_metric_set(list);
}

// With ROOFKIT_SUITE_DRIVER_FLUSH=1 (an experiment): the driver's write-back and invalidate of
// the L2, which roofkit's profiler uses, run by the application before each kernel's range (for
// a profiler with its own cache control off); exits where it is not available.
std::unique_ptr<roofkit::detail::driver_l2_flush> app_driver_flush() {
  if (!env_is_one("ROOFKIT_SUITE_DRIVER_FLUSH"))
    return nullptr;
  std::string why;
  auto flush = roofkit::detail::driver_l2_flush::open_device(0, why);
  if (!flush)
    throw roofkit::runtime_error("ROOFKIT_SUITE_DRIVER_FLUSH: " + why);
  return flush;
}

int plain(const std::string& regex) {
  padding pad;
  cudaStream_t stream = nullptr;
  const auto driver_flush = app_driver_flush();
  // ROOFKIT_SUITE_HOLD_FLUSHER=1 (an experiment): a second flusher made after the primer's and
  // held to the end, as profile's session holds its own: the same allocations in the same order.
  // ROOFKIT_SUITE_FLUSH_BEFORE=1 (an experiment) also runs that flusher's two kernels before
  // each kernel's range, outside it: the work that precedes a kernel under profile's session.
  const bool flush_before = env_is_one("ROOFKIT_SUITE_FLUSH_BEFORE");
  std::unique_ptr<roofkit::l2_flusher> held;
  {
    roofkit::l2_flusher primer;
    if (flush_before || env_is_one("ROOFKIT_SUITE_HOLD_FLUSHER"))
      held = std::make_unique<roofkit::l2_flusher>();
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
    ROOFKIT_CUDA_CHECK(cudaProfilerStart());
    primer.flush(stream);
    primer.flush(stream);
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
    ROOFKIT_CUDA_CHECK(cudaProfilerStop());
    std::cout << primer_name << '\n';
  }
  for (const auto* d : roofkit::select_kernels(regex)) {
    if (!suite_member(*d))
      continue;
    auto inst = d->make();
    inst->setup(d->default_size);
    inst->reset(stream);
    if (flush_before)
      held->flush(stream);
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
    if (driver_flush)
      driver_flush->flush();
    ROOFKIT_CUDA_CHECK(cudaProfilerStart());
    inst->run(stream);
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
    ROOFKIT_CUDA_CHECK(cudaProfilerStop());
    inst->teardown();
    std::cout << d->name << '\n';
  }
  return 0;
}

int profile(const std::string& cache, const std::string& out_path, const std::string& regex,
            bool each) {
  const auto t_start = steady::now();
  padding pad;
  roofkit::profiler_options po;
  // "all-sweep": cache control all with roofkit's sweep even where the driver's flush is
  // available (an experiment). "all-evict" (the sweep without invalidating its own lines) needed
  // profiler_options::invalidate_l2, which left the library: it is refused.
  if (cache == "all-evict")
    throw roofkit::usage_error("'all-evict' is no longer available (profiler_options::"
                               "invalidate_l2 left the library; see git history)");
  po.driver_flush = cache == "all";
  po.cache =
      roofkit::parse_cache_control(cache == "all-sweep" || cache == "all-evict" ? "all" : cache);
  roofkit::profiler_session session(0, suite_metric_set(), po);
  double profile_s = 0;
  cudaStream_t stream = nullptr;
  nlohmann::json kernels = nlohmann::json::array();
  // As the bench: kernels set up in batches of up to half the free device memory, each batch
  // profiled in one pass set.
  std::size_t free_bytes = 0, total_bytes = 0;
  ROOFKIT_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  std::vector<const roofkit::kernel_descriptor*> batch;
  std::vector<std::unique_ptr<roofkit::kernel_instance>> instances;
  double batch_bytes = 0;
  {
    roofkit::l2_flusher primer;
    const auto ranges = session.profile_batch({{[&] {
                                                  primer.flush(stream);
                                                  primer.flush(stream);
                                                },
                                                std::size_t(2 * primer.launches())}});
    nlohmann::json launches = nlohmann::json::array();
    for (const auto& r : ranges[0])
      launches.push_back(r.values);
    kernels.push_back({{"name", primer_name}, {"launches", launches}});
  }
  auto flush_batch = [&] {
    if (batch.empty())
      return;
    std::vector<roofkit::batch_work> works;
    for (std::size_t i = 0; i < batch.size(); ++i) {
      auto* inst = instances[i].get();
      roofkit::batch_work w{[inst, stream] { inst->run(stream); },
                            static_cast<std::size_t>(std::max(1, batch[i]->kernels_per_run))};
      if (batch[i]->reset_before_each_run) // managed memory: the pages back before every pass
        w.before = [inst, stream] { inst->reset(stream); };
      works.push_back(std::move(w));
    }
    const auto t0 = steady::now();
    const auto ranges = session.profile_batch(works);
    const double dt = since(t0);
    profile_s += dt;
    for (std::size_t i = 0; i < batch.size(); ++i) {
      nlohmann::json launches = nlohmann::json::array();
      for (const auto& r : ranges[i])
        launches.push_back(r.values);
      kernels.push_back({{"name", batch[i]->name}, {"launches", launches}});
      instances[i]->teardown();
    }
    std::cerr << "roofkit-suite: " << batch.size() << " kernels profiled in " << dt << " s\n";
    batch.clear();
    instances.clear();
    batch_bytes = 0;
  };
  for (const auto* d : roofkit::select_kernels(regex)) {
    if (!suite_member(*d))
      continue;
    auto inst = d->make();
    inst->setup(d->default_size);
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
    batch.push_back(d);
    instances.push_back(std::move(inst));
    batch_bytes += d->device_bytes(d->default_size);
    if (each || batch_bytes > 0.5 * double(free_bytes))
      flush_batch();
  }
  flush_batch();
  nlohmann::json doc;
  doc["tool"] = "roofkit-suite";
  doc["chip"] = session.chip();
  doc["passes"] = session.passes();
  doc["metrics"] = session.metrics().names();
  doc["cache_control"] = cache;
  doc["cache_control_method"] = session.cache_control_method();
  doc["profile_s"] = profile_s;
  const auto& st = session.stats();
  doc["profile_breakdown_s"] = {{"setup", st.setup_s},
                                {"passes", st.passes_s},
                                {"decode", st.decode_s},
                                {"calls", st.calls},
                                {"passes_total", st.passes}};
  doc["total_s"] = since(t_start);
  doc["kernels"] = kernels;
  std::ofstream(out_path) << doc.dump(1) << '\n';
  return 0;
}

// With ROOFKIT_SUITE_LMEM_LOG=1 (an experiment): the stack limit and the free device memory,
// which drops when the driver grows the local memory it reserves.
void local_memory_note(const char* when) {
  if (!env_is_one("ROOFKIT_SUITE_LMEM_LOG"))
    return;
  std::size_t stack = 0, free_bytes = 0, total = 0;
  ROOFKIT_CUDA_CHECK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
  ROOFKIT_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  std::cerr << "roofkit-suite: " << when << ": stack limit " << stack << " B, free " << free_bytes
            << " B\n";
}

int run_mode(const std::string& mode, int argc, char** argv) {
  if (mode == "plain")
    return plain(argc > 2 ? argv[2] : "");
  // profile-each: one kernel per pass set, set up just before and freed just after, as in
  // plain (the same allocation sequence), instead of batches.
  if ((mode == "profile" || mode == "profile-each") && argc > 3)
    return profile(argv[2], argv[3], argc > 4 ? argv[4] : "", mode == "profile-each");
  std::cerr << "usage: roofkit-suite plain [REGEX] | profile[-each] all|all-evict|none OUT.json "
               "[REGEX]\n";
  return 2;
}

} // namespace

int main(int argc, char** argv) {
  return roofkit::guarded_main("roofkit-suite", [&]() -> int {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (const char* c = std::getenv("ROOFKIT_SUITE_CACHE_CONFIG"); c && *c) {
      const std::string config = c;
      if (config != "L1" && config != "shared")
        throw roofkit::usage_error("ROOFKIT_SUITE_CACHE_CONFIG='" + config +
                                   "' (valid: L1, shared)");
      ROOFKIT_CUDA_CHECK(cudaDeviceSetCacheConfig(config == "L1" ? cudaFuncCachePreferL1
                                                                 : cudaFuncCachePreferShared));
    }
    // ROOFKIT_SUITE_STACK_BYTES (an experiment): the per-thread stack limit, which sets the local
    // memory the driver reserves per thread and so where each warp's spills land.
    if (const char* b = std::getenv("ROOFKIT_SUITE_STACK_BYTES"); b && std::atol(b) > 0)
      ROOFKIT_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitStackSize, std::size_t(std::atol(b))));
    local_memory_note("start");
    const int rc = run_mode(mode, argc, argv);
    local_memory_note("end");
    return rc;
  });
}
