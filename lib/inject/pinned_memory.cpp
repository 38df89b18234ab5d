#include "pinned_memory.hpp"

#include <cstring>

namespace roofkit::inject {

namespace {

// Registrations whose memory cannot be copied back: read-only pages, a device's I/O memory.
bool writable_registration(unsigned int flags) {
  return (flags & (CU_MEMHOSTREGISTER_READ_ONLY | CU_MEMHOSTREGISTER_IOMEMORY)) == 0;
}

} // namespace

void pinned_memory::on_call(CUpti_CallbackId cbid, const void* params, CUcontext ctx, bool entry,
                            bool succeeded) {
  if (!entry && !succeeded)
    return;
  // The allocations' parameters: the pointer written back, and the size.
  auto allocated = [&](const auto* p) {
    if (!entry)
      add(*p->pp, p->bytesize, ctx);
  };
  switch (cbid) {
  case CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc:
    return allocated(static_cast<const cuMemHostAlloc_params*>(params));
  case CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost:
    return allocated(static_cast<const cuMemAllocHost_params*>(params));
  case CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost_v2:
    return allocated(static_cast<const cuMemAllocHost_v2_params*>(params));
  case CUPTI_DRIVER_TRACE_CBID_cuMemHostRegister:
  case CUPTI_DRIVER_TRACE_CBID_cuMemHostRegister_v2:
    if (!entry) {
      const auto* p = static_cast<const cuMemHostRegister_v2_params*>(params);
      if (writable_registration(p->Flags))
        add(p->p, p->bytesize, ctx);
    }
    return;
  case CUPTI_DRIVER_TRACE_CBID_cuMemFreeHost:
    if (entry)
      remove(static_cast<const cuMemFreeHost_params*>(params)->p);
    return;
  case CUPTI_DRIVER_TRACE_CBID_cuMemHostUnregister:
    if (entry)
      remove(static_cast<const cuMemHostUnregister_params*>(params)->p);
    return;
  default:
    return;
  }
}

void pinned_memory::add(const void* p, std::size_t bytes, CUcontext ctx) {
  if (!p || bytes == 0)
    return;
  std::lock_guard lock(mutex_);
  ranges_[reinterpret_cast<std::uintptr_t>(p)] = {bytes, ctx};
}

void pinned_memory::remove(const void* p) {
  std::lock_guard lock(mutex_);
  ranges_.erase(reinterpret_cast<std::uintptr_t>(p));
}

void pinned_memory::forget_context(CUcontext ctx) {
  std::lock_guard lock(mutex_);
  std::erase_if(ranges_, [ctx](const auto& r) { return r.second.ctx == ctx; });
}

std::size_t pinned_memory::bytes() const {
  std::lock_guard lock(mutex_);
  std::size_t total = 0;
  for (const auto& [start, r] : ranges_)
    total += r.bytes;
  return total;
}

bool pinned_memory::holds_pointer(const std::vector<std::uint8_t>& bytes) const {
  std::lock_guard lock(mutex_);
  if (ranges_.empty())
    return false;
  for (std::size_t at = 0; at + sizeof(std::uintptr_t) <= bytes.size(); at += 8) {
    std::uintptr_t word = 0;
    std::memcpy(&word, bytes.data() + at, sizeof word);
    auto next = ranges_.upper_bound(word);
    if (next == ranges_.begin())
      continue;
    --next;
    if (word - next->first < next->second.bytes)
      return true;
  }
  return false;
}

std::size_t pinned_memory::keep() {
  std::lock_guard lock(mutex_);
  kept_ranges_.clear();
  for (const auto& [start, r] : ranges_)
    kept_ranges_.emplace_back(start, r.bytes);
  std::size_t total = 0;
  for (const auto& [start, size] : kept_ranges_)
    total += size;
  kept_.resize(total);
  std::size_t at = 0;
  for (const auto& [start, size] : kept_ranges_) {
    std::memcpy(kept_.data() + at, reinterpret_cast<const void*>(start), size);
    at += size;
  }
  return total;
}

std::size_t pinned_memory::put_back() {
  std::lock_guard lock(mutex_);
  std::size_t at = 0;
  std::size_t written = 0;
  for (const auto& [start, size] : kept_ranges_) {
    // A range released since the copy (its release's entry removed it) is not written.
    const auto still = ranges_.find(start);
    if (still != ranges_.end() && still->second.bytes >= size) {
      std::memcpy(reinterpret_cast<void*>(start), kept_.data() + at, size);
      written += size;
    }
    at += size;
  }
  kept_ranges_.clear();
  if (kept_.capacity() > max_idle_copy) // not held for good after a peak
    std::vector<std::byte>().swap(kept_);
  return written;
}

} // namespace roofkit::inject
