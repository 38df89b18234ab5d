#include "nvtx_ranges.hpp"

#include <generated_nvtx_meta.h>

namespace roofkit::inject {

namespace {

thread_local std::vector<std::string> stack; // enclosing NVTX push/pop ranges

void push_attrib(const nvtxEventAttributes_t* a) {
  stack.push_back(
      a && a->messageType == NVTX_MESSAGE_TYPE_ASCII && a->message.ascii ? a->message.ascii : "");
}

} // namespace

const std::vector<std::string>& nvtx_ranges() { return stack; }

void on_nvtx(CUpti_CallbackId cbid, const CUpti_NvtxData* d) {
  switch (cbid) {
  case CUPTI_CBID_NVTX_nvtxRangePushA: {
    const char* m = static_cast<const nvtxRangePushA_params*>(d->functionParams)->message;
    stack.push_back(m ? m : "");
    break;
  }
  case CUPTI_CBID_NVTX_nvtxRangePushEx:
    push_attrib(static_cast<const nvtxRangePushEx_params*>(d->functionParams)->eventAttrib);
    break;
  case CUPTI_CBID_NVTX_nvtxDomainRangePushEx:
    push_attrib(
        static_cast<const nvtxDomainRangePushEx_params*>(d->functionParams)->core.eventAttrib);
    break;
  case CUPTI_CBID_NVTX_nvtxRangePushW:
    stack.emplace_back();
    break;
  case CUPTI_CBID_NVTX_nvtxRangePop:
  case CUPTI_CBID_NVTX_nvtxDomainRangePop:
    if (!stack.empty())
      stack.pop_back();
    break;
  default:
    break;
  }
}

} // namespace roofkit::inject
