// Which hardware counter domains the bench's metric set programs, offline (Perfworks host API,
// no GPU): every metric's raw counters and the domains each can be collected from. What a replay
// pass costs to start and stop is the driver's register operations for the domains it programs
// (validation/lab/host-waits.sh); a counter with a single domain cannot be moved to a cheaper one.
// One JSON object per metric on stdout. Build against the library (see validation/lab/README.md):
//   g++ -std=c++20 -Ilib/include -I$CUDA_HOME/include validation/lab/counter_domains.cpp
//       build/ci/lib/libroofkit.a -L$CUDA_HOME/lib64 -lcupti -lnvperf_host -lcudart -ldl -lpthread
//   ./a.out [CHIP]   (default GH100)
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <nvperf_cuda_host.h>
#include <nvperf_host.h>

#include "roofkit/bench.hpp"
#include "roofkit/profiler.hpp"

namespace {

void check(NVPA_Status s, const char* call) {
  if (s != NVPA_STATUS_SUCCESS)
    throw std::runtime_error(std::string(call) + " failed: " + std::to_string(s));
}
#define NVPW_CHECK(call) check(call, #call)

std::string domain_name(std::uint32_t d) {
  NVPW_RawCounterConfig_RawCounterDomainToString_Params p{
      NVPW_RawCounterConfig_RawCounterDomainToString_Params_STRUCT_SIZE};
  p.domain = d;
  if (NVPW_RawCounterConfig_RawCounterDomainToString(&p) != NVPA_STATUS_SUCCESS || !p.pDomainName)
    return std::to_string(d);
  return p.pDomainName;
}

// The metric evaluator and a raw-counter configuration with a pass group open on every domain.
class chip_counters {
public:
  explicit chip_counters(const std::string& chip) : chip_(chip) {
    NVPW_InitializeHost_Params ih{NVPW_InitializeHost_Params_STRUCT_SIZE};
    NVPW_CHECK(NVPW_InitializeHost(&ih));
    NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize_Params sp{
        NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize_Params_STRUCT_SIZE};
    sp.pChipName = chip_.c_str();
    NVPW_CHECK(NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize(&sp));
    scratch_.resize(sp.scratchBufferSize);
    NVPW_CUDA_MetricsEvaluator_Initialize_Params ep{
        NVPW_CUDA_MetricsEvaluator_Initialize_Params_STRUCT_SIZE};
    ep.pScratchBuffer = scratch_.data();
    ep.scratchBufferSize = scratch_.size();
    ep.pChipName = chip_.c_str();
    NVPW_CHECK(NVPW_CUDA_MetricsEvaluator_Initialize(&ep));
    evaluator_ = ep.pMetricsEvaluator;
    NVPW_CUDA_RawCounterConfig_Create_Params cp{
        NVPW_CUDA_RawCounterConfig_Create_Params_STRUCT_SIZE};
    cp.pChipName = chip_.c_str();
    cp.activityKind = NVPA_ACTIVITY_KIND_PROFILER;
    NVPW_CHECK(NVPW_CUDA_RawCounterConfig_Create(&cp));
    config_ = cp.pRawCounterConfig;
    NVPW_RawCounterConfig_GetAllAvailableRawCounterDomains_Params ad{
        NVPW_RawCounterConfig_GetAllAvailableRawCounterDomains_Params_STRUCT_SIZE};
    ad.pRawCounterConfig = config_;
    NVPW_CHECK(NVPW_RawCounterConfig_GetAllAvailableRawCounterDomains(&ad));
    domains_.resize(ad.numAvailableDomains);
    ad.pAvailableDomains = domains_.data();
    NVPW_CHECK(NVPW_RawCounterConfig_GetAllAvailableRawCounterDomains(&ad));
    NVPW_RawCounterConfig_BeginPassGroup_Params bp{
        NVPW_RawCounterConfig_BeginPassGroup_Params_STRUCT_SIZE};
    bp.pRawCounterConfig = config_;
    bp.numDomains = domains_.size();
    bp.pDomains = domains_.data();
    NVPW_CHECK(NVPW_RawCounterConfig_BeginPassGroup(&bp));
  }
  ~chip_counters() {
    NVPW_RawCounterConfig_Destroy_Params d{NVPW_RawCounterConfig_Destroy_Params_STRUCT_SIZE};
    d.pRawCounterConfig = config_;
    NVPW_RawCounterConfig_Destroy(&d);
    NVPW_MetricsEvaluator_Destroy_Params e{NVPW_MetricsEvaluator_Destroy_Params_STRUCT_SIZE};
    e.pMetricsEvaluator = evaluator_;
    NVPW_MetricsEvaluator_Destroy(&e);
  }
  chip_counters(const chip_counters&) = delete;
  chip_counters& operator=(const chip_counters&) = delete;

  std::vector<std::string> raw_counters(const std::string& metric) const {
    NVPW_MetricEvalRequest req{};
    NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest_Params q{
        NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest_Params_STRUCT_SIZE};
    q.pMetricsEvaluator = evaluator_;
    q.pMetricName = metric.c_str();
    q.pMetricEvalRequest = &req;
    q.metricEvalRequestStructSize = NVPW_MetricEvalRequest_STRUCT_SIZE;
    NVPW_CHECK(NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest(&q));
    NVPW_MetricsEvaluator_GetMetricRawDependencies_Params rp{
        NVPW_MetricsEvaluator_GetMetricRawDependencies_Params_STRUCT_SIZE};
    rp.pMetricsEvaluator = evaluator_;
    rp.pMetricEvalRequests = &req;
    rp.numMetricEvalRequests = 1;
    rp.metricEvalRequestStructSize = NVPW_MetricEvalRequest_STRUCT_SIZE;
    rp.metricEvalRequestStrideSize = sizeof(req);
    NVPW_CHECK(NVPW_MetricsEvaluator_GetMetricRawDependencies(&rp));
    std::vector<const char*> deps(rp.numRawDependencies);
    std::vector<const char*> optional(rp.numOptionalRawDependencies);
    rp.ppRawDependencies = deps.data();
    rp.ppOptionalRawDependencies = optional.data();
    NVPW_CHECK(NVPW_MetricsEvaluator_GetMetricRawDependencies(&rp));
    return {deps.begin(), deps.end()};
  }

  // The single domains and the cooperative domain groups `raw` can be collected from.
  std::vector<std::string> domains_of(const std::string& raw) const {
    NVPW_RawCounterConfig_GetRawCounterProperties_Params p{
        NVPW_RawCounterConfig_GetRawCounterProperties_Params_STRUCT_SIZE};
    p.pRawCounterConfig = config_;
    p.pRawCounterName = raw.c_str();
    NVPW_CHECK(NVPW_RawCounterConfig_GetRawCounterProperties(&p));
    std::vector<NVPW_RawCounterDomain> single(p.numSupportedDomains);
    std::vector<std::uint32_t> groups(p.numSupportedCdgDomains);
    p.pSupportedDomains = single.data();
    p.pSupportedCdgDomains = groups.data();
    NVPW_CHECK(NVPW_RawCounterConfig_GetRawCounterProperties(&p));
    std::vector<std::string> out;
    for (auto d : single)
      out.push_back(domain_name(d));
    for (auto g : groups)
      out.push_back("group " + domain_name(g));
    return out;
  }

private:
  std::string chip_;
  std::vector<std::uint8_t> scratch_;
  NVPW_MetricsEvaluator* evaluator_ = nullptr;
  NVPW_RawCounterConfig* config_ = nullptr;
  std::vector<NVPW_RawCounterDomain> domains_;
};

} // namespace

int main(int argc, char** argv) {
  try {
    const std::string chip = argc > 1 ? argv[1] : "GH100";
    roofkit::cupti_catalog cat(chip);
    const auto set = roofkit::resolve_metric_set(roofkit::bench_metric_set(), cat);
    const chip_counters counters(chip);
    for (const auto& m : set.metrics) {
      nlohmann::json raw = nlohmann::json::array();
      for (const auto& r : counters.raw_counters(m.name))
        raw.push_back({{"raw", r}, {"domains", counters.domains_of(r)}});
      std::printf("%s\n",
                  nlohmann::json{{"chip", chip}, {"metric", m.name}, {"raw", raw}}.dump().c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "counter_domains: %s\n", e.what());
    return 1;
  }
}
