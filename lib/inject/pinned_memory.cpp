#include "pinned_memory.hpp"

#include <cstring>

namespace roofkit::inject {

void pinned_memory::on_call(CUpti_CallbackId cbid, const void* params, bool entry, bool succeeded) {
  switch (cbid) {
  case CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc:
    if (!entry && succeeded) {
      const auto* p = static_cast<const cuMemHostAlloc_params*>(params);
      add(*p->pp, p->bytesize);
    }
    return;
  case CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost_v2:
    if (!entry && succeeded) {
      const auto* p = static_cast<const cuMemAllocHost_v2_params*>(params);
      add(*p->pp, p->bytesize);
    }
    return;
  case CUPTI_DRIVER_TRACE_CBID_cuMemHostRegister:
  case CUPTI_DRIVER_TRACE_CBID_cuMemHostRegister_v2:
    if (!entry && succeeded) {
      const auto* p = static_cast<const cuMemHostRegister_v2_params*>(params);
      add(p->p, p->bytesize);
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

void pinned_memory::add(const void* p, std::size_t bytes) {
  if (!p || bytes == 0)
    return;
  std::lock_guard lock(mutex_);
  ranges_[reinterpret_cast<std::uintptr_t>(p)] = bytes;
}

void pinned_memory::remove(const void* p) {
  std::lock_guard lock(mutex_);
  ranges_.erase(reinterpret_cast<std::uintptr_t>(p));
}

std::size_t pinned_memory::bytes() const {
  std::lock_guard lock(mutex_);
  std::size_t total = 0;
  for (const auto& [start, size] : ranges_)
    total += size;
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
    if (word - next->first < next->second)
      return true;
  }
  return false;
}

std::size_t pinned_memory::keep() {
  std::lock_guard lock(mutex_);
  kept_ranges_.assign(ranges_.begin(), ranges_.end());
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
    if (still != ranges_.end() && still->second >= size) {
      std::memcpy(reinterpret_cast<void*>(start), kept_.data() + at, size);
      written += size;
    }
    at += size;
  }
  kept_ranges_.clear();
  return written;
}

} // namespace roofkit::inject
