// CUPTI profiler host API: works offline, without a GPU or a driver.
#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <fmt/format.h>
#include <nvperf_cuda_host.h>
#include <nvperf_host.h>

#include "roofkit/core.hpp"
#include "roofkit/profiler.hpp"

namespace roofkit {

namespace {

// Runs its function when the scope ends, however it ends: the Perfworks objects' clean-up.
template <class F> struct at_scope_exit {
  F f;
  ~at_scope_exit() { f(); }
};
template <class F> at_scope_exit(F) -> at_scope_exit<F>;

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items)
    out += (out.empty() ? "" : ", ") + s;
  return out;
}

// One host object, deinitialised on scope exit.
class host_object {
public:
  host_object(const std::string& chip, const std::vector<std::uint8_t>& availability) {
    CUpti_Profiler_Host_Initialize_Params p{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    p.pChipName = chip.c_str();
    p.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
    ROOFKIT_CUPTI_CHECK(cuptiProfilerHostInitialize(&p));
    object_ = p.pHostObject;
  }
  ~host_object() {
    CUpti_Profiler_Host_Deinitialize_Params p{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    p.pHostObject = object_;
    cuptiProfilerHostDeinitialize(&p);
  }
  host_object(const host_object&) = delete;
  host_object& operator=(const host_object&) = delete;
  CUpti_Profiler_Host_Object* get() const { return object_; }

private:
  CUpti_Profiler_Host_Object* object_ = nullptr;
};

std::vector<const char*> c_names(const std::vector<std::string>& names) {
  std::vector<const char*> out;
  out.reserve(names.size());
  for (const auto& n : names)
    out.push_back(n.c_str());
  return out;
}

// Each ConfigAddMetrics call adds a group that CUPTI schedules in passes of its own, after the
// earlier groups' (checked offline on GH100: the passes of two groups add up).
std::vector<std::uint8_t> build_config(const host_object& host,
                                       const std::vector<std::vector<std::string>>& groups) {
  for (const auto& names : groups) {
    auto ptrs = c_names(names);
    CUpti_Profiler_Host_ConfigAddMetrics_Params add{
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    add.pHostObject = host.get();
    add.ppMetricNames = ptrs.data();
    add.numMetrics = ptrs.size();
    ROOFKIT_CUPTI_CHECK(cuptiProfilerHostConfigAddMetrics(&add));
  }

  CUpti_Profiler_Host_GetConfigImageSize_Params size{
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
  size.pHostObject = host.get();
  ROOFKIT_CUPTI_CHECK(cuptiProfilerHostGetConfigImageSize(&size));

  std::vector<std::uint8_t> image(size.configImageSize);
  CUpti_Profiler_Host_GetConfigImage_Params get{
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
  get.pHostObject = host.get();
  get.configImageSize = image.size();
  get.pConfigImage = image.data();
  ROOFKIT_CUPTI_CHECK(cuptiProfilerHostGetConfigImage(&get));
  return image;
}

// The raw counters behind `names` on `chip`, through the Perfworks metrics evaluator.
std::vector<std::string> raw_counters_of(const std::string& chip,
                                         const std::vector<std::string>& names) {
  NVPW_InitializeHost_Params ih{NVPW_InitializeHost_Params_STRUCT_SIZE};
  ROOFKIT_NVPW_CHECK(NVPW_InitializeHost(&ih));
  NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize_Params sp{
      NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize_Params_STRUCT_SIZE};
  sp.pChipName = chip.c_str();
  ROOFKIT_NVPW_CHECK(NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize(&sp));
  std::vector<std::uint8_t> scratch(sp.scratchBufferSize);
  NVPW_CUDA_MetricsEvaluator_Initialize_Params ep{
      NVPW_CUDA_MetricsEvaluator_Initialize_Params_STRUCT_SIZE};
  ep.pScratchBuffer = scratch.data();
  ep.scratchBufferSize = scratch.size();
  ep.pChipName = chip.c_str();
  ROOFKIT_NVPW_CHECK(NVPW_CUDA_MetricsEvaluator_Initialize(&ep));
  const at_scope_exit destroyed{[&ep] {
    NVPW_MetricsEvaluator_Destroy_Params d{NVPW_MetricsEvaluator_Destroy_Params_STRUCT_SIZE};
    d.pMetricsEvaluator = ep.pMetricsEvaluator;
    NVPW_MetricsEvaluator_Destroy(&d);
  }};
  std::vector<std::string> out;
  for (const auto& name : names) {
    NVPW_MetricEvalRequest req{};
    NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest_Params q{
        NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest_Params_STRUCT_SIZE};
    q.pMetricsEvaluator = ep.pMetricsEvaluator;
    q.pMetricName = name.c_str();
    q.pMetricEvalRequest = &req;
    q.metricEvalRequestStructSize = NVPW_MetricEvalRequest_STRUCT_SIZE;
    ROOFKIT_NVPW_CHECK(NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest(&q));
    NVPW_MetricsEvaluator_GetMetricRawDependencies_Params rp{
        NVPW_MetricsEvaluator_GetMetricRawDependencies_Params_STRUCT_SIZE};
    rp.pMetricsEvaluator = ep.pMetricsEvaluator;
    rp.pMetricEvalRequests = &req;
    rp.numMetricEvalRequests = 1;
    rp.metricEvalRequestStructSize = NVPW_MetricEvalRequest_STRUCT_SIZE;
    rp.metricEvalRequestStrideSize = sizeof(req);
    ROOFKIT_NVPW_CHECK(NVPW_MetricsEvaluator_GetMetricRawDependencies(&rp)); // the counts
    std::vector<const char*> deps(rp.numRawDependencies);
    std::vector<const char*> optional(rp.numOptionalRawDependencies);
    rp.ppRawDependencies = deps.data();
    rp.ppOptionalRawDependencies = optional.data();
    ROOFKIT_NVPW_CHECK(NVPW_MetricsEvaluator_GetMetricRawDependencies(&rp)); // the names
    for (const char* d : deps)
      if (std::find(out.begin(), out.end(), d) == out.end())
        out.emplace_back(d);
  }
  return out;
}

// The counter-data prefix of `raws`, keeping totals only (no value per unit instance).
std::vector<std::uint8_t> totals_prefix(const std::string& chip,
                                        const std::vector<std::string>& raws) {
  NVPW_CUDA_CounterDataBuilder_Create_Params c{
      NVPW_CUDA_CounterDataBuilder_Create_Params_STRUCT_SIZE};
  c.pChipName = chip.c_str();
  ROOFKIT_NVPW_CHECK(NVPW_CUDA_CounterDataBuilder_Create(&c));
  const at_scope_exit destroyed{[&c] {
    NVPW_CounterDataBuilder_Destroy_Params d{NVPW_CounterDataBuilder_Destroy_Params_STRUCT_SIZE};
    d.pCounterDataBuilder = c.pCounterDataBuilder;
    NVPW_CounterDataBuilder_Destroy(&d);
  }};
  std::vector<NVPA_RawMetricRequest> reqs;
  for (const auto& r : raws) {
    NVPA_RawMetricRequest q{NVPA_RAW_METRIC_REQUEST_STRUCT_SIZE};
    q.pMetricName = r.c_str();
    q.isolated = true;
    q.keepInstances = false;
    reqs.push_back(q);
  }
  NVPW_CounterDataBuilder_AddMetrics_Params a{
      NVPW_CounterDataBuilder_AddMetrics_Params_STRUCT_SIZE};
  a.pCounterDataBuilder = c.pCounterDataBuilder;
  a.pRawMetricRequests = reqs.data();
  a.numMetricRequests = reqs.size();
  ROOFKIT_NVPW_CHECK(NVPW_CounterDataBuilder_AddMetrics(&a));
  NVPW_CounterDataBuilder_GetCounterDataPrefix_Params g{
      NVPW_CounterDataBuilder_GetCounterDataPrefix_Params_STRUCT_SIZE};
  g.pCounterDataBuilder = c.pCounterDataBuilder;
  ROOFKIT_NVPW_CHECK(NVPW_CounterDataBuilder_GetCounterDataPrefix(&g)); // the size
  std::vector<std::uint8_t> prefix(g.bytesCopied);
  g.bytesAllocated = prefix.size();
  g.pBuffer = prefix.data();
  ROOFKIT_NVPW_CHECK(NVPW_CounterDataBuilder_GetCounterDataPrefix(&g));
  return prefix;
}

} // namespace

std::vector<std::string> supported_chips() {
  CUpti_Profiler_Host_GetSupportedChips_Params p{
      CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE};
  ROOFKIT_CUPTI_CHECK(cuptiProfilerHostGetSupportedChips(&p));
  std::vector<std::string> chips(p.ppChipNames, p.ppChipNames + p.numChips);
  std::sort(chips.begin(), chips.end());
  return chips;
}

std::string normalize_chip_name(const std::string& chip) {
  std::string upper = chip;
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  const auto chips = supported_chips();
  if (std::find(chips.begin(), chips.end(), upper) == chips.end())
    throw usage_error(fmt::format("unknown chip '{}' (valid: {})", chip, joined(chips)));
  return upper;
}

int max_metrics_per_pass(const std::string& chip) {
  CUpti_Profiler_Host_GetMaxNumHardwareMetricsPerPass_Params p{
      CUpti_Profiler_Host_GetMaxNumHardwareMetricsPerPass_Params_STRUCT_SIZE};
  p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  p.pChipName = chip.c_str();
  const CUptiResult status = cuptiProfilerHostGetMaxNumHardwareMetricsPerPass(&p);
  if (status == CUPTI_ERROR_NOT_SUPPORTED) // e.g. GV11B: no range profiler on that chip
    return 0;
  ROOFKIT_CUPTI_CHECK(status);
  return static_cast<int>(p.maxMetricsPerPass);
}

struct cupti_catalog::impl {
  std::string chip;
  std::vector<std::uint8_t> availability;
  host_object host;
  mutable std::mutex mutex;
  mutable std::map<std::string, std::pair<bool, std::string>> properties;

  impl(std::string c, std::vector<std::uint8_t> a)
      : chip(std::move(c)), availability(std::move(a)), host(chip, availability) {}

  const std::pair<bool, std::string>& lookup(const std::string& name) const {
    std::lock_guard lock(mutex);
    auto it = properties.find(name);
    if (it != properties.end())
      return it->second;
    CUpti_Profiler_Host_GetMetricProperties_Params p{
        CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
    p.pHostObject = host.get();
    p.pMetricName = name.c_str();
    const bool ok = cuptiProfilerHostGetMetricProperties(&p) == CUPTI_SUCCESS;
    std::string text = ok && p.pDescription ? p.pDescription : "";
    return properties.emplace(name, std::make_pair(ok, std::move(text))).first->second;
  }
};

cupti_catalog::cupti_catalog(const std::string& chip, std::vector<std::uint8_t> availability)
    : impl_(std::make_unique<impl>(normalize_chip_name(chip), std::move(availability))) {}

cupti_catalog::~cupti_catalog() = default;

std::string cupti_catalog::chip() const { return impl_->chip; }

const std::vector<std::uint8_t>& cupti_catalog::availability() const { return impl_->availability; }

bool cupti_catalog::has(const std::string& name) const { return impl_->lookup(name).first; }

std::string cupti_catalog::description(const std::string& name) const {
  return impl_->lookup(name).second;
}

std::vector<std::uint8_t> cupti_catalog::config_image(const std::vector<std::string>& names) const {
  return config_image(std::vector<std::vector<std::string>>{names});
}

std::vector<std::uint8_t>
cupti_catalog::config_image(const std::vector<std::vector<std::string>>& groups) const {
  // ConfigAddMetrics accumulates, so every image gets a fresh host object.
  host_object host(impl_->chip, impl_->availability);
  return build_config(host, groups);
}

int cupti_catalog::image_passes(const std::vector<std::uint8_t>& config_image) {
  CUpti_Profiler_Host_GetNumOfPasses_Params p{
      CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
  p.configImageSize = config_image.size();
  p.pConfigImage = const_cast<std::uint8_t*>(config_image.data()); // read only (an [in] buffer)
  ROOFKIT_CUPTI_CHECK(cuptiProfilerHostGetNumOfPasses(&p));
  return static_cast<int>(p.numOfPasses);
}

int cupti_catalog::passes(const std::vector<std::string>& names) const {
  return image_passes(config_image(names));
}

std::vector<std::uint8_t> cupti_catalog::totals_image(const std::vector<std::string>& names,
                                                      std::size_t ranges) const {
  const auto prefix = totals_prefix(impl_->chip, raw_counters_of(impl_->chip, names));
  CUpti_Profiler_CounterDataImageOptions o{CUpti_Profiler_CounterDataImageOptions_STRUCT_SIZE};
  o.pCounterDataPrefix = prefix.data();
  o.counterDataPrefixSize = prefix.size();
  o.maxNumRanges = static_cast<std::uint32_t>(ranges);
  o.maxNumRangeTreeNodes = static_cast<std::uint32_t>(ranges);
  o.maxRangeNameLength = 256;
  CUpti_Profiler_CounterDataImage_CalculateSize_Params cs{
      CUpti_Profiler_CounterDataImage_CalculateSize_Params_STRUCT_SIZE};
  cs.sizeofCounterDataImageOptions = CUpti_Profiler_CounterDataImageOptions_STRUCT_SIZE;
  cs.pOptions = &o;
  ROOFKIT_CUPTI_CHECK(cuptiProfilerCounterDataImageCalculateSize(&cs));
  std::vector<std::uint8_t> image(cs.counterDataImageSize);
  CUpti_Profiler_CounterDataImage_Initialize_Params ci{
      CUpti_Profiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
  ci.sizeofCounterDataImageOptions = CUpti_Profiler_CounterDataImageOptions_STRUCT_SIZE;
  ci.pOptions = &o;
  ci.counterDataImageSize = image.size();
  ci.pCounterDataImage = image.data();
  ROOFKIT_CUPTI_CHECK(cuptiProfilerCounterDataImageInitialize(&ci));
  return image;
}

std::vector<double> cupti_catalog::evaluate(const std::vector<std::uint8_t>& counter_data,
                                            std::size_t range,
                                            const std::vector<std::string>& names) const {
  auto ptrs = c_names(names);
  std::vector<double> values(names.size(), 0.0);
  CUpti_Profiler_Host_EvaluateToGpuValues_Params p{
      CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
  p.pHostObject = impl_->host.get();
  p.pCounterDataImage = counter_data.data();
  p.counterDataImageSize = counter_data.size();
  p.rangeIndex = range;
  p.ppMetricNames = ptrs.data();
  p.numMetrics = ptrs.size();
  p.pMetricValues = values.data();
  std::lock_guard lock(impl_->mutex);
  ROOFKIT_CUPTI_CHECK(cuptiProfilerHostEvaluateToGpuValues(&p));
  return values;
}

std::vector<std::string> cupti_catalog::range_names(const std::vector<std::uint8_t>& counter_data) {
  CUpti_RangeProfiler_GetCounterDataInfo_Params info{
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
  info.pCounterDataImage = counter_data.data();
  info.counterDataImageSize = counter_data.size();
  ROOFKIT_CUPTI_CHECK(cuptiRangeProfilerGetCounterDataInfo(&info));
  std::vector<std::string> names;
  for (std::size_t i = 0; i < info.numTotalRanges; ++i) {
    CUpti_RangeProfiler_CounterData_GetRangeInfo_Params r{
        CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE};
    r.pCounterDataImage = counter_data.data();
    r.counterDataImageSize = counter_data.size();
    r.rangeIndex = i;
    r.rangeDelimiter = "/";
    ROOFKIT_CUPTI_CHECK(cuptiRangeProfilerCounterDataGetRangeInfo(&r));
    names.emplace_back(r.rangeName ? r.rangeName : "");
  }
  return names;
}

} // namespace roofkit
