#include "nvtx_ranges.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <generated_nvtx_meta.h>

namespace roofkit::inject {

namespace {

nvtx_range_tracker& tracker() {
  static auto* one = new nvtx_range_tracker; // never destroyed: callbacks may outlive static dtors
  return *one;
}

const char* attrib_name(const nvtxEventAttributes_t* a) {
  return a && a->messageType == NVTX_MESSAGE_TYPE_ASCII && a->message.ascii ? a->message.ascii : "";
}

} // namespace

std::uint64_t this_thread_id() {
  thread_local const auto id = static_cast<std::uint64_t>(syscall(SYS_gettid));
  return id;
}

const nvtx_range_tracker& nvtx_ranges() { return tracker(); }

void on_nvtx(CUpti_CallbackId cbid, const CUpti_NvtxData* d) {
  switch (cbid) {
  case CUPTI_CBID_NVTX_nvtxRangePushA: {
    const char* m = static_cast<const nvtxRangePushA_params*>(d->functionParams)->message;
    tracker().push(this_thread_id(), m ? m : "");
    break;
  }
  case CUPTI_CBID_NVTX_nvtxRangePushEx:
    tracker().push(
        this_thread_id(),
        attrib_name(static_cast<const nvtxRangePushEx_params*>(d->functionParams)->eventAttrib));
    break;
  case CUPTI_CBID_NVTX_nvtxDomainRangePushEx:
    tracker().push(
        this_thread_id(),
        attrib_name(
            static_cast<const nvtxDomainRangePushEx_params*>(d->functionParams)->core.eventAttrib));
    break;
  case CUPTI_CBID_NVTX_nvtxRangePushW:
    tracker().push(this_thread_id(), "");
    break;
  case CUPTI_CBID_NVTX_nvtxRangePop:
  case CUPTI_CBID_NVTX_nvtxDomainRangePop:
    tracker().pop(this_thread_id());
    break;
  default:
    break;
  }
}

} // namespace roofkit::inject
