// PC sampling for every context of the process; records written at context destruction or exit.
#include "stall_injector.hpp"

#include <cuda.h>
#include <cupti.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "batch_calls.hpp"
#include "record_log.hpp"
#include "roofkit/app_profile.hpp"
#include "roofkit/core.hpp"
#include "roofkit/profiler.hpp"

namespace roofkit::inject {

namespace {

// Launches between two reads of CUPTI's buffers.
constexpr long collect_every = 256;

class stall_injector {
public:
  static stall_injector& get() {
    static stall_injector* one = new stall_injector; // callbacks may outlive static dtors
    return *one;
  }

  void start() {
    const char* path = std::getenv("ROOFKIT_PROFILE_RECORD");
    records_.open(path ? path : "");
    std::atexit([] { stall_injector::get().finish(); });
    CUpti_SubscriberHandle subscriber = nullptr;
    if (cuptiSubscribe(&subscriber, &stall_injector::callback, this) != CUPTI_SUCCESS) {
      fail("cannot subscribe to CUDA callbacks: another profiler or tool using CUPTI is attached",
           "run the application without the other profiler (nsys, ncu, a framework profiler)");
      return;
    }
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                        CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                        CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                        CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING);
    cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
  }

  void finish() {
    std::lock_guard lock(mutex_);
    if (finished_)
      return;
    finished_ = true;
    for (auto& [ctx, sampler] : samplers_)
      try { // at exit: a failed read costs that context's last samples, never the process
        close(*sampler);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "roofkit-inject: warning: warp-stall sampling: %s\n", e.what());
      }
    samplers_.clear();
    for (const auto& [function, reasons] : totals_)
      records_.write(stall_line(function, reasons, dropped_, pid_));
    records_.write(end_line(launches_, pid_));
    records_.close();
  }

private:
  static void CUPTIAPI callback(void* self, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                const void* data) {
    auto* me = static_cast<stall_injector*>(self);
    try {
      if (domain == CUPTI_CB_DOMAIN_RESOURCE)
        me->on_resource(cbid, static_cast<const CUpti_ResourceData*>(data)->context);
      else if (domain == CUPTI_CB_DOMAIN_DRIVER_API && is_kernel_launch(cbid) &&
               static_cast<const CUpti_CallbackData*>(data)->callbackSite == CUPTI_API_EXIT)
        me->on_launch(static_cast<const CUpti_CallbackData*>(data)->context);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "roofkit-inject: warning: warp-stall sampling: %s\n", e.what());
    }
  }

  void on_resource(CUpti_CallbackId cbid, CUcontext ctx) {
    std::lock_guard lock(mutex_);
    if (finished_)
      return;
    if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) {
      if (failed_)
        return;
      try {
        samplers_[ctx] = std::make_unique<stall_sampler>(ctx);
      } catch (const std::exception& e) {
        failed_ = true;
        fail(std::string("warp-stall sampling is not available: ") + e.what(),
             "the counters of the first run are kept");
      }
      return;
    }
    const auto it = samplers_.find(ctx);
    if (it == samplers_.end())
      return;
    if (cbid == CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING) {
      it->second->collect();
    } else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
      close(*it->second);
      samplers_.erase(it);
    }
  }

  void on_launch(CUcontext ctx) {
    std::lock_guard lock(mutex_);
    if (++launches_ % collect_every != 0)
      return;
    if (const auto it = samplers_.find(ctx); it != samplers_.end())
      it->second->collect();
  }

  void close(stall_sampler& s) {
    s.finish();
    add_stall_totals(totals_, s.totals());
    dropped_ += s.dropped();
  }

  void fail(const std::string& message, const std::string& hint) {
    std::fprintf(stderr, "roofkit-inject: %s\n", message.c_str());
    records_.write(error_line(message, hint, 0));
  }

  std::mutex mutex_;
  std::map<CUcontext, std::unique_ptr<stall_sampler>> samplers_;
  stall_totals totals_;
  std::uint64_t dropped_ = 0;
  std::int64_t launches_ = 0;
  bool failed_ = false;
  bool finished_ = false;
  record_log records_;
  const std::int64_t pid_ = static_cast<std::int64_t>(getpid());
};

} // namespace

bool stall_mode_requested() {
  const char* v = std::getenv("ROOFKIT_PROFILE_STALLS");
  return v && std::strcmp(v, "on") == 0;
}

void start_stall_sampling() { stall_injector::get().start(); }

} // namespace roofkit::inject
