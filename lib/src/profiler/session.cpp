// The CUPTI range profiler on a live context: auto range + kernel replay, or user range + user
// replay. Call order as in NVIDIA's range_profiling sample (CUDA 12.6+ API).
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "roofkit/core.hpp"
#include "roofkit/profiler.hpp"
#include "roofkit/timing.hpp"

#include "driver_l2_flush.hpp"
#include "internal/clock_probe.hpp"
#include "l2_flush_guard.hpp"
#include "step_layout.hpp"

namespace roofkit {

namespace {

// cuptiProfilerInitialize/DeInitialize are process-wide: count the sessions that use them.
std::mutex init_mutex;
int init_count = 0;

void acquire_profiler() {
  std::lock_guard lock(init_mutex);
  if (init_count == 0) {
    CUpti_Profiler_Initialize_Params p{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    ROOFKIT_CUPTI_CHECK(cuptiProfilerInitialize(&p));
  }
  ++init_count;
}

void release_profiler() noexcept {
  std::lock_guard lock(init_mutex);
  if (--init_count == 0) {
    CUpti_Profiler_DeInitialize_Params p{CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
    cuptiProfilerDeInitialize(&p);
  }
}

struct profiler_ref {
  profiler_ref() { acquire_profiler(); }
  ~profiler_ref() { release_profiler(); }
  profiler_ref(const profiler_ref&) = delete;
  profiler_ref& operator=(const profiler_ref&) = delete;
};

const char* no_gpu_hint = "no CUDA GPU is visible; check nvidia-smi and CUDA_VISIBLE_DEVICES. "
                          "Counters need a GPU; the metric sets of a named chip resolve offline";

// Makes `device` current with its primary context and returns that context.
CUcontext current_context(int device) {
  const int count = visible_device_count();
  if (count == 0)
    throw no_device_error("no CUDA GPU found: GPU counters need a device", no_gpu_hint);
  if (device < 0 || device >= count)
    throw usage_error(fmt::format("device {} does not exist (valid: 0 to {})", device, count - 1));
  ROOFKIT_CUDA_CHECK(cudaSetDevice(device));
  ROOFKIT_CUDA_CHECK(cudaFree(nullptr));
  auto get_current = driver_function<decltype(&cuCtxGetCurrent)>("cuCtxGetCurrent");
  if (get_current == nullptr)
    throw no_device_error("the CUDA driver does not provide cuCtxGetCurrent", no_gpu_hint);
  CUcontext ctx = nullptr;
  ROOFKIT_CU_CHECK(get_current(&ctx));
  return ctx;
}

void check_device_supported(int device) {
  CUpti_Profiler_DeviceSupported_Params p{CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
  p.cuDevice = device;
  p.api = CUPTI_PROFILER_RANGE_PROFILING;
  ROOFKIT_CUPTI_CHECK(cuptiProfilerDeviceSupported(&p));
  if (p.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
    return;
  std::string why;
  auto add = [&](CUpti_Profiler_Support_Level level, const char* text) {
    if (level == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED ||
        level == CUPTI_PROFILER_CONFIGURATION_DISABLED)
      why += (why.empty() ? "" : "; ") + std::string(text);
  };
  add(p.architecture, "the architecture is not supported (needs compute capability 7.5+)");
  add(p.sli, "SLI is enabled");
  if (p.vGpu == CUPTI_PROFILER_CONFIGURATION_DISABLED)
    why += (why.empty() ? "" : "; ") + std::string("profiling is disabled on this vGPU");
  else
    add(p.vGpu, "vGPU is not supported");
  add(p.confidentialCompute, "confidential computing is on");
  add(p.cmp, "crypto-mining processors (CMP) are not supported");
  add(p.wsl, "WSL is not supported");
  if (why.empty())
    why = "reason unknown (MIG instances and MPS are not supported either)";
  throw no_device_error(fmt::format("device {} cannot be profiled: {}", device, why),
                        "timings are still produced; counters need a supported, bare GPU");
}

std::string chip_name_of(int device) {
  CUpti_Device_GetChipName_Params p{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  p.deviceIndex = static_cast<std::size_t>(device);
  ROOFKIT_CUPTI_CHECK(cuptiDeviceGetChipName(&p));
  return p.pChipName ? p.pChipName : "";
}

std::vector<std::uint8_t> counter_availability(CUcontext ctx) {
  CUpti_Profiler_GetCounterAvailability_Params p{
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
  p.ctx = ctx;
  ROOFKIT_CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&p));
  std::vector<std::uint8_t> image(p.counterAvailabilityImageSize);
  p.pCounterAvailabilityImage = image.data();
  ROOFKIT_CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&p));
  return image;
}

// An enabled range profiler on a context; disabled on scope exit.
class enabled_profiler {
public:
  explicit enabled_profiler(CUcontext ctx) {
    CUpti_RangeProfiler_Enable_Params p{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    p.ctx = ctx;
    ROOFKIT_CUPTI_CHECK(cuptiRangeProfilerEnable(&p));
    object_ = p.pRangeProfilerObject;
  }
  ~enabled_profiler() {
    CUpti_RangeProfiler_Disable_Params p{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = object_;
    cuptiRangeProfilerDisable(&p);
  }
  enabled_profiler(const enabled_profiler&) = delete;
  enabled_profiler& operator=(const enabled_profiler&) = delete;
  CUpti_RangeProfiler_Object* get() const { return object_; }

  std::vector<std::uint8_t> counter_data(const std::vector<std::string>& names,
                                         std::size_t ranges) const {
    std::vector<const char*> ptrs;
    for (const auto& n : names)
      ptrs.push_back(n.c_str());
    CUpti_RangeProfiler_GetCounterDataSize_Params s{
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    s.pRangeProfilerObject = object_;
    s.pMetricNames = ptrs.data();
    s.numMetrics = ptrs.size();
    s.maxNumOfRanges = ranges;
    s.maxNumRangeTreeNodes = static_cast<std::uint32_t>(ranges);
    ROOFKIT_CUPTI_CHECK(cuptiRangeProfilerGetCounterDataSize(&s));
    std::vector<std::uint8_t> image(s.counterDataSize);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params i{
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    i.pRangeProfilerObject = object_;
    i.counterDataSize = image.size();
    i.pCounterData = image.data();
    ROOFKIT_CUPTI_CHECK(cuptiRangeProfilerCounterDataImageInitialize(&i));
    return image;
  }

  void set_config(const std::vector<std::uint8_t>& config, std::vector<std::uint8_t>& data,
                  CUpti_ProfilerRange range, CUpti_ProfilerReplayMode replay,
                  std::size_t ranges) const {
    CUpti_RangeProfiler_SetConfig_Params p{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = object_;
    p.configSize = config.size();
    p.pConfig = config.data();
    p.counterDataImageSize = data.size();
    p.pCounterDataImage = data.data();
    p.range = range;
    p.replayMode = replay;
    p.maxRangesPerPass = ranges;
    p.numNestingLevels = 1;
    p.minNestingLevel = 1;
    p.passIndex = 0;
    p.targetNestingLevel = 1;
    ROOFKIT_CUPTI_CHECK(cuptiRangeProfilerSetConfig(&p));
  }

  void start() const {
    CUpti_RangeProfiler_Start_Params p{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = object_;
    ROOFKIT_CUPTI_CHECK(cuptiRangeProfilerStart(&p));
  }

  bool stop() const { // true when all passes were submitted
    CUpti_RangeProfiler_Stop_Params p{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = object_;
    ROOFKIT_CUPTI_CHECK(cuptiRangeProfilerStop(&p));
    return p.isAllPassSubmitted != 0;
  }

  void push(const std::string& name) const {
    CUpti_RangeProfiler_PushRange_Params p{CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = object_;
    p.pRangeName = name.c_str();
    ROOFKIT_CUPTI_CHECK(cuptiRangeProfilerPushRange(&p));
  }

  void pop() const {
    CUpti_RangeProfiler_PopRange_Params p{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = object_;
    ROOFKIT_CUPTI_CHECK(cuptiRangeProfilerPopRange(&p));
  }

  std::size_t decode() const { // returns the number of ranges dropped
    CUpti_RangeProfiler_DecodeData_Params p{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = object_;
    ROOFKIT_CUPTI_CHECK(cuptiRangeProfilerDecodeData(&p));
    return p.numOfRangeDropped;
  }

private:
  CUpti_RangeProfiler_Object* object_ = nullptr;
};

void default_warning(const std::string& text) { std::cerr << "roofkit: warning: " << text << '\n'; }

// Thrown inside a pass when the driver's flush failed and the sweep replaced it: the pass's ranges
// no longer match the call's plan, so the call starts again (with_flush_fallback).
struct flush_fell_back : std::runtime_error {
  flush_fell_back() : std::runtime_error("the driver's L2 flush failed; the sweep replaced it") {}
};

} // namespace

std::string device_chip_name(int device) {
  current_context(device);
  profiler_ref ref;
  return chip_name_of(device);
}

profiler_status check_profiler(int device) noexcept {
  profiler_status s;
  try {
    CUcontext ctx = current_context(device);
    profiler_ref ref;
    check_device_supported(device);
    s.chip = chip_name_of(device);
    counter_availability(ctx);
    enabled_profiler probe(ctx);
    s.ok = true;
  } catch (const error& e) {
    s.message = e.what();
    s.hint = e.hint();
    s.exit = static_cast<int>(e.code());
  } catch (const std::exception& e) {
    s.message = e.what();
    s.exit = static_cast<int>(exit_code::failure);
  }
  return s;
}

namespace {
// Opens the context before the profiler is initialised (cuptiProfilerInitialize needs a driver).
int opened(int device) {
  current_context(device);
  return device;
}
} // namespace

struct profiler_session::impl {
  impl(int dev, profiler_options opts) : device(opened(dev)), options(std::move(opts)) {}

  int device = 0;
  profiler_options options;
  profiler_ref ref;
  CUcontext ctx = nullptr;
  std::string chip;
  std::unique_ptr<cupti_catalog> catalog;
  resolved_set set;
  std::vector<std::uint8_t> config;
  // Cache control "all": the driver's write-back and invalidate of the L2 where it is
  // available and verified (the guard), else `flusher`'s sweep, whose buffer (4 x L2) is then the
  // only one made.
  bool cache_prepared = false;
  int pass_index = 0; // the pass under way, from 0
  std::unique_ptr<detail::l2_flush_guard> guard;
  std::unique_ptr<l2_flusher> flusher;
  profiler_stats stats;
  // The profiler of profile_range() and profile_launch(), kept enabled between their calls
  // (declared after `ref`: disabled before the profiler is deinitialised), and the range mode of
  // its first configuration, which CUPTI keeps for as long as it stays enabled.
  std::unique_ptr<enabled_profiler> range_profiler;
  std::optional<CUpti_ProfilerRange> range_mode;

  // The other modes enable a profiler of their own: one per context at a time.
  void release_range_profiler() {
    range_profiler.reset();
    range_mode.reset();
    images.clear();
  }

  // Passes of `pass_body` under the kept profiler, configured for `mode` and `ranges` ranges a
  // pass, until CUPTI has every pass; returns the decoded counter-data image (valid until the
  // next call).
  const std::vector<std::uint8_t>& kept_passes(CUpti_ProfilerRange mode, std::size_t ranges,
                                               const std::string& what,
                                               const std::function<void()>& pass_body,
                                               const std::function<void()>& before_pass);

  std::vector<range_values> user_replay(const std::function<void()>& body,
                                        const std::function<void()>& before, std::size_t capacity);
  void flush_in_pass(bool synchronise);
  // Cache control in this pass: with the driver's flush, only in the passes of the counters that
  // depend on the cache state; the sweep's launches are ranges of every pass, so it runs in all.
  bool flushes_this_pass() const {
    return cache_prepared && (flusher || set.needs_cold_l2(pass_index));
  }
  void prepare_flusher();
  std::function<void()> open_driver_flush(std::string& why_not);
  // Runs a profiling call; when the driver's flush fails inside it (flush_in_pass), the call is
  // run once more, from its start, with the sweep that replaced it.
  template <class F> auto with_flush_fallback(F&& call) -> decltype(call()) {
    try {
      return call();
    } catch (const flush_fell_back&) {
      release_range_profiler(); // configured for the driver's flush, which adds no range
      return call();
    }
  }
  // Ranges that one flush adds to the profiled context's passes.
  std::size_t flush_ranges() const {
    return flusher ? static_cast<std::size_t>(flusher->launches()) : 0;
  }
  // The most ranges a sequence takes: every launch of the longest sequence, each after its flush
  // (in user range, its measured launches only, the flush outside).
  std::size_t longest_sequence() const {
    const std::size_t steps = std::max<std::size_t>(options.max_launch_sequence, 1);
    return options.step_user_ranges ? steps : steps * (flush_ranges() + 1);
  }
  // The range mode of profile_steps() and of the warm-up before it.
  CUpti_ProfilerRange step_mode() const {
    return options.step_user_ranges ? CUPTI_UserRange : CUPTI_AutoRange;
  }
  // Inside a user-range pass: the range of measured step `index` opens, or closes.
  void push_step(std::size_t index) const {
    if (options.step_user_ranges)
      range_profiler->push(detail::step_range_name(index));
  }
  void pop_step() const {
    if (options.step_user_ranges)
      range_profiler->pop();
  }
  // Ranges the kept auto-range profiler is configured for: the longest sequence's, and one more to
  // see a work that launched a second kernel.
  std::size_t sequence_ranges() const {
    return detail::image_ranges(longest_sequence(), longest_sequence());
  }
  // Counter-data images of the kept profiler by range count: the blank one, made once, and the
  // one a call fills, into which the blank one is copied (with CUPTI's images of 0.6 MiB a range,
  // a new vector for every call cost 1.1 ms per launch at 32 launches a call, the kept one 0.56:
  // validation/data/replay-launch-cost-h200.json).
  struct image_pair {
    std::vector<std::uint8_t> blank;
    std::vector<std::uint8_t> work;
  };
  std::map<std::size_t, image_pair> images;
  // A blank image for `ranges` ranges. CUPTI's own keeps every raw counter's value per unit
  // instance (0.6 MiB a range for the bench's set on GH100; 77 ms to make for 129 ranges), which
  // only the max and min rollups read; the image of totals (1.9 KiB a range) took the training
  // step with every launch profiled from 5.3-6.0 to 4.9-5.1 ms a launch with the same counts
  // (validation/data/totals-image-ab-h200.json).
  std::vector<std::uint8_t> blank_image(const enabled_profiler& rp, std::size_t ranges) const {
    const auto names = set.names();
    return detail::reads_instances(names) ? rp.counter_data(names, ranges)
                                          : catalog->totals_image(names, ranges);
  }
  std::vector<std::uint8_t>& fresh_image(const enabled_profiler& rp, std::size_t ranges) {
    auto [it, made] = images.try_emplace(ranges);
    image_pair& p = it->second;
    if (made) {
      p.blank = blank_image(rp, ranges);
      p.work = p.blank;
      stats.image_bytes = std::max(stats.image_bytes, p.blank.size());
    } else {
      std::copy(p.blank.begin(), p.blank.end(), p.work.begin());
    }
    return p.work;
  }

  // A launch step issued in pass `pass_index`, in `seconds` of host time.
  void note_issue(bool measured, double seconds) {
    stats.issue_s += seconds;
    stats.steps_issued += 1;
    if (!measured) {
      stats.ride_issue_s += seconds;
      stats.ride_steps_issued += 1;
    }
    const auto at = static_cast<std::size_t>(pass_index);
    if (stats.issue_by_pass.size() <= at)
      stats.issue_by_pass.resize(at + 1);
    stats.issue_by_pass[at] += seconds;
  }

  template <class T> void add_pass_times(T p0, T p1, T p2, T p3, T p4) {
    auto seconds = [](T a, T b) { return std::chrono::duration<double>(b - a).count(); };
    stats.before_s += seconds(p0, p1);
    stats.start_s += seconds(p1, p2);
    stats.body_s += seconds(p2, p3);
    stats.stop_s += seconds(p3, p4);
  }

  // Cache control before profile()'s kernel replay, which has no hook between its passes.
  void prepare_pass() {
    prepare_flusher();
    if (cache_prepared) {
      try {
        flush_in_pass(true);
      } catch (const flush_fell_back&) { // outside any pass: the sweep that replaced it counts
      }
    }
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
  }

  void warn(const std::string& text) const {
    if (options.warn)
      options.warn(text);
    else
      default_warning(text);
  }

  std::vector<double> evaluate(const std::vector<std::uint8_t>& data, std::size_t range) const {
    return catalog->evaluate(data, range, set.names());
  }

  // Decodes an auto-range image: one entry per kernel launch, in launch order.
  std::vector<range_values> collect(const enabled_profiler& rp,
                                    const std::vector<std::uint8_t>& data,
                                    std::size_t capacity) const {
    const auto dropped = rp.decode();
    const auto names = cupti_catalog::range_names(data);
    // CUPTI drops launches beyond the image silently (DecodeData reports none in auto range),
    // so a full image is how we know that some were lost.
    if (dropped > 0 || names.size() >= capacity)
      warn(fmt::format("the counter image filled up with {} ranges: any kernel launch after "
                       "those was not profiled; raise profiler_options::max_ranges",
                       names.size()));
    std::vector<range_values> out;
    for (std::size_t i = 0; i < names.size(); ++i)
      out.push_back(to_values(names[i], evaluate(data, i)));
    return out;
  }

  range_values to_values(const std::string& name, const std::vector<double>& v) const {
    range_values r;
    r.name = name;
    const auto names = set.names();
    for (std::size_t i = 0; i < names.size(); ++i)
      r.values[names[i]] = v[i];
    return r;
  }
};

profiler_session::profiler_session(int device, const std::string& set, profiler_options options)
    : profiler_session(device, find_metric_set(set), std::move(options)) {}

profiler_session::profiler_session(int device, const metric_set_def& def, profiler_options options)
    : impl_(std::make_unique<impl>(device, std::move(options))) {
  const auto t0 = std::chrono::steady_clock::now();
  auto& s = *impl_;
  s.ctx = current_context(device);
  check_device_supported(device);
  s.chip = chip_name_of(device);
  s.catalog = std::make_unique<cupti_catalog>(s.chip, counter_availability(s.ctx));
  configured_set configured = configure_metric_set(def, *s.catalog, s.options.config_cache_dir);
  s.set = std::move(configured.set);
  s.config = std::move(configured.config);
  if (s.set.metrics.empty())
    throw runtime_error(
        fmt::format("metric set '{}' has no metric that {} supports", def.name, s.chip));
  for (const auto& w : s.set.warnings())
    s.warn(w);
  s.stats.session_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

profiler_session::~profiler_session() = default;

int profiler_session::passes() const { return impl_->set.passes; }
const resolved_set& profiler_session::metrics() const { return impl_->set; }
const std::string& profiler_session::chip() const { return impl_->chip; }

std::vector<range_values> profiler_session::profile(const std::function<void()>& work) {
  auto& s = *impl_;
  ROOFKIT_CUDA_CHECK(cudaSetDevice(s.device));
  ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
  // One range more than asked, to know when launches were lost (see collect()).
  const std::size_t capacity = s.options.max_ranges + 1;
  s.release_range_profiler();
  s.prepare_pass();
  enabled_profiler rp(s.ctx);
  auto data = s.blank_image(rp, capacity);
  rp.set_config(s.config, data, CUPTI_AutoRange, CUPTI_KernelReplay, capacity);
  rp.start();
  work();
  ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
  rp.stop();
  return s.collect(rp, data, capacity);
}

// Auto range + user replay: `body` is one pass's GPU work, run between start and stop until
// CUPTI has every pass; returns one entry per kernel launch of a pass.
std::vector<range_values> profiler_session::impl::user_replay(const std::function<void()>& body,
                                                              const std::function<void()>& before,
                                                              std::size_t capacity) {
  ROOFKIT_CUDA_CHECK(cudaSetDevice(device));
  ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
  release_range_profiler();
  const auto t0 = std::chrono::steady_clock::now();
  enabled_profiler rp(ctx);
  auto data = blank_image(rp, capacity);
  rp.set_config(config, data, CUPTI_AutoRange, CUPTI_UserReplay, capacity);
  const auto t1 = std::chrono::steady_clock::now();
  bool done = false;
  int pass = 0;
  for (; !done; ++pass) {
    if (pass > set.passes + 1)
      throw runtime_error(fmt::format("the profiled work did not complete in {} passes", pass));
    const auto p0 = std::chrono::steady_clock::now();
    if (before)
      before();
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
    const auto p1 = std::chrono::steady_clock::now();
    pass_index = pass;
    rp.start();
    const auto p2 = std::chrono::steady_clock::now();
    body();
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
    const auto p3 = std::chrono::steady_clock::now();
    done = rp.stop();
    add_pass_times(p0, p1, p2, p3, std::chrono::steady_clock::now());
  }
  const auto t2 = std::chrono::steady_clock::now();
  auto out = collect(rp, data, capacity);
  const auto t3 = std::chrono::steady_clock::now();
  auto seconds = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
  stats.calls += 1;
  stats.passes += pass;
  stats.setup_s += seconds(t0, t1);
  stats.passes_s += seconds(t1, t2);
  stats.decode_s += seconds(t2, t3);
  return out;
}

// With cache control each work's flush runs inside the pass, after the profiler has started
// (its own set-up writes device memory): the driver's, which launches nothing and is always
// synchronous, or the sweep, a launch of its own whose range is dropped. The flusher is made
// before any pass: making it launches work of its own. A synchronised flush is waited for and
// timed (profiler_stats::flush_s).
void profiler_session::impl::flush_in_pass(bool synchronise) {
  const auto t0 = std::chrono::steady_clock::now();
  if (guard->uses_driver()) {
    // Synchronous: everything before it has finished and nothing after it has started.
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
    if (guard->flush() == detail::flushed_by::fell_back) {
      ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
      throw flush_fell_back();
    }
  } else {
    guard->flush();
    if (!synchronise)
      return;
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
  }
  stats.flush_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The driver's flush where the version gate allows it and the driver accepts it; else empty, with
// the reason.
std::function<void()> profiler_session::impl::open_driver_flush(std::string& why_not) {
  std::string version_error;
  const std::string version = detail::kernel_driver_version(version_error);
  why_not =
      detail::driver_flush_refusal(std::getenv(detail::driver_flush_env), version, version_error);
  if (!why_not.empty())
    return {};
  std::shared_ptr<const detail::driver_l2_flush> driver =
      detail::driver_l2_flush::open_device(device, why_not);
  if (!driver)
    return {};
  return [driver] { driver->flush(); };
}

void profiler_session::impl::prepare_flusher() {
  if (options.cache != cache_control::all || cache_prepared)
    return;
  ROOFKIT_CUDA_CHECK(cudaSetDevice(device));
  std::string why_not = "not asked for (profiler_options::driver_flush)";
  std::function<void()> driver;
  std::function<void(const std::string&)> say;
  if (options.driver_flush) {
    driver = open_driver_flush(why_not);
    say = [this](const std::string& text) { warn(text); };
  }
  auto make_sweep = [this]() -> std::function<void()> {
    flusher = std::make_unique<l2_flusher>(device);
    return [this] { flusher->flush(nullptr); };
  };
  guard = std::make_unique<detail::l2_flush_guard>(std::move(driver), std::move(why_not),
                                                   make_sweep, std::move(say));
  guard->prepare();
  cache_prepared = true;
}

std::vector<range_values>
profiler_session::profile_launches(const std::function<void()>& work,
                                   const std::function<void()>& before_pass) {
  auto& s = *impl_;
  return s.with_flush_fallback([&] {
    s.prepare_flusher();
    const std::size_t flush_ranges = s.flush_ranges();
    auto out = s.user_replay(
        [&] {
          if (s.flushes_this_pass())
            s.flush_in_pass(false);
          work();
        },
        before_pass, s.options.max_ranges + 1 + flush_ranges);
    out.erase(out.begin(), out.begin() + std::ptrdiff_t(std::min(flush_ranges, out.size())));
    return out;
  });
}

std::vector<std::vector<range_values>>
profiler_session::profile_batch(const std::vector<batch_work>& works,
                                const std::function<void()>& before_pass) {
  auto& s = *impl_;
  return s.with_flush_fallback([&] {
    s.prepare_flusher();
    const std::size_t flush_ranges = s.flush_ranges();
    std::size_t expected = 0;
    for (const auto& w : works)
      expected += w.launches + flush_ranges;
    auto ranges = s.user_replay(
        [&] {
          for (const auto& w : works) {
            if (w.before)
              w.before();
            if (s.flushes_this_pass())
              s.flush_in_pass(false);
            w.work();
          }
        },
        before_pass, expected + 1);
    if (ranges.size() != expected)
      throw runtime_error(fmt::format("the batch launched {} kernels per pass, {} expected from "
                                      "the works' launch counts",
                                      ranges.size(), expected));
    std::vector<std::vector<range_values>> out;
    std::size_t next = 0;
    for (const auto& w : works) {
      next += flush_ranges;
      out.emplace_back(ranges.begin() + std::ptrdiff_t(next),
                       ranges.begin() + std::ptrdiff_t(next + w.launches));
      next += w.launches;
    }
    return out;
  });
}

profiler_stats& profiler_stats::operator+=(const profiler_stats& o) {
  calls += o.calls;
  passes += o.passes;
  for (auto [mine, theirs] : {std::pair{&setup_s, o.setup_s},
                              {&passes_s, o.passes_s},
                              {&decode_s, o.decode_s},
                              {&before_s, o.before_s},
                              {&start_s, o.start_s},
                              {&body_s, o.body_s},
                              {&flush_s, o.flush_s},
                              {&issue_s, o.issue_s},
                              {&wait_s, o.wait_s},
                              {&stop_s, o.stop_s},
                              {&image_s, o.image_s},
                              {&config_s, o.config_s},
                              {&first_start_s, o.first_start_s},
                              {&ride_issue_s, o.ride_issue_s},
                              {&session_s, o.session_s}})
    *mine += theirs;
  steps_issued += o.steps_issued;
  ride_steps_issued += o.ride_steps_issued;
  if (issue_by_pass.size() < o.issue_by_pass.size())
    issue_by_pass.resize(o.issue_by_pass.size());
  for (std::size_t i = 0; i < o.issue_by_pass.size(); ++i)
    issue_by_pass[i] += o.issue_by_pass[i];
  image_bytes = std::max(image_bytes, o.image_bytes);
  return *this;
}

const profiler_stats& profiler_session::stats() const { return impl_->stats; }

std::string profiler_session::cache_control_method() const {
  const auto& s = *impl_;
  if (s.options.cache == cache_control::none)
    return "none";
  if (!s.guard)
    return s.options.driver_flush ? "driver" : "sweep";
  return s.guard->method();
}

int profiler_session::cache_controlled_passes() const {
  const auto& s = *impl_;
  if (s.options.cache == cache_control::none)
    return 0;
  // The sweep's kernels are ranges of every pass, so it runs before each (flushes_this_pass).
  const bool sweep = cache_control_method() == "sweep";
  return sweep ? s.set.passes : s.set.flushed_passes();
}

std::string profiler_session::cache_control_fallback_reason() const {
  const auto& s = *impl_;
  return s.options.cache == cache_control::all && s.guard ? s.guard->fallback_reason() : "";
}

void profiler_session::enable_range_profiler() {
  auto& s = *impl_;
  ROOFKIT_CUDA_CHECK(cudaSetDevice(s.device));
  if (s.range_profiler)
    return;
  s.range_profiler = std::make_unique<enabled_profiler>(s.ctx);
  s.prepare_flusher();
  // CUPTI takes device memory of its own when a pass first starts (with 160 MB of the H100
  // free, cuptiRangeProfilerStart failed with CUPTI_ERROR_UNKNOWN): start the passes once now,
  // in the mode and with the set of profile_launch(), on the sweep's kernels or, with the
  // driver's flush (no kernel, no buffer), on a kernel of a few hundred cycles.
  if (!s.cache_prepared)
    return;
  void* elapsed = nullptr;
  if (!s.flusher)
    ROOFKIT_CUDA_CHECK(cudaMalloc(&elapsed, sizeof(long long)));
  const std::unique_ptr<void, decltype(&cudaFree)> elapsed_owner(elapsed, &cudaFree);
  // CUPTI keeps this first configuration: a warm-up configured for fewer ranges than a later call
  // made that call's launches fail (validation/data/replay-set-h200.json).
  s.kept_passes(s.step_mode(), s.sequence_ranges(), "the warm-up",
                [&] {
                  s.push_step(0);
                  if (s.flusher) {
                    s.flusher->flush(nullptr);
                  } else {
                    detail::launch_clock_probe(200, static_cast<long long*>(elapsed), nullptr);
                    ROOFKIT_CUDA_CHECK_LAUNCH();
                  }
                  ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
                  s.pop_step();
                },
                {});
}

void profiler_session::context_lost() {
  impl_->release_range_profiler();
  (void)impl_->flusher.release(); // its buffer went with the context: not freed (no CUDA call)
  impl_->guard.reset();
  impl_->cache_prepared = false;
}

void profiler_session::release_range_profiler() {
  ROOFKIT_CUDA_CHECK(cudaSetDevice(impl_->device));
  impl_->release_range_profiler();
}

const std::vector<std::uint8_t>&
profiler_session::impl::kept_passes(CUpti_ProfilerRange mode, std::size_t ranges,
                                    const std::string& what, const std::function<void()>& pass_body,
                                    const std::function<void()>& before_pass) {
  ROOFKIT_CUDA_CHECK(cudaSetDevice(device));
  ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
  const auto t0 = std::chrono::steady_clock::now();
  // Enabling the range profiler is what makes a pass set expensive (the first pass after it
  // took 150-200 ms on the H200, a later one 0-7 ms for a one-pass set: roofkit-profiler-cost),
  // so it stays enabled between calls; each call configures a fresh image. CUPTI keeps the first
  // configuration of an enabled profiler, so another range mode needs it enabled anew.
  if (range_mode && *range_mode != mode)
    release_range_profiler();
  if (!range_profiler)
    range_profiler = std::make_unique<enabled_profiler>(ctx);
  const enabled_profiler& rp = *range_profiler;
  const auto ti = std::chrono::steady_clock::now();
  std::vector<std::uint8_t>& data = fresh_image(rp, ranges);
  const auto tc = std::chrono::steady_clock::now();
  rp.set_config(config, data, mode, CUPTI_UserReplay, ranges);
  range_mode = mode;
  const auto t1 = std::chrono::steady_clock::now();
  stats.image_s += std::chrono::duration<double>(tc - ti).count();
  stats.config_s += std::chrono::duration<double>(t1 - tc).count();
  bool done = false;
  bool started = false;
  int pass = 0;
  try {
    for (; !done; ++pass) {
      if (pass > set.passes + 1)
        throw runtime_error(fmt::format("{} did not complete in {} passes", what, pass));
      const auto p0 = std::chrono::steady_clock::now();
      if (before_pass)
        before_pass();
      ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
      const auto p1 = std::chrono::steady_clock::now();
      pass_index = pass;
      rp.start();
      started = true;
      const auto p2 = std::chrono::steady_clock::now();
      if (pass == 0)
        stats.first_start_s += std::chrono::duration<double>(p2 - p1).count();
      pass_body();
      const auto p3 = std::chrono::steady_clock::now();
      started = false;
      done = rp.stop();
      add_pass_times(p0, p1, p2, p3, std::chrono::steady_clock::now());
    }
  } catch (...) {
    // A call that fails part-way leaves the profiler inside a set of passes: end the pass it
    // started, and enable the profiler anew at the next call.
    if (started) {
      try {
        rp.stop();
      } catch (const std::exception&) {
      }
    }
    release_range_profiler();
    throw;
  }
  const auto t2 = std::chrono::steady_clock::now();
  rp.decode();
  auto seconds = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
  stats.calls += 1;
  stats.passes += pass;
  stats.setup_s += seconds(t0, t1);
  stats.passes_s += seconds(t1, t2);
  return data;
}

range_values profiler_session::profile_range(const std::string& name,
                                             const std::function<void()>& work,
                                             const std::function<void()>& before_pass) {
  auto& s = *impl_;
  return s.with_flush_fallback([&] {
    s.prepare_flusher();
    const auto& data = s.kept_passes(
        CUPTI_UserRange, 1, fmt::format("range '{}'", name),
        [&] {
          // Cache control after the profiler's own set-up, outside the range: not counted.
          if (s.flushes_this_pass())
            s.flush_in_pass(true);
          s.range_profiler->push(name);
          work();
          ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
          s.range_profiler->pop();
        },
        before_pass);
    const auto t0 = std::chrono::steady_clock::now();
    const auto names = cupti_catalog::range_names(data);
    if (names.empty())
      throw runtime_error(fmt::format("range '{}' produced no counter data", name));
    auto out = s.to_values(names.front(), s.evaluate(data, 0));
    s.stats.decode_s +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
  });
}

range_values profiler_session::profile_launch(const std::function<void()>& work,
                                              const std::function<void()>& before_pass) {
  return profile_launch_sequence({work}, before_pass).front();
}

std::vector<range_values>
profiler_session::profile_launch_sequence(const std::vector<std::function<void()>>& works,
                                          const std::function<void()>& before_pass) {
  std::vector<sequence_step> steps;
  steps.reserve(works.size());
  for (const auto& w : works)
    steps.push_back({w, true, true});
  return profile_steps(steps, before_pass);
}

namespace {
// The measured steps' ranges of an auto-range pass: every kernel a range, so a pass that gave
// another count than the layout's launched more or fewer kernels than its steps declare.
std::vector<std::size_t> auto_ranges(const std::vector<std::string>& names,
                                     const detail::step_layout& layout, std::size_t steps,
                                     std::size_t flush_ranges) {
  if (names.size() == layout.ranges)
    return layout.measured_at;
  if (steps == 1) {
    const std::size_t kernels = names.size() < flush_ranges ? 0 : names.size() - flush_ranges;
    throw runtime_error(fmt::format("the profiled work launched {} kernels a pass, 1 expected",
                                    kernels > 1 ? "2 or more" : std::to_string(kernels)));
  }
  throw runtime_error(fmt::format("the {} profiled steps gave {} ranges a pass, {} expected (one "
                                  "kernel per launch step)",
                                  steps, names.size(), layout.ranges));
}
} // namespace

std::vector<range_values>
profiler_session::profile_steps(const std::vector<sequence_step>& steps,
                                const std::function<void()>& before_pass) {
  auto& s = *impl_;
  const std::size_t n = steps.size();
  if (n == 0)
    return {};
  if (n > s.options.max_launch_sequence)
    throw usage_error(fmt::format("{} launches in one sequence; this session takes 1 to {}", n,
                                  s.options.max_launch_sequence));
  return s.with_flush_fallback([&] {
    s.prepare_flusher();
    const bool user = s.options.step_user_ranges;
    const std::size_t flush_ranges = user ? 0 : s.flush_ranges();
    const detail::step_layout layout =
        user ? detail::lay_out_user_range_steps(steps) : detail::lay_out_steps(steps, flush_ranges);
    const std::size_t ranges = layout.ranges;
    const auto& data = s.kept_passes(
        s.step_mode(), detail::image_ranges(ranges, s.longest_sequence()),
        n == 1 ? "the launch" : "the launches",
        [&] {
          // In auto range the flush's kernel(s) are ranges of their own, dropped below; in user
          // range they run before the step's range opens. Each step is waited for, as the steps
          // may run on other streams.
          std::size_t measured = 0;
          for (const auto& step : steps) {
            if (step.measured && s.flushes_this_pass())
              s.flush_in_pass(true);
            if (step.measured)
              s.push_step(measured++);
            const auto issued = std::chrono::steady_clock::now();
            step.work();
            const auto waited = std::chrono::steady_clock::now();
            ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
            if (step.measured)
              s.pop_step();
            s.note_issue(step.measured, std::chrono::duration<double>(waited - issued).count());
            s.stats.wait_s +=
                std::chrono::duration<double>(std::chrono::steady_clock::now() - waited).count();
          }
        },
        before_pass);
    const auto t0 = std::chrono::steady_clock::now();
    const auto names = cupti_catalog::range_names(data);
    const std::vector<std::size_t> at =
        user ? detail::step_ranges_by_name(names, layout.measured_at.size())
             : auto_ranges(names, layout, n, flush_ranges);
    std::vector<range_values> out;
    out.reserve(at.size());
    for (const std::size_t range : at)
      out.push_back(s.to_values(names[range], s.evaluate(data, range)));
    s.stats.decode_s +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
  });
}

} // namespace roofkit
