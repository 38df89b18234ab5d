// Can the checkpoint's copies run while the range profiler programs its counters? A profiled
// launch as roofline-cuda profile makes it (checkpoint save, four user-replay passes of the
// bench's set in one auto range each, a restore before passes 1-3 and after them, then the
// application's own launch), in three ways:
//   serial:       save, then start pass 0; each restore before the next pass's start (as now);
//   save-overlap: the save on a second thread while pass 0 starts, joined before the kernel;
//   all-overlap:  also each restore on a second thread while the pass before it stops.
// The kernel adds 1 in place to a buffer of MIB MiB, so a wrong save or restore shows in the
// values: after LAUNCHES profiled launches every element must equal LAUNCHES. Prints one JSON
// object per way: milliseconds per launch and the medians of each step.
// Build against the library (see validation/lab/README.md):
//   nvcc -std=c++20 -arch=sm_90 -Ilib/include validation/lab/overlap.cu build/gpu/lib/libroofkit.a
//       -lcupti -lnvperf_host -lcuda -L$CUDA_HOME/lib -lcheckpoint -o overlap
//   ./overlap [MIB] [LAUNCHES]   (default 2048 20)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_checkpoint.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <nlohmann/json.hpp>

#include "roofkit/bench.hpp"
#include "roofkit/core.hpp"
#include "roofkit/profiler.hpp"

using NV::Cupti::Checkpoint::CUpti_Checkpoint;
using NV::Cupti::Checkpoint::cuptiCheckpointFree;
using NV::Cupti::Checkpoint::cuptiCheckpointRestore;
using NV::Cupti::Checkpoint::cuptiCheckpointSave;

namespace {

__global__ void add_one(float* x, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    x[i] += 1.0f;
}

using clock_type = std::chrono::steady_clock;
double ms_since(clock_type::time_point t0) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
}

double median(std::vector<double> v) {
  if (v.empty())
    return 0.0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Runs `f` on a thread with `ctx` current; join() waits for it and rethrows its error.
class side_call {
public:
  side_call(CUcontext ctx, std::function<void()> f)
      : thread_([this, ctx, f = std::move(f)] {
          try {
            ROOFKIT_CU_CHECK(cuCtxSetCurrent(ctx));
            f();
          } catch (...) {
            error_ = std::current_exception();
          }
        }) {}
  ~side_call() {
    if (thread_.joinable())
      thread_.join();
  }
  void join() {
    thread_.join();
    if (error_)
      std::rethrow_exception(error_);
  }

private:
  std::exception_ptr error_;
  std::thread thread_;
};

struct steps {
  std::vector<double> save, start0, restores, stops, launch;
};

} // namespace

int main(int argc, char** argv) {
  return roofkit::guarded_main("overlap", [&]() -> int {
    const std::size_t mib = argc > 1 ? std::stoul(argv[1]) : 2048;
    const int launches = argc > 2 ? std::stoi(argv[2]) : 20;
    ROOFKIT_CUDA_CHECK(cudaSetDevice(0));
    ROOFKIT_CUDA_CHECK(cudaFree(nullptr));
    CUcontext ctx = nullptr;
    ROOFKIT_CU_CHECK(cuCtxGetCurrent(&ctx));
    const std::size_t n = (mib << 20) / sizeof(float);
    float* x = nullptr;
    ROOFKIT_CUDA_CHECK(cudaMalloc(&x, n * sizeof(float)));

    CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    ROOFKIT_CUPTI_CHECK(cuptiProfilerInitialize(&init));
    CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    chip.deviceIndex = 0;
    ROOFKIT_CUPTI_CHECK(cuptiDeviceGetChipName(&chip));
    const roofkit::cupti_catalog cat(chip.pChipName);
    const auto names = roofkit::resolve_metric_set(roofkit::bench_metric_set(), cat).names();
    const auto config = cat.config_image(names);
    std::vector<const char*> name_ptrs;
    for (const auto& s : names)
      name_ptrs.push_back(s.c_str());

    CUpti_RangeProfiler_Enable_Params en{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    en.ctx = ctx;
    ROOFKIT_CUPTI_CHECK(cuptiRangeProfilerEnable(&en));
    CUpti_RangeProfiler_Object* rp = en.pRangeProfilerObject;
    auto start = [&] {
      CUpti_RangeProfiler_Start_Params p{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
      p.pRangeProfilerObject = rp;
      ROOFKIT_CUPTI_CHECK(cuptiRangeProfilerStart(&p));
    };
    auto stop = [&] {
      CUpti_RangeProfiler_Stop_Params p{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
      p.pRangeProfilerObject = rp;
      ROOFKIT_CUPTI_CHECK(cuptiRangeProfilerStop(&p));
      return p.isAllPassSubmitted != 0;
    };
    auto kernel = [&] {
      add_one<<<132 * 8, 256>>>(x, n);
      ROOFKIT_CUDA_CHECK(cudaGetLastError());
    };

    nlohmann::json out = nlohmann::json::object();
    for (const std::string way : {"serial", "save-overlap", "all-overlap", "serial"}) {
      ROOFKIT_CUDA_CHECK(cudaMemset(x, 0, n * sizeof(float)));
      ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
      steps st;
      int passes = 0;
      const auto w0 = clock_type::now();
      for (int i = 0; i < launches; ++i) {
        const auto l0 = clock_type::now();
        CUpti_Checkpoint cp{CUpti_Checkpoint_STRUCT_SIZE};
        cp.ctx = ctx;
        cp.allowOverwrite = 1;
        auto save = [&] { ROOFKIT_CUPTI_CHECK(cuptiCheckpointSave(&cp)); };
        auto restore = [&] {
          ROOFKIT_CUPTI_CHECK(cuptiCheckpointRestore(&cp));
          ROOFKIT_CU_CHECK(cuCtxSynchronize());
        };
        std::unique_ptr<side_call> pending;
        if (way == "serial") {
          const auto t = clock_type::now();
          save();
          st.save.push_back(ms_since(t));
        } else {
          pending = std::make_unique<side_call>(ctx, save);
        }
        CUpti_RangeProfiler_GetCounterDataSize_Params sz{
            CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
        sz.pRangeProfilerObject = rp;
        sz.pMetricNames = name_ptrs.data();
        sz.numMetrics = name_ptrs.size();
        sz.maxNumOfRanges = 2;
        sz.maxNumRangeTreeNodes = 2;
        ROOFKIT_CUPTI_CHECK(cuptiRangeProfilerGetCounterDataSize(&sz));
        std::vector<std::uint8_t> data(sz.counterDataSize);
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params di{
            CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
        di.pRangeProfilerObject = rp;
        di.counterDataSize = data.size();
        di.pCounterData = data.data();
        ROOFKIT_CUPTI_CHECK(cuptiRangeProfilerCounterDataImageInitialize(&di));
        CUpti_RangeProfiler_SetConfig_Params sc{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
        sc.pRangeProfilerObject = rp;
        sc.configSize = config.size();
        sc.pConfig = config.data();
        sc.counterDataImageSize = data.size();
        sc.pCounterDataImage = data.data();
        sc.range = CUPTI_AutoRange;
        sc.replayMode = CUPTI_UserReplay;
        sc.maxRangesPerPass = 2;
        sc.numNestingLevels = 1;
        sc.minNestingLevel = 1;
        sc.targetNestingLevel = 1;
        ROOFKIT_CUPTI_CHECK(cuptiRangeProfilerSetConfig(&sc));
        bool done = false;
        for (int pass = 0; !done; ++pass, ++passes) {
          if (pass > 0 && !pending)
            restore();
          const auto s0 = clock_type::now();
          start();
          if (pass == 0)
            st.start0.push_back(ms_since(s0));
          if (pending) { // the save (pass 0) or the restore (later passes) must be complete
            const auto j0 = clock_type::now();
            pending->join();
            pending.reset();
            st.restores.push_back(ms_since(j0));
          }
          kernel();
          ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
          const auto p0 = clock_type::now();
          if (way == "all-overlap") {
            // Restore for the next pass (or for the application's launch) while this one stops.
            pending = std::make_unique<side_call>(ctx, restore);
          }
          done = stop();
          st.stops.push_back(ms_since(p0));
        }
        CUpti_RangeProfiler_DecodeData_Params dd{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
        dd.pRangeProfilerObject = rp;
        ROOFKIT_CUPTI_CHECK(cuptiRangeProfilerDecodeData(&dd));
        if (pending) {
          pending->join();
          pending.reset();
        } else {
          restore();
        }
        cuptiCheckpointFree(&cp);
        kernel(); // the application's own launch
        ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
        st.launch.push_back(ms_since(l0));
      }
      const double wall = ms_since(w0);
      std::vector<float> host(n);
      ROOFKIT_CUDA_CHECK(cudaMemcpy(host.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost));
      const std::size_t wrong = static_cast<std::size_t>(
          std::count_if(host.begin(), host.end(), [&](float v) { return v != float(launches); }));
      nlohmann::json r = {{"mib", mib},
                          {"launches", launches},
                          {"passes_per_launch", double(passes) / launches},
                          {"ms_per_launch", wall / launches},
                          {"median_launch_ms", median(st.launch)},
                          {"median_save_ms", median(st.save)},
                          {"median_start0_ms", median(st.start0)},
                          {"median_join_ms", median(st.restores)},
                          {"median_stop_ms", median(st.stops)},
                          {"wrong_values", wrong}};
      std::printf("%s\n", nlohmann::json{{"way", way}, {"result", r}}.dump().c_str());
    }
    CUpti_RangeProfiler_Disable_Params dis{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    dis.pRangeProfilerObject = rp;
    cuptiRangeProfilerDisable(&dis);
    ROOFKIT_CUDA_CHECK(cudaFree(x));
    return 0;
  });
}
