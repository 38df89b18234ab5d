#include "launch_registers.hpp"

#include <cupti.h>

#include <cstdint>
#include <cstdlib>
#include <mutex>

namespace roofkit::inject {

namespace {

constexpr std::size_t buffer_bytes = 4 << 20;

std::mutex seen_mutex;
std::map<std::string, unsigned>& seen() {
  static auto* s = new std::map<std::string, unsigned>; // read at exit, after static dtors
  return *s;
}

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, buffer_bytes));
  *size = *buffer ? buffer_bytes : 0;
  *max_records = 0;
}

kernel_span_sink span_sink = nullptr;
void* span_user = nullptr;

void CUPTIAPI buffer_completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t,
                               std::size_t valid) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
      continue;
    const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    if (k->name != nullptr) {
      std::lock_guard lock(seen_mutex);
      seen()[k->name] = k->registersPerThread;
    }
    if (span_sink && k->name != nullptr && k->end > k->start)
      span_sink(span_user, k->correlationId, k->name, k->start, k->end);
  }
  std::free(buffer);
}

} // namespace

bool start_launch_registers(std::string& why, kernel_span_sink sink, void* user,
                            std::uint32_t flush_ms) {
  span_sink = sink;
  span_user = user;
  CUptiResult r = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
  if (r == CUPTI_SUCCESS)
    r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  if (r == CUPTI_SUCCESS && sink)
    r = cuptiActivityFlushPeriod(flush_ms);
  if (r == CUPTI_SUCCESS)
    return true;
  const char* text = nullptr;
  cuptiGetResultString(r, &text);
  why = text ? text : "unknown CUPTI error";
  return false;
}

activity_pause::activity_pause(bool active) : active_(active) {
  if (active_)
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
}

activity_pause::~activity_pause() {
  if (active_)
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
}

void flush_kernel_activity() { cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); }

std::map<std::string, unsigned> finish_launch_registers() {
  flush_kernel_activity();
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  std::lock_guard lock(seen_mutex);
  return seen();
}

} // namespace roofkit::inject
