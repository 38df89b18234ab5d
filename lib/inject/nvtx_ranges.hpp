#pragma once
// The NVTX push/pop ranges that enclose each thread's launches, from CUPTI's NVTX callbacks.
#include <cupti.h>

#include <string>
#include <vector>

namespace roofkit::inject {

/// Follows an NVTX push or pop of the calling thread (CUPTI_CB_DOMAIN_NVTX callback).
void on_nvtx(CUpti_CallbackId cbid, const CUpti_NvtxData* d);

/// The calling thread's enclosing ranges, outermost first (a range pushed with a wide-character
/// or non-ASCII message is named "").
const std::vector<std::string>& nvtx_ranges();

} // namespace roofkit::inject
