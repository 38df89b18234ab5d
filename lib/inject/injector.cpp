// The injected library of `profile`: loaded by the CUDA driver through CUDA_INJECTION64_PATH,
// it subscribes to kernel launches and profiles the selected ones.
//
// Consecutive selected launches are replayed together (app_profile_options::replay_batch): at the
// first one the context is synchronised and device memory saved with a CUPTI checkpoint; the
// application's launches then run as usual and are copied. The batch ends at the first driver
// call that could touch device memory or let the host see results (replay_batch_effect), at a
// launch not selected, or when full. Then every replay pass restores the checkpoint and
// re-issues the batch's launches in order, each after its flush of the L2 in the passes that need
// one (cache control "all") and as a range of its own; the last pass leaves memory as the
// application's launches did. With a batch of 1, a launch is replayed alone in its callback, before
// the application's own launch runs, and memory restored once more before it goes.
#include <cuda.h>
#include <cupti.h>
#include <cupti_checkpoint.h>
#include <dlfcn.h>

using NV::Cupti::Checkpoint::CUpti_Checkpoint;
using NV::Cupti::Checkpoint::cuptiCheckpointFree;
using NV::Cupti::Checkpoint::cuptiCheckpointRestore;
using NV::Cupti::Checkpoint::cuptiCheckpointSave;
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "batch_calls.hpp"
#include "collective_timer.hpp"
#include "counter_sets.hpp"
#include "device_variables.hpp"
#include "driver_gate.hpp"
#include "graph_kernels.hpp"
#include "internal/peer_table.hpp"
#include "kernel_table.hpp"
#include "launch_args.hpp"
#include "launch_book.hpp"
#include "launch_facts.hpp"
#include "launch_registers.hpp"
#include "launch_timer.hpp"
#include "nvtx_ranges.hpp"
#include "pinned_memory.hpp"
#include "rank_env.hpp"
#include "record_log.hpp"
#include "replay_output.hpp"
#include "roofkit/app_profile.hpp"
#include "roofkit/core.hpp"
#include "roofkit/occupancy.hpp"
#include "roofkit/profiler.hpp"
#include "roofkit/ranks.hpp"
#include "roofkit/timing.hpp"
#include "run_meter.hpp"
#include "stall_injector.hpp"

namespace roofkit::inject {

namespace {

thread_local bool in_tool = false; // our own driver calls: no callbacks handled
// Inside the runtime's cudaLibraryUnload, which may hold the runtime's lock that a replay needs.
thread_local int in_runtime_unload = 0;

struct tool_scope {
  bool was;
  tool_scope() : was(in_tool) { in_tool = true; }
  ~tool_scope() { in_tool = was; }
};

void say(const std::string& text) { std::fprintf(stderr, "roofkit-inject: %s\n", text.c_str()); }

/// Per-device profiling state, created on the first selected launch.
struct device_state {
  bool failed = false;
  std::unique_ptr<counter_sets> sessions; ///< the full set's and the per-launch set's
  CUcontext primary = nullptr;
  bool heap_ready = false;    ///< prepare_device_heap() ran
  std::string method_written; ///< the cache control method in the last device record
};

/// A step of a batch waiting for its replay: a selected launch (measured), or device work that
/// ran between two of them and is re-issued in every pass (a launch that is not measured, a
/// memset, a device-to-device copy).
struct pending_launch {
  std::unique_ptr<captured_launch> launch; ///< a kernel launch; null for other device work
  std::function<CUresult()> work;          ///< the memset or copy
  const char* what = "a memset";           ///< names the memset or copy
  launch_record rec;                       ///< measured launches only
  double capture_s = 0;                    ///< time spent on it in its callback
  bool measured = true;

  CUresult issue() const { return launch ? launch->relaunch() : work(); }
  std::string label() const { return launch ? rec.kernel.name : what; }
};

/// Consecutive launches replayed together, from one checkpoint saved before the first.
struct pending_batch {
  CUcontext ctx = nullptr;
  device_state* state = nullptr;
  CUpti_Checkpoint checkpoint{CUpti_Checkpoint_STRUCT_SIZE};
  variable_snapshot variables; ///< what the checkpoint leaves out: its launches' module variables
  std::uint64_t modules_at_open = 0; ///< modules loaded when the checkpoint was saved
  std::vector<pending_launch> launches;
  std::size_t measured = 0;            ///< launches of `launches` that are measured
  bool reads_host_memory = false;      ///< a launch's parameters point into page-locked host memory
  bool host_read_kept = false;         ///< a copy to the host or a wait did not end the batch
  profiler_session* session = nullptr; ///< the set that measured it (counter_sets::use_for_batch)

  /// Device memory as it was before the first launch (synchronous).
  void restore() {
    ROOFKIT_CUPTI_CHECK(cuptiCheckpointRestore(&checkpoint));
    variables.restore();
  }
};

class injector {
public:
  static injector& get() {
    static injector* one = new injector; // never destroyed: callbacks may outlive static dtors
    return *one;
  }

  void start() {
    // A rank of a multi-process job has its own log and profiler turn (rank_env.hpp).
    const char* env_path = std::getenv("ROOFKIT_PROFILE_RECORD");
    const std::string record = record_path_for_process(env_path ? env_path : "");
    records_.open(record);
    std::string no_table;
    peers_ = detail::peer_table::for_process(env_path ? env_path : "", no_table);
    if (!no_table.empty())
      say("warning: no peer table (" + no_table + "): a replay may undo a peer's collective");
    try {
      turn_ = std::make_unique<profiler_turn>(record);
    } catch (const std::exception& e) { // no lock files: profile as a lone process would
      say(std::string("warning: ") + e.what());
      turn_ = std::make_unique<profiler_turn>("");
    }
    // The end record says the process reached exit, whatever happens below.
    register_exit_handler();
    try {
      options_ = options_from_environment([](const char* n) -> const char* { return getenv(n); });
      selector_ = std::make_unique<launch_selector>(options_);
      book_ = std::make_unique<launch_book>(options_.sample, pid_);
      progress_ = std::make_unique<progress_meter>(options_.progress);
    } catch (const std::exception& e) {
      fail(std::string("bad options: ") + e.what(), "", 2);
      return;
    }
    CUptiResult r = cuptiSubscribe(&subscriber_, &injector::callback, this);
    if (r != CUPTI_SUCCESS) {
      const char* text = nullptr;
      cuptiGetResultString(r, &text);
      const std::string what = text ? text : "unknown CUPTI error";
      if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
        fail("cannot subscribe to CUDA callbacks: another profiler or tool using CUPTI is "
             "attached to the application (" +
                 what + ")",
             "run the application without the other profiler (nsys, ncu, a framework profiler)", 3);
      else
        fail("cannot subscribe to CUDA callbacks: " + what, "", 3);
      return;
    }
    // Launches, and the calls that end or drop a batch (replay_batch_effect()); the gate (gate_)
    // sees their entries and exits. Queries run unseen, at the application's own speed.
    for (CUpti_CallbackId id = 1; id < CUPTI_DRIVER_TRACE_CBID_SIZE; ++id)
      if (needs_driver_callback(id))
        cuptiEnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API, id);
    cuptiEnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_RESOURCE,
                        CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
    cuptiEnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_RESOURCE,
                        CUPTI_CBID_RESOURCE_MODULE_LOADED);
    cuptiEnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_RUNTIME_API,
                        CUPTI_RUNTIME_TRACE_CBID_cudaLibraryUnload_v12060);
    start_activity();
    if (!options_.nvtx_range.empty() || options_.nvtx_groups) {
      // NVTX loads its tool on the first NVTX call: point it at the libcupti we are bound to
      // (the launcher's guess may differ when the application brought its own copy).
      Dl_info info{};
      if (dladdr(reinterpret_cast<void*>(&cuptiSubscribe), &info) != 0 && info.dli_fname)
        setenv("NVTX_INJECTION64_PATH", info.dli_fname, 1);
      cuptiEnableDomain(1, subscriber_, CUPTI_CB_DOMAIN_NVTX);
    }
  }

  // Kernel activity records give the registers the hardware runs each function with; without
  // them (ROOFKIT_PROFILE_ACTIVITY=off, or CUPTI refuses) launches keep the compiled counts.
  void start_activity() {
    const char* env = std::getenv("ROOFKIT_PROFILE_ACTIVITY");
    if (env && std::string(env) == "off")
      return;
    std::string why;
    activity_registers_ = start_launch_registers(why, &injector::on_kernel_span, this);
    if (activity_registers_)
      timer_.expect_spans();
    else
      say("warning: no kernel activity records (" + why +
          "): registers per thread are the compiled counts, launch times the events'");
  }

  static void on_kernel_span(void* me, std::uint32_t correlation, const char* symbol,
                             std::uint64_t start_ns, std::uint64_t end_ns) {
    static_cast<injector*>(me)->timer_.on_span(correlation, symbol, start_ns, end_ns);
  }

  // The profiler's own time, added to `fields` (the record log sums its profiler_time lines).
  // The profiler statistics of every device's session (ROOFKIT_REPLAY_PHASES).
  profiler_stats summed_stats() {
    profiler_stats all;
    for (auto& [ordinal, d] : devices_)
      if (d.sessions)
        all += d.sessions->stats();
    return all;
  }

  static void add_stats(const profiler_stats& t, std::map<std::string, double>& fields) {
    const std::pair<const char*, double> totals[] = {
        {"calls", t.calls},       {"passes", t.passes},     {"setup_s", t.setup_s},
        {"passes_s", t.passes_s}, {"decode_s", t.decode_s}, {"before_s", t.before_s},
        {"start_s", t.start_s},   {"body_s", t.body_s},     {"stop_s", t.stop_s},
        {"flush_s", t.flush_s}};
    for (const auto& [name, value] : totals)
      fields[name] += value;
  }

  // The application destroys or resets (cudaDeviceReset) a context that a device's session works
  // on: the session's buffers go with it. The session disables its profiler (CUPTI keeps it
  // enabled on the context otherwise, and refused a new session after the reset), its statistics
  // are written, and the state is dropped, so that a later launch starts a session on the new
  // context.
  void on_context_destroy(CUcontext ctx) {
    std::lock_guard lock(mutex_);
    if (batch_ && batch_->ctx == ctx)
      close_batch("context destroyed");
    pinned_.forget_context(ctx);
    for (auto it = devices_.begin(); it != devices_.end();) {
      if (it->second.primary != ctx) {
        ++it;
        continue;
      }
      if (it->second.sessions) {
        note_cache_method(it->first, it->second);
        std::map<std::string, double> fields;
        add_stats(it->second.sessions->stats(), fields);
        write(profiler_time_line(fields));
        try {
          it->second.sessions->context_lost();
          it->second.sessions.reset();
        } catch (const std::exception& e) {
          say(std::string("warning: ") + e.what());
          (void)it->second.sessions.release(); // half torn down: left as it is
        }
      }
      it = devices_.erase(it);
    }
  }

  void finish() {
    std::lock_guard lock(mutex_);
    if (finished_)
      return;
    finished_ = true;
    tool_scope scope;
    close_batch("exit");
    timer_.drain();
    collectives_.drain();
    if (nvlink_)
      write(nvlink_line(nvlink_->since_start(), pid_));
    if (progress_)
      progress_->finish();
    if (book_)
      for (const auto& line : book_->finish(kernels_.names(), timer_.stats()))
        write(line);
    for (const auto& [key, n] : not_profiled_)
      write(not_profiled_line({key.first, key.second, n}));
    std::map<std::string, double> fields = counts_;
    for (auto& [ordinal, d] : devices_)
      if (d.sessions) {
        note_cache_method(ordinal, d);
        add_stats(d.sessions->stats(), fields);
        fields["counter_set_switches"] += static_cast<double>(d.sessions->switches());
        fields["counter_set_switch_s"] += d.sessions->switch_s();
        fields["counter_set_batches_kept_full"] +=
            static_cast<double>(d.sessions->batches_kept_full());
      }
    for (const auto& [why, n] : batch_ends_)
      fields["batch_ended_by:" + why] = static_cast<double>(n);
    if (activity_registers_) {
      fields["launch_groups_timed_by_events"] = timer_.groups_timed_by_events();
      fields["launch_groups_short_of_records"] = timer_.groups_short_of_records();
    }
    if (!fields.empty())
      write(profiler_time_line(fields));
    if (phases_)
      std::fputs(phases_
                     ->report(summed_stats(), book_ ? book_->measured() : 0,
                              static_cast<std::int64_t>(counts_["batches"]))
                     .c_str(),
                 stderr);
    if (phases_)
      for (const auto& [why, n] : batch_ends_)
        say(fmt::format("  batches ended by {}: {}", why, n));
    if (phases_)
      say(fmt::format("  counter set switches: {} in {:.3f} s; batches kept on the full set until "
                      "a switch pays: {}",
                      fields["counter_set_switches"], fields["counter_set_switch_s"],
                      fields["counter_set_batches_kept_full"]));
    if (activity_registers_)
      for (const auto& [function, registers] : finish_launch_registers())
        write(registers_line(function, registers, pid_));
    write(end_line(launches_.load(), pid_));
    records_.close();
  }

  // Exit handlers run last registered first, and a library's own handler unloads its modules
  // (the runtime's, for the fat binaries it registered): an unload at exit drops the open batch
  // (before exit, one is replayed at the unload's entry). So the handler is registered again
  // after each module load and at a batch's opening after one (in case the library registered
  // its handler after loading eagerly); finish() runs once.
  static void register_exit_handler() {
    std::atexit([] { injector::get().finish(); });
  }

  // A rank's GPU: its NVLink traffic is read at its first launch and at exit.
  void start_nvlink_meter(CUdevice dev) {
    char bus[32] = {};
    if (cuDeviceGetPCIBusId(bus, sizeof bus, dev) == CUDA_SUCCESS)
      nvlink_ = std::make_unique<nvlink_meter>(bus);
    else
      write(nvlink_line({"", "the GPU's PCI bus id is unknown"}, pid_));
  }

  // Before this rank's collective call waits for its peers (the NCCL call recorder asks): the
  // open batch is replayed, so that this rank's span ends first.
  void end_replay_span() {
    const std::lock_guard lock(mutex_);
    close_batch("a collective call");
    if (peers_)
      peers_->close_span();
  }

private:
  static void CUPTIAPI callback(void* self, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                const void* data) {
    auto* me = static_cast<injector*>(self);
    if (!me->phases_ || in_tool)
      return dispatch(me, domain, cbid, data);
    const auto t0 = std::chrono::steady_clock::now();
    dispatch(me, domain, cbid, data);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (domain == CUPTI_CB_DOMAIN_RESOURCE && cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED)
      me->phases_->add_module(s);
    else
      me->phases_->add_callback(s);
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API && is_kernel_launch(cbid))
      me->phases_->add(static_cast<const CUpti_CallbackData*>(data)->callbackSite == CUPTI_API_ENTER
                           ? "launch callbacks at entry (replays and set-up inside)"
                           : "launch callbacks at exit",
                       s);
  }

  static void dispatch(injector* me, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                       const void* data) {
    // Also for the modules that our own calls load (load_function).
    if (domain == CUPTI_CB_DOMAIN_RESOURCE && cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED) {
      try {
        me->on_module_loaded(static_cast<const CUpti_ResourceData*>(data));
      } catch (const std::exception& e) {
        say(std::string("internal error: ") + e.what());
      }
      return;
    }
    if (in_tool)
      return;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
      const auto* d = static_cast<const CUpti_CallbackData*>(data);
      in_runtime_unload += d->callbackSite == CUPTI_API_ENTER ? 1 : -1;
      return;
    }
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
      const auto* d = static_cast<const CUpti_CallbackData*>(data);
      auto handle = [&] {
        try {
          me->on_driver(cbid, d);
        } catch (const std::exception& e) {
          say(std::string("internal error: ") + e.what());
        }
      };
      if (d->callbackSite == CUPTI_API_EXIT) {
        handle();
        me->gate_.exit();
        return;
      }
      // What the entry decides (its launch joins the batch, the batch is replayed first, no batch
      // is open) holds for the call's body only if no replay or checkpoint comes in between: the
      // decision and the gate's entry are one step under the lock, which every holder holds.
      std::lock_guard lock(me->mutex_);
      handle();
      me->gate_.enter();
      return;
    }
    try {
      if (domain == CUPTI_CB_DOMAIN_NVTX)
        on_nvtx(cbid, static_cast<const CUpti_NvtxData*>(data));
      else if (domain == CUPTI_CB_DOMAIN_RESOURCE &&
               cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
        tool_scope scope;
        // Inside the body of the call that destroys the context: a replay may hold the lock.
        const driver_gate::outside_scope out(me->gate_);
        const CUcontext ctx = static_cast<const CUpti_ResourceData*>(data)->context;
        me->timer_.drain(ctx);
        me->collectives_.drain(ctx);
        me->on_context_destroy(ctx);
      }
    } catch (const std::exception& e) {
      say(std::string("internal error: ") + e.what());
    }
  }

  void on_module_loaded(const CUpti_ResourceData* d) {
    const auto* m = static_cast<const CUpti_ModuleResourceData*>(d->resourceDescriptor);
    if (!m || !m->pCubin)
      return;
    ++modules_loaded_;
    register_exit_handler(); // after the exit handler of the library whose module this is
    variables_.add_image(m->pCubin, m->cubinSize);
    if (has_managed_variables(m->pCubin, m->cubinSize))
      managed_memory_ = true;
    std::set<std::string> users = kernels_using_device_heap(m->pCubin, m->cubinSize);
    if (users.empty())
      return;
    // Not mutex_: a thread that loads a module may hold driver locks that a profiling thread needs.
    std::lock_guard lock(heap_mutex_);
    heap_kernels_.merge(users);
  }

  void on_driver(CUpti_CallbackId cbid, const CUpti_CallbackData* d) {
    const bool enter = d->callbackSite == CUPTI_API_ENTER;
    if (is_kernel_launch(cbid)) {
      if (enter)
        on_launch(cbid, d);
      else {
        tool_scope scope;
        timer_.end(d->functionReturnValue &&
                   *static_cast<const CUresult*>(d->functionReturnValue) == CUDA_SUCCESS);
        collectives_.end(succeeded(d));
      }
      return;
    }
    // What the call does to a batch, decided at its entry (entry callbacks run under mutex_).
    const batch_effect effect = enter ? replay_batch_effect(cbid) : batch_effect::keeps;
    if (batch_ && effect != batch_effect::keeps) {
      if (effect == batch_effect::replays && (ride_along(cbid, d) || allocation_inside(cbid, d)))
        return;
      if (effect == batch_effect::host_reads && host_read_inside())
        return;
      tool_scope scope;
      const char* call = nullptr;
      cuptiGetCallbackName(CUPTI_CB_DOMAIN_DRIVER_API, cbid, &call);
      // A module unload before exit (cuDNN unloads the runtime-compiled engines it tried) is
      // replayed at its entry, while the batch's functions are still loaded; at exit, or inside
      // the runtime's unload (whose lock the replay's runtime calls would wait for), it is given
      // up.
      if (effect == batch_effect::drops && (finished_ || in_runtime_unload > 0))
        drop_batch(call ? call : "a module unload");
      else
        close_batch(call ? call : "a driver call");
    }
    if (effect == batch_effect::drops)
      variables_.forget_modules(); // a module unload: its handle may come back for another
    pinned_.on_call(cbid, d->functionParams, d->context, enter, !enter && succeeded(d));
    if (!enter && creates_managed_memory(cbid) && succeeded(d))
      managed_memory_ = true;
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz:
      if (!enter && succeeded(d))
        ++captures_;
      return;
    case CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz:
      if (!enter && captures_ > 0)
        --captures_;
      return;
    case CUPTI_DRIVER_TRACE_CBID_cuProfilerStart:
    case CUPTI_DRIVER_TRACE_CBID_cuProfilerStop:
      if (enter && selector_) {
        std::lock_guard lock(mutex_);
        selector_->set_started(cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
      }
      return;
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz:
      if (enter)
        on_graph_launch(static_cast<const cuGraphLaunch_params*>(d->functionParams)->hGraph);
      return;
    case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams_ptsz:
      // Every instantiation's parameters start with phGraphExec, hGraph.
      if (!enter && succeeded(d)) {
        const auto* p = static_cast<const cuGraphInstantiateWithFlags_params*>(d->functionParams);
        if (p->phGraphExec)
          on_instantiate(*p->phGraphExec, p->hGraph);
      }
      return;
    default:
      return;
    }
  }

  static bool succeeded(const CUpti_CallbackData* d) {
    return d->functionReturnValue &&
           *static_cast<const CUresult*>(d->functionReturnValue) == CUDA_SUCCESS;
  }

  void on_instantiate(CUgraphExec exec, CUgraph graph) {
    tool_scope scope;
    graphs_.on_instantiate(exec, graph); // not mutex_: a call's exit is still inside the gate
  }

  void on_graph_launch(CUgraphExec exec) {
    std::lock_guard lock(mutex_);
    const auto kernels = graphs_.kernels_of(exec);
    if (!kernels) {
      ++not_profiled_[{"(kernels of a graph whose instantiation roofkit did not see)",
                       "CUDA graph"}];
      return;
    }
    for (const auto& name : *kernels)
      ++not_profiled_[{name, "CUDA graph"}];
    launches_ += static_cast<std::int64_t>(kernels->size());
  }

  void on_launch(CUpti_CallbackId cbid, const CUpti_CallbackData* d) {
    tool_scope scope;
    const launch_args a = decode_launch(cbid, d->functionParams);
    const std::int64_t index = launches_++;
    std::unique_lock lock(mutex_);
    if (finished_) // launched by another library's exit handler, after the run was written
      return;
    const kernel_table::kernel kernel = kernels_.of(d->symbolName);
    const std::string& name = kernels_.name(kernel.id);
    if (!device_written_) {
      device_written_ = true;
      CUdevice dev = 0;
      if (cuCtxGetDevice(&dev) == CUDA_SUCCESS) {
        write_start(static_cast<int>(dev), "", 0, nullptr);
        const std::string rank = rank_record(dev, static_cast<long>(pid_));
        write(rank);
        if (!rank.empty())
          start_nvlink_meter(dev);
      }
    }
    CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
    if (captures_ > 0 || (cuStreamIsCapturing(a.stream, &capture) == CUDA_SUCCESS &&
                          capture != CU_STREAM_CAPTURE_STATUS_NONE)) {
      ++not_profiled_[{name, "stream capture"}];
      return;
    }
    // The session, with its flush buffer, starts at the application's first launch, while device
    // memory is still free, and not at the first selected one (--launch-skip, --kernel, --nvtx).
    // A failure stops profiling here; the launches selected later are counted as unavailable.
    // Once a device has its state, later launches go straight to the selection.
    if (selector_ && !stopped_ && devices_.empty() && take_turn()) {
      int ordinal = 0;
      session_for(d->context, ordinal);
    }
    const launch_book::place at = locate(kernel.id, d->symbolName, a);
    std::string inferred_record;
    // Collectives are timed on every launch and never replayed (collective_timer.hpp).
    const bool collective = kernel.collective;
    if (collective) {
      ++not_profiled_[{name, "collective: timed on every launch, never replayed"}];
      close_batch("a collective"); // no checkpoint spans a collective
    } else if (selector_ && select(name) && (!book_->would_measure(at) || span_allowed(name)) &&
               book_->measure(at, index, inferred_record)) {
      if (stopped_)
        ++not_profiled_[{name, "profiler unavailable"}];
      else if (!take_turn())
        ++not_profiled_[{name, "profiler held by another process of the application"}];
      else {
        profile(a, d, name, index, at);
        yield_turn_if_wanted(); // between back-to-back profiled launches the watcher may not get in
      }
    } else if (batch_) { // not selected, or inferred
      if (const std::string why = ride_along(a, d, name); !why.empty())
        close_batch("a launch not selected (" + why + ")");
    }
    if (peers_ && !batch_)
      peers_->close_span(); // a span lasts as long as a batch (or a replay in the callback)
    if (!inferred_record.empty())
      write(inferred_record);
    progress_->tick(index + 1, book_->measured(), book_->inferred());
    lock.unlock();
    timer_.begin(d->context, a.stream, at.group, d->correlationId,
                 kernel.named ? std::optional(kernel.hash) : std::nullopt);
    if (collective)
      collectives_.begin(a.stream, name, index, pid_);
  }

  // In a job of several ranks, whether this rank may replay: its span is open already (a batch),
  // or opens now because no peer has called a collective that this rank has not; a peer's
  // collective in flight writes into this rank's memory, which a replay would restore over.
  bool span_allowed(const std::string& name) {
    if (!peers_ || batch_ || peers_->open_span())
      return true;
    ++not_profiled_[{name, "a peer rank's collective in flight (a replay would undo its writes)"}];
    return false;
  }

  // The launch's shape, enclosing NVTX ranges (when followed) and timer group.
  launch_book::place locate(int kernel, const char* symbol, const launch_args& a) {
    static const std::vector<std::string> none;
    const bool follow = !options_.nvtx_range.empty() || options_.nvtx_groups;
    const auto path = follow ? nvtx_ranges().path(this_thread_id(), options_.nvtx_rule) : none;
    return book_->locate(kernel, symbol, {a.grid[0], a.grid[1], a.grid[2]},
                         {a.block[0], a.block[1], a.block[2]}, a.dynamic_smem, path);
  }

  // Whether the launch passes the filters: name, NVTX range under the options' scope, skip, count.
  bool select(const std::string& name) {
    const bool inside =
        options_.nvtx_range.empty() ||
        nvtx_ranges().inside(this_thread_id(), options_.nvtx_range, options_.nvtx_rule);
    return selector_->select_inside(name, inside);
  }

  device_state* state_for(CUcontext ctx, int& ordinal) {
    CUdevice dev = 0;
    if (cuCtxGetDevice(&dev) != CUDA_SUCCESS)
      return nullptr;
    ordinal = static_cast<int>(dev);
    device_state& s = devices_[ordinal];
    if (s.failed || s.sessions)
      return s.failed ? nullptr : &s;
    profiler_options po;
    po.warn = [](const std::string& w) { say("warning: " + w); };
    // The bench's metric set and cache control: the session flushes the L2 after the
    // profiler has started each pass, through the kernel driver, or else in kernels whose
    // ranges it drops (profile_launch).
    po.cache = options_.cache;
    po.max_launch_sequence = max_batch_steps();
    po.step_user_ranges = replay_in_user_ranges();
    po.config_cache_dir = default_cache_dir();
    const auto t0 = std::chrono::steady_clock::now();
    const auto set_up_for = [&] {
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (phases_)
        phases_->add("session set-up and warm-up", seconds);
      return seconds;
    };
    try {
      // Enabled now, so that a missing permission or another attached profiler stops profiling
      // here, before the first launch, rather than failing every launch; the session keeps it.
      const phase_timer enabling(phases_.get(), "  of which profiler enabled and warm-up passes");
      s.sessions = std::make_unique<counter_sets>(
          ordinal, po, per_launch_set_allowed(),
          static_cast<std::size_t>(std::max<std::int64_t>(options_.replay_batch, 1)));
    } catch (const std::exception& e) {
      s.sessions.reset();
      s.failed = true;
      cuCtxSetCurrent(ctx);
      const auto* re = dynamic_cast<const error*>(&e);
      fail(e.what(), re ? re->hint() : "", static_cast<int>(re ? re->code() : exit_code::failure));
      set_up_for();
      return nullptr;
    }
    // Once a device, not a launch's: the run keeps it apart from the launches' overhead.
    write(profiler_time_line({{"session_setup_s", set_up_for()}}));
    cuDevicePrimaryCtxRetain(&s.primary, dev);
    cuCtxSetCurrent(ctx);
    write_start(ordinal, s.sessions->full().chip(), s.sessions->full().passes(),
                &s.sessions->full());
    s.method_written = s.sessions->full().cache_control_method();
    return &s;
  }

  // ROOFKIT_REPLAY_RANGES=user: a replay's measured launches are its only (user) ranges, its
  // other launches run outside any (profiler_options::step_user_ranges). A lab switch: its
  // ranges' times and cycles span their push to their pop (user-range-replay-h200.json).
  static bool replay_in_user_ranges() {
    const char* v = std::getenv("ROOFKIT_REPLAY_RANGES");
    return v && std::string(v) == "user";
  }

  // Writes the device record again when the session's cache control method changed since the
  // last one (the driver's flush failed mid-run and the sweep replaced it): the run says so.
  void note_cache_method(int ordinal, device_state& d) {
    if (!d.sessions || d.sessions->full().cache_control_method() == d.method_written)
      return;
    profiler_session& full = d.sessions->full();
    write_start(ordinal, full.chip(), full.passes(), &full);
    d.method_written = full.cache_control_method();
  }

  /// The device record (again, with the chip and passes, once a session exists).
  void write_start(int ordinal, const std::string& chip, int passes,
                   const profiler_session* session) {
    std::map<std::string, std::string> dev;
    char name[256] = {};
    cuDeviceGetName(name, sizeof name, ordinal);
    int major = 0;
    int minor = 0;
    int sms = 0;
    cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, ordinal);
    cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, ordinal);
    cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, ordinal);
    const cuda_versions versions = query_cuda_versions();
    dev["name"] = name;
    dev["cc"] = fmt::format("{}.{}", major, minor);
    dev["sms"] = std::to_string(sms);
    dev["ordinal"] = std::to_string(ordinal);
    if (!chip.empty())
      dev["chip"] = chip;
    if (const auto it = devices_.find(ordinal);
        it != devices_.end() && it->second.sessions && it->second.sessions->per_launch_passes() > 0)
      dev["per_launch_set_passes"] = std::to_string(it->second.sessions->per_launch_passes());
    if (session) {
      dev["cache_control_method"] = session->cache_control_method();
      dev["cache_control_passes"] = std::to_string(session->cache_controlled_passes());
      const std::string reason = session->cache_control_fallback_reason();
      if (!reason.empty())
        dev["cache_control_fallback_reason"] = reason;
    }
    dev["driver"] = versions.driver;
    dev["runtime"] = versions.runtime;
    write(start_line(dev, passes > 0 ? "roofline" : "", passes, pid_));
  }

  // One process at a time may have the GPU's profiler enabled: an application that starts
  // other CUDA processes has them take turns (profiler_turn). Waits for the turn, saying so on
  // stderr every 10 s; gives up after turn_limit_s (the launch is then not profiled).
  bool take_turn() {
    if (turn_->held())
      return true;
    const bool got = turn_->take(turn_limit_s, [](double waited) {
      if (static_cast<int>(waited) % 10 == 5)
        say(fmt::format("waiting {:.0f} s for another process of the application to finish "
                        "profiling a launch",
                        waited));
    });
    if (got && !watching_) {
      watching_ = true;
      std::thread([this] { watch_turn(); }).detach();
    }
    return got;
  }

  // While this process holds the turn, gives it up when another process waits for it and this
  // one is not profiling (the application's own threads hold the mutex while they profile).
  void watch_turn() {
    tool_scope scope;
    for (;;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      std::unique_lock lock(mutex_, std::try_to_lock);
      if (!lock.owns_lock())
        continue;
      if (finished_)
        return;
      yield_turn_if_wanted();
    }
  }

  // Disables this process's profilers and gives the turn up if another process waits for it
  // (the caller holds the mutex).
  void yield_turn_if_wanted() {
    if (!turn_->held() || !turn_->wanted() || batch_) // an open batch still needs the profiler
      return;
    for (auto& [ordinal, d] : devices_)
      if (d.sessions) {
        try {
          d.sessions->release_range_profiler();
        } catch (const std::exception& e) {
          say(std::string("warning: ") + e.what());
        }
      }
    turn_->give();
  }

  /// The device's state with a working session, or null (profiling then stops for good).
  device_state* session_for(CUcontext ctx, int& ordinal) {
    device_state* s = nullptr;
    try {
      s = state_for(ctx, ordinal);
    } catch (const error& e) {
      fail(e.what(), e.hint(), static_cast<int>(e.code()));
    }
    stopped_ = stopped_ || !s;
    return s;
  }

  void profile(const launch_args& a, const CUpti_CallbackData* d, const std::string& name,
               std::int64_t index, const launch_book::place& at) {
    CUcontext ctx = d->context;
    int ordinal = 0;
    device_state* s = session_for(ctx, ordinal);
    if (!s) {
      ++not_profiled_[{name, "profiler unavailable"}];
      return;
    }
    const auto t0 = std::chrono::steady_clock::now(); // after the device's set-up (state_for)
    if (ctx != s->primary) {
      close_batch("a launch on another context");
      ++not_profiled_[{name, "not the device's primary context"}];
      return;
    }
    launch_record rec;
    rec.index = index;
    rec.pid = pid_;
    rec.mangled_name = d->symbolName ? d->symbolName : "";
    kernel_result& k = rec.kernel;
    k.name = name;
    // The function's attributes are read once it is loaded (replay_now, defer).
    k.launch.grid = {a.grid[0], a.grid[1], a.grid[2]};
    k.launch.block = {a.block[0], a.block[1], a.block[2]};
    k.launch.dynamic_smem_bytes = a.dynamic_smem;
    rec.stream = reinterpret_cast<std::uintptr_t>(a.stream);
    rec.thread = this_thread_id();
    rec.shape = at.shape;
    rec.range = at.range;
    if (options_.replay_batch > 1)
      defer(a, ctx, *s, std::move(rec), t0);
    else
      replay_now(a, ctx, s, rec, t0);
  }

  // Replays one launch in its callback, before the application's own launch runs (a batch of 1,
  // or a launch whose parameters could not be copied).
  void replay_now(const launch_args& a, CUcontext ctx, device_state* s, launch_record& rec,
                  std::chrono::steady_clock::time_point t0) {
    const std::string& name = rec.kernel.name;
    kernel_result& k = rec.kernel;
    const driver_gate::hold_scope quiet(gate_);
    note_busy_driver(quiet);

    CUpti_Checkpoint cp{CUpti_Checkpoint_STRUCT_SIZE};
    cp.ctx = ctx;
    cp.allowOverwrite = 1;
    bool saved = false;
    auto restore = [&] {
      ROOFKIT_CUPTI_CHECK(cuptiCheckpointRestore(&cp));
      ROOFKIT_CU_CHECK(cuCtxSynchronize());
    };
    auto free_checkpoint = [&] {
      if (saved)
        cuptiCheckpointFree(&cp);
      saved = false;
    };
    std::string launch_error;
    std::optional<replay_output> output;
    try {
      load_function(a.function);
      read_launch_facts(a, k.launch);
      // Before the checkpoint: a switch of sets runs the enabled session's warm-up.
      profiler_session& session = [&]() -> profiler_session& {
        const activity_pause paused(activity_registers_);
        return s->sessions->use_for_batch(false, 1);
      }();
      if (!s->heap_ready && uses_heap(rec.mangled_name)) {
        prepare_device_heap();
        s->heap_ready = true;
      }
      // Also prints the device output of the application's earlier launches, before stdout is
      // redirected for the replay.
      sync_and_save(cp, [&] { output.emplace(); });
      saved = true;
      auto work = [&] {
        const CUresult r = relaunch(a);
        if (r != CUDA_SUCCESS && launch_error.empty()) {
          const char* text = nullptr;
          cuGetErrorName(r, &text);
          launch_error = text ? text : "launch failed";
        }
      };
      // The first pass starts from the memory just saved: no restore before it.
      bool first_pass = true;
      auto before_pass = [&] {
        if (!first_pass)
          ROOFKIT_CUPTI_CHECK(cuptiCheckpointRestore(&cp));
        first_pass = false;
      };
      // One auto range per kernel: its duration and counters are the kernel's alone (a user
      // range around the launch added about 17 us of launch overhead to every kernel's time).
      const activity_pause paused(activity_registers_);
      const range_values values = session.profile_launch(work, before_pass);
      cuCtxSetCurrent(ctx);
      restore();
      free_checkpoint();
      note_dropped_output(name, output->finish());
      if (!launch_error.empty())
        throw runtime_error("re-issued launch failed: " + launch_error);
      apply_counts(derive_roofline_counts(session.metrics(), values.values), values.values, k);
      note_counter_set(*s, session, rec, values.values);
    } catch (const std::exception& e) {
      cuCtxSetCurrent(ctx);
      // Passes may have run: give the application back the memory it had, as far as possible.
      if (saved) {
        try {
          restore();
        } catch (const std::exception&) {
        }
      }
      free_checkpoint();
      if (output)
        note_dropped_output(name, output->finish());
      const std::string why =
          launch_error.empty() ? e.what() : "re-issued launch failed: " + launch_error;
      k.status = "error";
      k.message = why;
      profiling_error(name, why);
      return;
    }
    rec.profile_overhead_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    write(launch_line(rec));
  }

  // Synchronises the context, runs `between`, and saves device memory in `cp`; the two steps are
  // timed for ROOFKIT_REPLAY_PHASES.
  template <class F> void sync_and_save(CUpti_Checkpoint& cp, F between) {
    const auto t0 = std::chrono::steady_clock::now();
    ROOFKIT_CU_CHECK(cuCtxSynchronize());
    between();
    const auto t1 = std::chrono::steady_clock::now();
    ROOFKIT_CUPTI_CHECK(cuptiCheckpointSave(&cp));
    if (phases_) {
      phases_->add_sync(std::chrono::duration<double>(t1 - t0).count());
      phases_->add_save(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count());
    }
  }

  // Adds a selected launch to the open batch, opening one if needed; the application's launch
  // then runs as usual. Loading a function and setting up the device heap run work of the driver's
  // that the batch's checkpoint would undo: a batch ends before them.
  void defer(const launch_args& a, CUcontext ctx, device_state& s, launch_record rec,
             std::chrono::steady_clock::time_point t0) {
    // A batch replayed here is its own launches' overhead, not this launch's.
    auto close_first = [&](const char* why) {
      close_batch(why);
      t0 = std::chrono::steady_clock::now();
    };
    if (batch_ && batch_->ctx != ctx)
      close_first("a launch on another context");
    if (batch_ && (batch_->measured >= static_cast<std::size_t>(options_.replay_batch) ||
                   batch_->launches.size() >= max_batch_steps()))
      close_first("a full batch");
    const bool heap = !s.heap_ready && uses_heap(rec.mangled_name);
    CUfunction f = a.function;
    CUfunctionLoadingState state = CU_FUNCTION_LOADING_STATE_MAX;
    const bool to_load = loading_state(f, state) && state == CU_FUNCTION_LOADING_STATE_UNLOADED;
    if (batch_ && (heap || to_load))
      close_first("a function to load");
    std::unique_ptr<captured_launch> copy;
    bool pinned = false; // the launch reads page-locked memory by a pointer among its parameters
    try {
      if (to_load)
        ROOFKIT_CU_CHECK(cuFuncLoad(f));
      read_launch_facts(a, rec.kernel.launch);
      if (heap) {
        prepare_device_heap();
        s.heap_ready = true;
      }
      copy = captured_launch::copy(a);
      pinned = copy && reads_pinned(*copy);
      if (pinned && batch_ && batch_->host_read_kept)
        close_first("a launch reading page-locked memory");
      if (copy && !batch_) {
        const driver_gate::hold_scope quiet(gate_);
        note_busy_driver(quiet);
        // Also prints the device output of the application's earlier launches.
        pending_batch b;
        b.ctx = ctx;
        b.state = &s;
        b.checkpoint.ctx = ctx;
        b.checkpoint.allowOverwrite = 1;
        b.modules_at_open = modules_loaded_;
        if (b.modules_at_open != modules_at_last_open_) { // a module loaded eagerly since
          modules_at_last_open_ = b.modules_at_open;
          register_exit_handler();
        }
        sync_and_save(b.checkpoint, [] {});
        batch_.emplace(std::move(b));
      }
      if (copy)
        save_variables(f);
    } catch (const std::exception& e) {
      cuCtxSetCurrent(ctx);
      profiling_error(rec.kernel.name, e.what());
      close_batch("a profiling error"); // without this launch, which has not run yet
      return;
    }
    if (!copy) { // the driver cannot tell its parameters' sizes
      close_first("parameters that cannot be copied");
      replay_now(a, ctx, &s, rec, t0);
      return;
    }
    const double spent =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    batch_->reads_host_memory = batch_->reads_host_memory || pinned;
    pending_launch step;
    step.launch = std::move(copy);
    step.rec = std::move(rec);
    step.capture_s = spent;
    batch_->launches.push_back(std::move(step));
    ++batch_->measured;
  }

  // Replays the open batch (the caller holds the mutex): every pass restores the checkpoint and
  // re-issues the launches in order; the last pass leaves device memory as the application's
  // launches did. Writes a record per launch. `why` (what ended the batch) is counted.
  void close_batch(const std::string& why) {
    std::optional<pending_batch> taken = take_batch();
    if (!taken)
      return;
    pending_batch& b = *taken;
    const phase_timer whole(phases_.get(), "batches replayed (whole)");
    tool_scope scope;
    const driver_gate::hold_scope quiet(gate_);
    note_busy_driver(quiet);
    const auto t0 = std::chrono::steady_clock::now();
    CUcontext previous = nullptr;
    cuCtxGetCurrent(&previous);
    cuCtxSetCurrent(b.ctx);
    counts_["batches"] += 1;
    counts_["batch_launches"] += static_cast<double>(b.measured);
    counts_["batch_steps_not_measured"] += static_cast<double>(b.launches.size() - b.measured);
    counts_["module_variables_restored"] += static_cast<double>(b.variables.variables());
    ++batch_ends_[why];
    std::optional<replay_output> output;
    std::string failure;
    const std::vector<range_values> values = replay_batch(b, output, failure);
    cuptiCheckpointFree(&b.checkpoint);
    if (peers_)
      peers_->close_span();
    if (output)
      note_dropped_output(batch_label(b), output->finish());
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    write_batch_records(b, values, failure, seconds);
    cuCtxSetCurrent(previous);
  }

  // The passes over the batch's steps up to its last measured launch; the steps after that run
  // once afterwards. Returns one entry per measured launch, or none with `failure` set (device
  // memory is then put back as the application's launches left it, as far as possible).
  std::vector<range_values> replay_batch(pending_batch& b, std::optional<replay_output>& output,
                                         std::string& failure) {
    std::string launch_error;
    auto issue = [&](const pending_launch& l) {
      const CUresult r = l.issue();
      if (r != CUDA_SUCCESS && launch_error.empty()) {
        const char* text = nullptr;
        cuGetErrorName(r, &text);
        launch_error = fmt::format("re-issued {} ({}) failed: {}", l.label(),
                                   l.launch ? l.launch->describe() : "device work",
                                   text ? text : "unknown error");
      }
    };
    std::size_t passes_end = 0;
    for (std::size_t i = 0; i < b.launches.size(); ++i)
      if (b.launches[i].measured)
        passes_end = i + 1;
    std::vector<profiler_session::sequence_step> steps;
    for (std::size_t i = 0; i < passes_end; ++i) {
      const pending_launch& l = b.launches[i];
      steps.push_back({[&issue, &l] { issue(l); }, l.measured, l.launch != nullptr});
    }
    std::vector<range_values> values;
    try {
      // The application's launches have run (their printf output comes out before the redirect),
      // and what the host wrote into its page-locked memory is kept before any restore.
      ROOFKIT_CU_CHECK(cuCtxSynchronize());
      keep_pinned_memory();
    } catch (const std::exception& e) {
      failure = e.what(); // nothing restored: memory is as the application left it
      return values;
    }
    try {
      output.emplace();
      const activity_pause paused(activity_registers_);
      counter_sets& sets = *b.state->sessions;
      b.session = &sets.use_for_batch(per_launch_enough(b), b.measured);
      const auto p0 = std::chrono::steady_clock::now();
      values = b.session->profile_steps(steps, [&] { b.restore(); });
      sets.note_batch(*b.session, b.measured,
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - p0).count());
      cuCtxSetCurrent(b.ctx);
      for (std::size_t i = passes_end; i < b.launches.size(); ++i)
        issue(b.launches[i]);
      ROOFKIT_CU_CHECK(cuCtxSynchronize());
      if (!launch_error.empty())
        throw runtime_error(launch_error);
    } catch (const std::exception& e) {
      failure = launch_error.empty() ? e.what() : launch_error;
      values.clear();
      // Give the application the memory its launches left: from the checkpoint, once more.
      cuCtxSetCurrent(b.ctx);
      launch_error.clear();
      try {
        b.restore();
        for (const auto& l : b.launches)
          issue(l);
        ROOFKIT_CU_CHECK(cuCtxSynchronize());
        if (!launch_error.empty())
          throw runtime_error(launch_error);
      } catch (const std::exception& again) {
        if (!finished_) // at exit there is nothing left to keep
          say(fmt::format("warning: the application's device memory after {} may be wrong: "
                          "re-running its launches after a failed replay failed too ({})",
                          b.launches.back().label(), again.what()));
      }
    }
    put_back_pinned_memory();
    return values;
  }

  // The application's page-locked host memory as its work left it, before the replay's restores
  // take it back to the checkpoint's contents; put back after the last pass.
  void keep_pinned_memory() {
    const auto t0 = std::chrono::steady_clock::now();
    counts_["pinned_bytes_kept"] += static_cast<double>(pinned_.keep());
    counts_["pinned_keep_s"] +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

  void put_back_pinned_memory() {
    const auto t0 = std::chrono::steady_clock::now();
    pinned_.put_back();
    counts_["pinned_keep_s"] +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

  // Whether every launch of the batch may carry the per-launch set (its shape measured enough).
  bool per_launch_enough(const pending_batch& b) const {
    return std::all_of(b.launches.begin(), b.launches.end(), [&](const pending_launch& l) {
      return !l.measured || shape_details_.per_launch_enough(l.rec.shape);
    });
  }

  // Which set measured `rec`; a launch measured with the full set counts towards its shape's.
  void note_counter_set(device_state& d, const profiler_session& used, launch_record& rec,
                        const std::map<std::string, double>& values) {
    if (d.sessions->is_per_launch(used))
      rec.per_launch_set = true;
    else
      shape_details_.note_full(rec.shape, per_launch_set_misses(used.metrics(), values));
  }

  // Whether the per-launch set may be used: with more than two samples a shape (with two, a
  // switch of sets for each shape's second launch would cost more than it saves), or every launch.
  bool per_launch_set_allowed() const {
    return options_.sample.all() || options_.sample.per_shape > 2;
  }

  // A record per measured launch of a replayed batch, each charged its share of `seconds`.
  void write_batch_records(pending_batch& b, const std::vector<range_values>& values,
                           const std::string& failure, double seconds) {
    const double share = seconds / static_cast<double>(std::max<std::size_t>(b.measured, 1));
    std::size_t next = 0;
    for (auto& l : b.launches) {
      if (!l.measured)
        continue;
      launch_record& rec = l.rec;
      const std::size_t i = next++;
      if (!failure.empty() || i >= values.size()) {
        profiling_error(rec.kernel.name, failure.empty() ? "no counter values" : failure);
        continue;
      }
      try {
        apply_counts(derive_roofline_counts(b.session->metrics(), values[i].values),
                     values[i].values, rec.kernel);
        note_counter_set(*b.state, *b.session, rec, values[i].values);
      } catch (const std::exception& e) {
        profiling_error(rec.kernel.name, e.what());
        continue;
      }
      rec.profile_overhead_s = l.capture_s + share;
      write(launch_line(rec));
    }
  }

  // Keeps the open batch open across a launch that is not measured: it joins the batch as a step
  // that every pass re-issues. Returns why it cannot (then the batch is replayed before it runs),
  // or nothing when it joined.
  std::string ride_along(const launch_args& a, const CUpti_CallbackData* d,
                         const std::string& name) {
    if (batch_->ctx != d->context)
      return "another context";
    if (batch_->launches.size() >= max_batch_steps())
      return "a full batch";
    CUfunction f = a.function;
    CUfunctionLoadingState state = CU_FUNCTION_LOADING_STATE_MAX;
    if (!loading_state(f, state) || state != CU_FUNCTION_LOADING_STATE_LOADED)
      return "a function to load";
    if (!batch_->state->heap_ready && d->symbolName && uses_heap(d->symbolName))
      return "the device heap to set up";
    tool_scope scope;
    std::unique_ptr<captured_launch> copy = captured_launch::copy(a);
    if (!copy)
      return "parameters that cannot be copied";
    const bool pinned = reads_pinned(*copy);
    if (pinned && batch_->host_read_kept)
      return "page-locked memory read after the host read results";
    try {
      save_variables(f);
    } catch (const std::exception&) {
      return "module variables that cannot be saved";
    }
    batch_->reads_host_memory = batch_->reads_host_memory || pinned;
    pending_launch step;
    step.launch = std::move(copy);
    step.rec.kernel.name = name;
    step.measured = false;
    batch_->launches.push_back(std::move(step));
    return {};
  }

  // A memset, a copy within the batch's device memory or a copy from the host (of the bytes the
  // host holds now) between the open batch's launches joins it as a step, unless the batch is full.
  bool ride_along(CUpti_CallbackId cbid, const CUpti_CallbackData* d) {
    if (batch_->launches.size() >= max_batch_steps())
      return false;
    pending_launch step;
    step.work = memset_step(cbid, d->functionParams);
    if (!step.work) {
      tool_scope scope;
      step.work = device_copy_step(cbid, d->functionParams, batch_->ctx);
      step.what = "a device-to-device copy";
    }
    if (!step.work) {
      tool_scope scope;
      step.work = host_copy_step(cbid, d->functionParams, batch_->ctx, host_copy_max_bytes);
      step.what = "a copy from the host";
      if (step.work)
        counts_["host_copies_inside_batches"] += 1;
    }
    if (!step.work)
      return false;
    step.measured = false;
    batch_->launches.push_back(std::move(step));
    return true;
  }

  // Before a launch of the open batch runs: at the first launch of its module's kernels in the
  // batch, that module's variables as the replays must find them, when a module was loaded since
  // the batch's checkpoint (the checkpoint has the variables of the modules loaded before it).
  void save_variables(CUfunction f) {
    batch_->variables.save(variables_, f, modules_loaded_ != batch_->modules_at_open);
  }

  // A plain device allocation while the batch is open keeps it open: the checkpoint does not hold
  // the new memory, and the application, which cannot read it before writing it with a launch or
  // a memset (each re-issued in every pass), finds after the passes what its own launches left.
  // So does a page-locked host allocation: no restore touches it, and the replay keeps what the
  // host writes into it (pinned_). Managed and pool allocations, which the host or another stream
  // can fill without a call the batch sees, still end it.
  bool allocation_inside(CUpti_CallbackId cbid, const CUpti_CallbackData* d) {
    const bool host = cbid == CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc ||
                      cbid == CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost ||
                      cbid == CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost_v2;
    if ((cbid != CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2 &&
         cbid != CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2 && !host) ||
        (!host && d->context != batch_->ctx))
      return false;
    counts_["allocations_inside_batches"] += 1;
    return true;
  }

  // A copy to the host or a wait for work keeps the batch open: it writes no device memory, and the
  // replay keeps the page-locked host memory that the host may write once it has seen results
  // (pinned_). Not where the process has managed memory, which the replay's restores would take
  // back to the checkpoint's contents as well, nor where a launch of the batch reads page-locked
  // memory by a pointer among its parameters: its replays would find what the restore left there,
  // not what the host had written before that launch.
  bool host_read_inside() {
    if (managed_memory_ || batch_->reads_host_memory)
      return false;
    batch_->host_read_kept = true;
    counts_["host_reads_inside_batches"] += 1;
    return true;
  }

  // Whether a launch reads page-locked memory by a pointer among its parameters. After a host read
  // kept the batch open the host may have written that memory, so such a launch does not join (its
  // replays would read what the restores leave there); once one has joined, host reads end the
  // batch (host_read_inside).
  bool reads_pinned(const captured_launch& c) const {
    return pinned_.holds_pointer(c.param_bytes());
  }

  // Steps of one batch, measured or not: the session's sequence limit.
  std::size_t max_batch_steps() const {
    const auto launches = static_cast<std::size_t>(options_.replay_batch);
    return std::max(launches, std::min(batch_steps_per_launch * launches, max_batch_steps_in_all));
  }

  // The open batch, if any, which is then no longer open (the caller holds the mutex).
  std::optional<pending_batch> take_batch() {
    std::optional<pending_batch> b;
    b.swap(batch_);
    return b;
  }

  // Gives up the open batch without replaying it (the application's launches have run: its memory
  // is already right); its launches are listed as not profiled, and `why` is counted.
  void drop_batch(const std::string& why) {
    std::optional<pending_batch> taken = take_batch();
    if (!taken)
      return;
    if (peers_)
      peers_->close_span();
    pending_batch& b = *taken;
    tool_scope scope;
    cuptiCheckpointFree(&b.checkpoint);
    ++batch_ends_[why + " (dropped)"];
    for (const auto& l : b.launches)
      if (l.measured)
        ++not_profiled_[{l.rec.kernel.name, "module unloaded before its batch was replayed"}];
  }

  // After waiting for the gate: says once when another thread stayed inside a driver call past
  // the gate's limit (the replay or checkpoint then runs beside it), and counts every such time.
  void note_busy_driver(const driver_gate::hold_scope& quiet) {
    if (quiet.drained())
      return;
    if (counts_["busy_driver_waits"]++ == 0)
      say(fmt::format("warning: another thread of the application stayed inside a CUDA driver "
                      "call for over {} s; profiling went on beside it",
                      gate_limit.count()));
  }

  // A selected launch that could not be profiled: said on stderr and counted.
  void profiling_error(const std::string& name, const std::string& why) {
    say(fmt::format("{}: not profiled: {}", name, why));
    ++not_profiled_[{name, "profiling error"}];
  }

  static std::string batch_label(const pending_batch& b) {
    if (b.launches.size() == 1)
      return b.launches.front().label();
    std::set<std::string> names;
    for (const auto& l : b.launches)
      names.insert(l.label());
    std::string list;
    for (const auto& n : names)
      list += (list.empty() ? "" : ", ") + n;
    return fmt::format("{} steps replayed together ({})", b.launches.size(), list);
  }

  // The loading state of `f`, which the runtime may pass as a CUkernel: then `f` becomes the
  // kernel's function in the current context. False when the driver cannot tell.
  static bool loading_state(CUfunction& f, CUfunctionLoadingState& state) {
    if (cuFuncIsLoaded(&state, f) == CUDA_SUCCESS)
      return true;
    CUfunction in_context = nullptr;
    if (cuKernelGetFunction(&in_context, reinterpret_cast<CUkernel>(f)) != CUDA_SUCCESS ||
        cuFuncIsLoaded(&state, in_context) != CUDA_SUCCESS)
      return false;
    f = in_context;
    return true;
  }

  // With lazy loading (CUDA_MODULE_LOADING=LAZY, the default), a function is loaded inside its
  // first launch, after this callback, so the replay's first pass would load it. Loading a module
  // that uses the device heap, printf or device-side launches runs a kernel of the driver's, which
  // the first pass would count as a second kernel, and whose effects the checkpoint would undo.
  // The runtime may pass a CUkernel where a CUfunction is expected: that case is tried second.
  static void load_function(CUfunction f) {
    CUfunctionLoadingState state = CU_FUNCTION_LOADING_STATE_MAX;
    if (loading_state(f, state) && state == CU_FUNCTION_LOADING_STATE_UNLOADED)
      ROOFKIT_CU_CHECK(cuFuncLoad(f));
  }

  bool uses_heap(const std::string& mangled_name) {
    std::lock_guard lock(heap_mutex_);
    return heap_kernels_.count(mangled_name) > 0;
  }

  // Says once per kernel that the printf output of its replay passes was dropped.
  void note_dropped_output(const std::string& name, long lines) {
    if (lines > 0 && kernels_with_output_.insert(name).second)
      say(fmt::format("{}: the device printf output of its replay passes ({} lines at its first "
                      "profiled launch) is dropped; the application's own launch prints it",
                      name, lines));
  }

  void fail(const std::string& message, const std::string& hint, int exit) {
    say(message + (hint.empty() ? "" : " (" + hint + ")"));
    write(error_line(message, hint, exit));
  }

  void write(const std::string& line) { records_.write(line); }

  static constexpr double turn_limit_s = 120;
  // Steps a batch holds per measured launch it may hold (--replay-batch), up to a limit of steps
  // in all (or --replay-batch where that is more): the launches, memsets and copies between
  // measured ones, which keep the batch open, re-run in every pass, and CUPTI's counter image for
  // the longest batch is made once at start (77 ms for 129 ranges on the H200, 0.5 MiB a range).
  static constexpr std::size_t batch_steps_per_launch = 4;
  static constexpr std::size_t max_batch_steps_in_all = 128;
  static constexpr std::chrono::seconds gate_limit{10};
  // Copies from the host kept for the replays, at most (larger ones end the batch).
  static constexpr std::size_t host_copy_max_bytes = std::size_t{64} << 20;

  std::recursive_mutex mutex_;
  const std::int64_t pid_ = static_cast<std::int64_t>(getpid());
  std::unique_ptr<profiler_turn> turn_;
  bool watching_ = false;
  std::map<std::string, double> counts_; // batches, their launches, busy-driver waits
  record_log records_;
  app_profile_options options_;
  std::unique_ptr<launch_selector> selector_;
  std::unique_ptr<launch_book> book_; ///< shapes, ranges, measured and inferred launches
  shape_detail_book shape_details_{full_set_launches_per_shape}; ///< which set a shape needs
  std::unique_ptr<progress_meter> progress_;
  std::unique_ptr<replay_phases> phases_ =
      replay_phases::enabled() ? std::make_unique<replay_phases>() : nullptr;
  CUpti_SubscriberHandle subscriber_ = nullptr;
  std::atomic<std::int64_t> launches_{0};
  std::atomic<int> captures_{0};
  bool stopped_ = false;
  bool finished_ = false;
  bool activity_registers_ = false; ///< kernel activity records give the registers per thread
  bool device_written_ = false;
  std::map<int, device_state> devices_;
  kernel_table kernels_;
  std::map<std::pair<std::string, std::string>, std::int64_t> not_profiled_;
  graph_kernels graphs_;
  std::set<std::string> kernels_with_output_;
  std::mutex heap_mutex_;
  module_variables variables_;                   ///< writable variables of the loaded modules
  pinned_memory pinned_;                         ///< page-locked host memory, kept across replays
  std::atomic<bool> managed_memory_{false};      ///< the process has managed memory
  std::atomic<std::uint64_t> modules_loaded_{0}; ///< module-loaded callbacks so far
  std::uint64_t modules_at_last_open_ = 0;       ///< modules_loaded_ when a batch last opened
  std::set<std::string> heap_kernels_; ///< mangled names of the loaded functions that use the heap
  launch_timer timer_;
  collective_timer collectives_{[this](const std::string& line) { write(line); }};
  std::optional<pending_batch> batch_;
  std::map<std::string, std::int64_t> batch_ends_; ///< what ended the batches, by call
  driver_gate gate_{gate_limit}; ///< keeps the application's threads out during replays
  std::unique_ptr<detail::peer_table> peers_; ///< the job's ranks on this node (multi-GPU jobs)
  std::unique_ptr<nvlink_meter> nvlink_;      ///< a rank's GPU's NVLink traffic
};

} // namespace

} // namespace roofkit::inject

// For the NCCL call recorder (lib/nccl_shim): ends this rank's replay span before a collective.
extern "C" __attribute__((visibility("default"))) void roofkit_inject_end_replay_span(void) {
  if (!roofkit::inject::stall_mode_requested())
    roofkit::inject::injector::get().end_replay_span();
}

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  static std::once_flag once;
  std::call_once(once, [] {
    if (roofkit::inject::stall_mode_requested())
      roofkit::inject::start_stall_sampling();
    else
      roofkit::inject::injector::get().start();
  });
  return 1;
}
