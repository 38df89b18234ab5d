// Lab (issue 39): what CUPTI itself costs `profile`, apart from roofkit's own code.
// 1. One kernel launch in each state a session leaves the process in between its sets of passes
//    (a callback on the launch calls, kernel activity, the range profiler enabled and configured,
//    a set run), added one at a time and taken away in turn: N empty launches and a synchronise,
//    ROUNDS times (median us a launch), and the launch calls alone with the GPU held.
// 2. A set of passes by metric set, ranges configured and launches a pass (auto range, as
//    `profile` replays a batch), after a first set configured for the most ranges.
// 3. One launch step of a pass: in auto range (every launch a range; with kernel activity paused,
//    or the checkpoint restored before each pass, as `profile` does), in user range (pushed and
//    popped) and outside any range; and the trap of a first configuration with fewer ranges.
// 4. Enabling, configuring and disabling the range profiler.
// The metric sets: four metrics that fit one pass, and LCS_METRICS (comma-separated) if set.
// Usage: launch_cost_states [N] [ROUNDS]    Output: one JSON object on stdout.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#include <cupti_checkpoint.h>
using namespace NV::Cupti::Checkpoint;
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#define CHECK_CUDA(x) check_cuda((x), #x, __LINE__)
#define CHECK_CUPTI(x) check_cupti((x), #x, __LINE__)

static void check_cuda(cudaError_t r, const char* call, int line) {
  if (r != cudaSuccess) {
    std::fprintf(stderr, "%s failed at line %d: %s\n", call, line, cudaGetErrorString(r));
    std::exit(1);
  }
}

static void check_cupti(CUptiResult r, const char* call, int line) {
  if (r != CUPTI_SUCCESS) {
    const char* s = nullptr;
    cuptiGetResultString(r, &s);
    std::fprintf(stderr, "%s failed at line %d: %s\n", call, line, s ? s : "?");
    std::exit(1);
  }
}

__global__ void empty_kernel(int* p) {
  if (p && threadIdx.x == 1024)
    *p = 1;
}

using clock_type = std::chrono::steady_clock;

static double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

__global__ void hold_kernel(volatile int* flag) {
  while (*flag == 0) {
  }
}

static volatile int* hold_flag = nullptr;

// Host time of `n` launches queued behind a kernel that spins until released, 256 at a time (the
// queue never fills): the launch calls' own cost, apart from the GPU's pace.
static double host_us_per_launch(int n, int rounds) {
  constexpr int chunk = 256;
  std::vector<double> t;
  for (int r = 0; r < rounds; ++r) {
    double s = 0;
    for (int done = 0; done < n; done += chunk) {
      *hold_flag = 0;
      hold_kernel<<<1, 1>>>(hold_flag);
      CHECK_CUDA(cudaGetLastError());
      const auto t0 = clock_type::now();
      for (int i = 0; i < chunk; ++i)
        empty_kernel<<<1, 32>>>(nullptr);
      s += seconds_since(t0);
      *hold_flag = 1;
      CHECK_CUDA(cudaDeviceSynchronize());
    }
    t.push_back(s * 1e6 / (n / chunk * chunk));
  }
  return median(t);
}

static double us_per_launch(int n, int rounds) {
  std::vector<double> t;
  for (int r = 0; r < rounds; ++r) {
    CHECK_CUDA(cudaDeviceSynchronize());
    const auto t0 = clock_type::now();
    for (int i = 0; i < n; ++i)
      empty_kernel<<<1, 32>>>(nullptr);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    t.push_back(seconds_since(t0) * 1e6 / n);
  }
  return median(t);
}

static void CUPTIAPI on_callback(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {}

static void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *size = 8 << 20;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
  *max_records = 0;
}

static long activity_records = 0;

static void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS)
    ++activity_records;
  std::free(buffer);
}

struct profiler {
  CUpti_RangeProfiler_Object* object = nullptr;
  std::vector<uint8_t> config;
  std::vector<uint8_t> data;
};

static std::vector<uint8_t> availability(CUcontext ctx) {
  CUpti_Profiler_GetCounterAvailability_Params p{
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
  p.ctx = ctx;
  CHECK_CUPTI(cuptiProfilerGetCounterAvailability(&p));
  std::vector<uint8_t> image(p.counterAvailabilityImageSize);
  p.pCounterAvailabilityImage = image.data();
  CHECK_CUPTI(cuptiProfilerGetCounterAvailability(&p));
  return image;
}

// The metrics configured: four that fit one pass, or LCS_METRICS (comma-separated) in part two.
static std::vector<const char*> metrics = {"sm__cycles_elapsed.max", "dram__bytes_read.sum",
                                           "smsp__inst_executed.sum", "lts__t_bytes.sum"};

static std::vector<uint8_t> config_image(CUcontext ctx) {
  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = 0;
  CHECK_CUPTI(cuptiDeviceGetChipName(&chip));
  std::vector<uint8_t> avail = availability(ctx);
  CUpti_Profiler_Host_Initialize_Params hi{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  hi.pChipName = chip.pChipName;
  hi.pCounterAvailabilityImage = avail.data();
  CHECK_CUPTI(cuptiProfilerHostInitialize(&hi));
  CUpti_Profiler_Host_ConfigAddMetrics_Params add{
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
  add.pHostObject = hi.pHostObject;
  add.ppMetricNames = metrics.data();
  add.numMetrics = metrics.size();
  CHECK_CUPTI(cuptiProfilerHostConfigAddMetrics(&add));
  CUpti_Profiler_Host_GetConfigImageSize_Params size{
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
  size.pHostObject = hi.pHostObject;
  CHECK_CUPTI(cuptiProfilerHostGetConfigImageSize(&size));
  std::vector<uint8_t> image(size.configImageSize);
  CUpti_Profiler_Host_GetConfigImage_Params get{
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
  get.pHostObject = hi.pHostObject;
  get.configImageSize = image.size();
  get.pConfigImage = image.data();
  CHECK_CUPTI(cuptiProfilerHostGetConfigImage(&get));
  CUpti_Profiler_Host_Deinitialize_Params de{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
  de.pHostObject = hi.pHostObject;
  CHECK_CUPTI(cuptiProfilerHostDeinitialize(&de));
  return image;
}

static void enable(profiler& p, CUcontext ctx) {
  CUpti_RangeProfiler_Enable_Params e{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
  e.ctx = ctx;
  CHECK_CUPTI(cuptiRangeProfilerEnable(&e));
  p.object = e.pRangeProfilerObject;
}

static void disable(profiler& p) {
  CUpti_RangeProfiler_Disable_Params d{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
  d.pRangeProfilerObject = p.object;
  CHECK_CUPTI(cuptiRangeProfilerDisable(&d));
  p.object = nullptr;
}

static void set_config(profiler& p, size_t ranges = 4, CUpti_ProfilerRange mode = CUPTI_UserRange) {
  CUpti_RangeProfiler_GetCounterDataSize_Params s{
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
  s.pRangeProfilerObject = p.object;
  s.pMetricNames = metrics.data();
  s.numMetrics = metrics.size();
  s.maxNumOfRanges = ranges;
  s.maxNumRangeTreeNodes = static_cast<uint32_t>(ranges);
  CHECK_CUPTI(cuptiRangeProfilerGetCounterDataSize(&s));
  p.data.assign(s.counterDataSize, 0);
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params i{
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
  i.pRangeProfilerObject = p.object;
  i.counterDataSize = p.data.size();
  i.pCounterData = p.data.data();
  CHECK_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&i));
  CUpti_RangeProfiler_SetConfig_Params c{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
  c.pRangeProfilerObject = p.object;
  c.configSize = p.config.size();
  c.pConfig = p.config.data();
  c.counterDataImageSize = p.data.size();
  c.pCounterDataImage = p.data.data();
  c.range = mode;
  c.replayMode = CUPTI_UserReplay;
  c.maxRangesPerPass = ranges;
  c.numNestingLevels = 1;
  c.minNestingLevel = 1;
  c.passIndex = 0;
  c.targetNestingLevel = 1;
  CHECK_CUPTI(cuptiRangeProfilerSetConfig(&c));
}

static const CUpti_CallbackId launch_ids[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz};

template <class F> static double timed_us(F f) {
  const auto t0 = clock_type::now();
  f();
  return seconds_since(t0) * 1e6;
}

static void start_pass(const profiler& p) {
  CUpti_RangeProfiler_Start_Params st{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
  st.pRangeProfilerObject = p.object;
  CHECK_CUPTI(cuptiRangeProfilerStart(&st));
}

static bool stop_pass(const profiler& p) { // true when all passes were submitted
  CUpti_RangeProfiler_Stop_Params sp{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
  sp.pRangeProfilerObject = p.object;
  CHECK_CUPTI(cuptiRangeProfilerStop(&sp));
  return sp.isAllPassSubmitted != 0;
}

static size_t decode(const profiler& p) { // returns the ranges in the image
  CUpti_RangeProfiler_DecodeData_Params dd{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
  dd.pRangeProfilerObject = p.object;
  CHECK_CUPTI(cuptiRangeProfilerDecodeData(&dd));
  CUpti_RangeProfiler_GetCounterDataInfo_Params info{
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
  info.pCounterDataImage = p.data.data();
  info.counterDataImageSize = p.data.size();
  CHECK_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&info));
  return info.numTotalRanges;
}

static void push(const profiler& p, const char* name) {
  CUpti_RangeProfiler_PushRange_Params push{CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
  push.pRangeProfilerObject = p.object;
  push.pRangeName = name;
  CHECK_CUPTI(cuptiRangeProfilerPushRange(&push));
}

static void pop(const profiler& p) {
  CUpti_RangeProfiler_PopRange_Params pop{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
  pop.pRangeProfilerObject = p.object;
  CHECK_CUPTI(cuptiRangeProfilerPopRange(&pop));
}

// One set of passes in user range over one launch, as between two idle stretches of a session.
static int run_set(profiler& p) {
  int passes = 0;
  for (bool done = false; !done && passes < 64; ++passes) {
    start_pass(p);
    push(p, "one");
    empty_kernel<<<1, 32>>>(nullptr);
    CHECK_CUDA(cudaGetLastError());
    pop(p);
    done = stop_pass(p);
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  decode(p);
  return passes;
}

static void set_activity(bool on) {
  if (on)
    CHECK_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  else
    CHECK_CUPTI(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
}

// How a set is run: its range mode, which launches are ranges (every one, or one in `every`),
// and what surrounds it.
struct set_plan {
  std::string name;
  CUpti_ProfilerRange mode = CUPTI_AutoRange;
  size_t ranges = 68;
  int launches = 64;
  int every = 1; // user range: one launch in `every` is pushed and popped
  bool pause_activity = false;
  bool checkpoint = false;
};

// Microseconds per launch (and per pass, per set), summed over the sets run.
struct set_result {
  int passes = 0;
  size_t ranges_decoded = 0;
  double sets = 0, config_us = 0, first_start_us = 0, later_starts_us = 0, stops_us = 0;
  double call_us = 0, ranged_call_us = 0, push_pop_us = 0, wait_us = 0, restore_us = 0;
  int ranged = 0, unranged = 0; // launches a set
};

static void run_plan(CUcontext ctx, profiler& p, const set_plan& plan, set_result& r) {
  if (plan.pause_activity)
    set_activity(false);
  CUpti_Checkpoint cp{CUpti_Checkpoint_STRUCT_SIZE};
  cp.ctx = ctx;
  if (plan.checkpoint)
    CHECK_CUPTI(cuptiCheckpointSave(&cp));
  r.config_us += timed_us([&] { set_config(p, plan.ranges, plan.mode); });
  int passes = 0;
  for (bool done = false; !done && passes < 64; ++passes) {
    if (plan.checkpoint)
      r.restore_us += timed_us([&] { CHECK_CUPTI(cuptiCheckpointRestore(&cp)); });
    (passes == 0 ? r.first_start_us : r.later_starts_us) += timed_us([&] { start_pass(p); });
    for (int i = 0; i < plan.launches; ++i) {
      const bool ranged = plan.mode == CUPTI_AutoRange || i % plan.every == 0;
      const std::string name = "r" + std::to_string(i);
      if (ranged && plan.mode == CUPTI_UserRange)
        r.push_pop_us += timed_us([&] { push(p, name.c_str()); });
      const double call = timed_us([&] {
        empty_kernel<<<1, 32>>>(nullptr);
        CHECK_CUDA(cudaGetLastError());
      });
      (ranged ? r.ranged_call_us : r.call_us) += call;
      r.wait_us += timed_us([] { CHECK_CUDA(cudaDeviceSynchronize()); });
      if (ranged && plan.mode == CUPTI_UserRange)
        r.push_pop_us += timed_us([&] { pop(p); });
    }
    r.stops_us += timed_us([&] { done = stop_pass(p); });
  }
  r.ranges_decoded = decode(p);
  r.passes = passes;
  r.sets += 1;
  r.ranged =
      plan.mode == CUPTI_AutoRange ? plan.launches : (plan.launches + plan.every - 1) / plan.every;
  r.unranged = plan.launches - r.ranged;
  if (plan.checkpoint)
    CHECK_CUPTI(cuptiCheckpointFree(&cp));
  if (plan.pause_activity)
    set_activity(true);
}

static void print_result(bool& first, const std::string& metric_set, const set_plan& plan,
                         const set_result& r) {
  const double per_set = r.sets;
  const double per_pass = r.sets * r.passes;
  auto per_launch = [&](double us, int launches) {
    return launches > 0 ? us / (per_pass * launches) : 0.0;
  };
  std::printf("%s  {\"metrics\": \"%s\", \"plan\": \"%s\", \"mode\": \"%s\", \"ranges\": %zu, "
              "\"launches\": %d, \"ranged\": %d, \"passes\": %d, \"ranges_decoded\": %zu, "
              "\"sets\": %.0f,\n   \"us_per_set\": {\"config\": %.1f, \"first_start\": %.1f, "
              "\"later_starts\": %.1f, \"stops\": %.1f, \"restores\": %.1f},\n"
              "   \"us_per_launch_and_pass\": {\"ranged_call\": %.2f, \"push_and_pop\": %.2f, "
              "\"unranged_call\": %.2f, \"wait\": %.2f}}",
              first ? "" : ",\n", metric_set.c_str(), plan.name.c_str(),
              plan.mode == CUPTI_AutoRange ? "auto range" : "user range", plan.ranges,
              plan.launches, r.ranged, r.passes, r.ranges_decoded, r.sets, r.config_us / per_set,
              r.first_start_us / per_set, r.later_starts_us / per_set, r.stops_us / per_set,
              r.restore_us / per_set, per_launch(r.ranged_call_us, r.ranged),
              per_launch(r.push_pop_us, r.ranged), per_launch(r.call_us, r.unranged),
              per_launch(r.wait_us, r.ranged + r.unranged));
  first = false;
  std::fflush(stdout);
}

// Each plan `rounds` times on the enabled profiler, then its line.
static void run_and_print(CUcontext ctx, profiler& p, const std::vector<set_plan>& plans,
                          int rounds, const std::string& metric_set, bool& first) {
  for (const set_plan& plan : plans) {
    set_result r;
    for (int i = 0; i < rounds; ++i)
      run_plan(ctx, p, plan, r);
    print_result(first, metric_set, plan, r);
  }
}

// Parts two and three on one metric set: the range profiler enabled, a first set configured for
// the most ranges (as `profile`'s warm-up), then each plan `rounds` times.
static void run_plans(CUcontext ctx, const std::string& metric_set, int rounds, bool& first) {
  profiler p;
  p.config = config_image(ctx);
  enable(p, ctx);
  set_result warm;
  run_plan(ctx, p, {"first set after enabling", CUPTI_AutoRange, 272, 1}, warm);
  print_result(first, metric_set, {"first set after enabling", CUPTI_AutoRange, 272, 1}, warm);
  const std::vector<set_plan> plans = {
      {"set cost", CUPTI_AutoRange, 4, 2},
      {"set cost", CUPTI_AutoRange, 272, 2},
      {"set cost", CUPTI_AutoRange, 272, 128},
      {"launch step", CUPTI_AutoRange, 68, 64},
      {"launch step, kernel activity paused over the set", CUPTI_AutoRange, 68, 64, 1, true},
      {"launch step, checkpoint restored before each pass", CUPTI_AutoRange, 68, 64, 1, false,
       true},
  };
  run_and_print(ctx, p, plans, rounds, metric_set, first);
  disable(p);
  // User range: CUPTI keeps an enabled profiler's first range mode, so enabled anew.
  enable(p, ctx);
  const set_plan user_first{"first set after enabling", CUPTI_UserRange, 68, 1};
  run_plan(ctx, p, user_first, warm);
  const std::vector<set_plan> user_plans = {
      {"launch step", CUPTI_UserRange, 68, 64, 1},
      {"launch step, one launch in 8 in a range", CUPTI_UserRange, 68, 64, 8},
  };
  run_and_print(ctx, p, user_plans, rounds, metric_set, first);
  disable(p);
  // The trap: a first set configured for 4 ranges, then 64 launches a pass configured for 68.
  enable(p, ctx);
  run_plan(ctx, p, {"", CUPTI_AutoRange, 4, 1}, warm);
  run_and_print(
      ctx, p, {{"launch step after a first set configured for 4 ranges", CUPTI_AutoRange, 68, 64}},
      rounds, metric_set, first);
  disable(p);
}

static std::vector<std::string> named_metrics() {
  std::vector<std::string> named;
  if (const char* env = std::getenv("LCS_METRICS")) {
    const std::string list = env;
    for (size_t at = 0; at < list.size();) {
      const size_t comma = std::min(list.find(',', at), list.size());
      named.push_back(list.substr(at, comma - at));
      at = comma + 1;
    }
  }
  return named;
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 100000;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 5;
  if (n < 1000 || rounds < 1) {
    std::fprintf(stderr, "usage: launch_cost_states [N >= 1000] [ROUNDS >= 1]\n");
    return 2;
  }
  CHECK_CUDA(cudaFree(nullptr));
  int* flag = nullptr;
  CHECK_CUDA(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
  hold_flag = flag;
  CUcontext ctx = nullptr;
  if (cuCtxGetCurrent(&ctx) != CUDA_SUCCESS || !ctx) {
    std::fprintf(stderr, "no current context\n");
    return 1;
  }
  us_per_launch(n, 1); // warm-up
  std::printf("{\"launches\": %d, \"rounds\": %d, \"states_us_per_launch\": [\n", n, rounds);
  auto state = [&](const char* name, bool last = false) {
    const double paced = us_per_launch(n, rounds);
    std::printf("  {\"state\": \"%s\", \"us\": %.3f, \"host_us\": %.3f}%s\n", name, paced,
                host_us_per_launch(n, rounds), last ? "" : ",");
    std::fflush(stdout);
  };
  state("plain");
  CUpti_SubscriberHandle sub = nullptr;
  CHECK_CUPTI(cuptiSubscribe(&sub, on_callback, nullptr));
  for (CUpti_CallbackId id : launch_ids)
    CHECK_CUPTI(cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, id));
  state("+ callback on the launch calls (empty)");
  CHECK_CUPTI(cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_RUNTIME_API,
                                  CUPTI_RUNTIME_TRACE_CBID_cudaLibraryUnload_v12060));
  CHECK_CUPTI(cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_RESOURCE,
                                  CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING));
  CHECK_CUPTI(
      cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED));
  state("+ callbacks on one runtime call and two resource events");
  CHECK_CUPTI(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));
  CHECK_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  CHECK_CUPTI(cuptiActivityFlushPeriod(200));
  state("+ kernel activity");
  CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  CHECK_CUPTI(cuptiProfilerInitialize(&init));
  state("+ profiler initialised");
  profiler p;
  p.config = config_image(ctx);
  enable(p, ctx);
  state("+ range profiler enabled");
  set_config(p);
  state("+ configuration set");
  const int passes = run_set(p);
  state("+ one set of passes run (idle after it)");
  disable(p);
  state("- range profiler disabled");
  CHECK_CUPTI(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  CHECK_CUPTI(cuptiActivityFlushAll(1));
  state("- kernel activity");
  CHECK_CUPTI(cuptiUnsubscribe(sub));
  state("- callback", true);
  std::printf("],\n \"sets\": [\n");
  CHECK_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)); // as in a session
  bool first = true;
  run_plans(ctx, "4 metrics", rounds, first);
  const std::vector<std::string> named = named_metrics();
  if (!named.empty()) {
    metrics.clear();
    for (const auto& m : named)
      metrics.push_back(m.c_str());
    run_plans(ctx, std::to_string(named.size()) + " metrics (LCS_METRICS)", rounds, first);
    metrics = {"sm__cycles_elapsed.max", "dram__bytes_read.sum", "smsp__inst_executed.sum",
               "lts__t_bytes.sum"};
  }
  CHECK_CUPTI(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  std::printf("\n ],\n");
  std::vector<double> on, conf, set, off;
  for (int r = 0; r < rounds; ++r) {
    on.push_back(timed_us([&] { enable(p, ctx); }) / 1e3);
    conf.push_back(timed_us([&] { set_config(p); }) / 1e3);
    set.push_back(timed_us([&] { run_set(p); }) / 1e3);
    off.push_back(timed_us([&] { disable(p); }) / 1e3);
  }
  std::printf(" \"passes\": %d, \"activity_records\": %ld,\n", passes, activity_records);
  std::printf(" \"ms_median\": {\"enable\": %.3f, \"set_config\": %.3f, \"set_of_passes\": %.3f, "
              "\"disable\": %.3f}}\n",
              median(on), median(conf), median(set), median(off));
  return 0;
}
