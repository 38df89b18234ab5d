#pragma once
// The NVTX push/pop ranges open on every thread of the process, from CUPTI's NVTX callbacks.
#include <cupti.h>

#include <cstdint>

#include "roofkit/app_profile.hpp"

namespace roofkit::inject {

/// Follows an NVTX push or pop of the calling thread (CUPTI_CB_DOMAIN_NVTX callback).
void on_nvtx(CUpti_CallbackId cbid, const CUpti_NvtxData* d);

/// The ranges open on every thread (a range pushed with a wide-character or non-ASCII message is
/// named "").
const nvtx_range_tracker& nvtx_ranges();

/// The calling thread's id as the kernel gives it (the `thread` of launch records).
std::uint64_t this_thread_id();

} // namespace roofkit::inject
