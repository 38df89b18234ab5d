// Warp-stall sampling with CUPTI's PC sampling API, continuous mode: per function, samples per
// stall reason. CUPTI fills either the buffer given to GetData or, at Disable, the one given in
// the configuration; both are read the same way (take()).
#include <cupti_pcsampling.h>

#include <array>
#include <cstdlib>
#include <vector>

#include "roofkit/core.hpp"
#include "roofkit/profiler.hpp"

namespace roofkit {

std::string stall_reason_key(const std::string& cupti_name) {
  static const std::string prefix = "smsp__pcsamp_warps_issue_stalled_";
  static const std::string suffix = "_not_issued";
  if (cupti_name.rfind(prefix, 0) != 0)
    return cupti_name;
  std::string key = cupti_name.substr(prefix.size());
  if (key.size() > suffix.size() &&
      key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0)
    key.resize(key.size() - suffix.size());
  return key;
}

void add_stall_totals(stall_totals& into, const stall_totals& more) {
  for (const auto& [function, reasons] : more)
    for (const auto& [reason, samples] : reasons)
      into[function][reason] += samples;
}

namespace {

constexpr std::size_t pcs_per_buffer = 8192;
constexpr std::size_t scratch_bytes = std::size_t{64} << 20;

// A CUpti_PCSamplingData with room for pcs_per_buffer PCs of `reasons` reasons each.
struct pc_buffer {
  CUpti_PCSamplingData data{};
  std::vector<CUpti_PCSamplingPCData> pcs;
  std::vector<CUpti_PCSamplingStallReason> reasons;
  std::size_t reasons_per_pc = 0;

  explicit pc_buffer(std::size_t reason_count)
      : pcs(pcs_per_buffer), reasons(pcs_per_buffer * reason_count), reasons_per_pc(reason_count) {
    reset();
  }
  void reset() {
    data = CUpti_PCSamplingData{};
    data.size = sizeof(CUpti_PCSamplingData);
    data.collectNumPcs = pcs.size();
    data.pPcData = pcs.data();
    for (std::size_t i = 0; i < pcs.size(); ++i) {
      pcs[i] = CUpti_PCSamplingPCData{};
      pcs[i].size = sizeof(CUpti_PCSamplingPCData);
      pcs[i].stallReason = reasons.data() + i * reasons_per_pc;
    }
  }
};

} // namespace

struct stall_sampler::impl {
  CUcontext ctx = nullptr;
  std::map<std::uint32_t, std::string> reason_keys; // CUPTI's index -> stall_reason_key
  std::vector<std::uint32_t> indexes;
  std::unique_ptr<pc_buffer> fetched;  // GetData's
  std::unique_ptr<pc_buffer> at_close; // the configuration's, filled at Disable
  stall_totals totals;
  std::uint64_t dropped = 0;
  bool enabled = false;

  void read_reasons();
  void configure();
  // Adds the PCs of `b` to the totals and readies it for the next call. CUPTI allocates the
  // function names and may share one between records: they are left until the process ends.
  void take(pc_buffer& b) {
    dropped += b.data.droppedSamples;
    for (std::size_t i = 0; i < b.data.totalNumPcs && i < b.pcs.size(); ++i) {
      const CUpti_PCSamplingPCData& pc = b.pcs[i];
      auto& reasons = totals[pc.functionName ? pc.functionName : "(unknown function)"];
      for (std::size_t r = 0; r < pc.stallReasonCount && r < b.reasons_per_pc; ++r) {
        const auto it = reason_keys.find(pc.stallReason[r].pcSamplingStallReasonIndex);
        if (pc.stallReason[r].samples > 0)
          reasons[it == reason_keys.end() ? "other" : it->second] += pc.stallReason[r].samples;
      }
    }
    b.reset();
  }
};

void stall_sampler::impl::read_reasons() {
  std::size_t count = 0;
  CUpti_PCSamplingGetNumStallReasonsParams np{};
  np.size = CUpti_PCSamplingGetNumStallReasonsParamsSize;
  np.ctx = ctx;
  np.numStallReasons = &count;
  ROOFKIT_CUPTI_CHECK(cuptiPCSamplingGetNumStallReasons(&np));
  indexes.assign(count, 0);
  std::vector<std::array<char, CUPTI_STALL_REASON_STRING_SIZE>> names(count);
  std::vector<char*> name_ptrs(count);
  for (std::size_t i = 0; i < count; ++i)
    name_ptrs[i] = names[i].data();
  CUpti_PCSamplingGetStallReasonsParams rp{};
  rp.size = CUpti_PCSamplingGetStallReasonsParamsSize;
  rp.ctx = ctx;
  rp.numStallReasons = count;
  rp.stallReasonIndex = indexes.data();
  rp.stallReasons = name_ptrs.data();
  ROOFKIT_CUPTI_CHECK(cuptiPCSamplingGetStallReasons(&rp));
  for (std::size_t i = 0; i < count; ++i)
    reason_keys[indexes[i]] = stall_reason_key(names[i].data());
}

void stall_sampler::impl::configure() {
  fetched = std::make_unique<pc_buffer>(indexes.size());
  at_close = std::make_unique<pc_buffer>(indexes.size());
  std::array<CUpti_PCSamplingConfigurationInfo, 5> info{};
  info[0].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON;
  info[0].attributeData.stallReasonData.stallReasonCount = indexes.size();
  info[0].attributeData.stallReasonData.pStallReasonIndex = indexes.data();
  info[1].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SCRATCH_BUFFER_SIZE;
  info[1].attributeData.scratchBufferSizeData.scratchBufferSize = scratch_bytes;
  info[2].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE;
  info[2].attributeData.collectionModeData.collectionMode =
      CUPTI_PC_SAMPLING_COLLECTION_MODE_CONTINUOUS;
  info[3].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_OUTPUT_DATA_FORMAT;
  info[3].attributeData.outputDataFormatData.outputDataFormat =
      CUPTI_PC_SAMPLING_OUTPUT_DATA_FORMAT_PARSED;
  info[4].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER;
  info[4].attributeData.samplingDataBufferData.samplingDataBuffer = &at_close->data;
  CUpti_PCSamplingConfigurationInfoParams p{};
  p.size = CUpti_PCSamplingConfigurationInfoParamsSize;
  p.ctx = ctx;
  p.numAttributes = info.size();
  p.pPCSamplingConfigurationInfo = info.data();
  ROOFKIT_CUPTI_CHECK(cuptiPCSamplingSetConfigurationAttribute(&p));
}

stall_sampler::stall_sampler(CUctx_st* ctx) : impl_(std::make_unique<impl>()) {
  impl_->ctx = ctx;
  CUpti_PCSamplingEnableParams ep{};
  ep.size = CUpti_PCSamplingEnableParamsSize;
  ep.ctx = ctx;
  ROOFKIT_CUPTI_CHECK(cuptiPCSamplingEnable(&ep));
  impl_->enabled = true;
  try {
    impl_->read_reasons();
    impl_->configure();
  } catch (...) {
    CUpti_PCSamplingDisableParams dp{};
    dp.size = CUpti_PCSamplingDisableParamsSize;
    dp.ctx = ctx;
    cuptiPCSamplingDisable(&dp);
    throw;
  }
}

stall_sampler::~stall_sampler() {
  try {
    finish();
  } catch (...) {
  }
}

void stall_sampler::collect() {
  auto& s = *impl_;
  if (!s.enabled)
    return;
  bool more = true;
  while (more) {
    CUpti_PCSamplingGetDataParams gp{};
    gp.size = CUpti_PCSamplingGetDataParamsSize;
    gp.ctx = s.ctx;
    gp.pcSamplingData = &s.fetched->data;
    ROOFKIT_CUPTI_CHECK(cuptiPCSamplingGetData(&gp));
    more = s.fetched->data.remainingNumPcs > 0;
    s.take(*s.fetched);
  }
}

void stall_sampler::finish() {
  auto& s = *impl_;
  if (!s.enabled)
    return;
  collect();
  s.enabled = false;
  CUpti_PCSamplingDisableParams dp{};
  dp.size = CUpti_PCSamplingDisableParamsSize;
  dp.ctx = s.ctx;
  ROOFKIT_CUPTI_CHECK(cuptiPCSamplingDisable(&dp));
  s.take(*s.at_close);
}

const stall_totals& stall_sampler::totals() const { return impl_->totals; }
std::uint64_t stall_sampler::dropped() const { return impl_->dropped; }

} // namespace roofkit
