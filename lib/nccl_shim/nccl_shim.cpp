// libroofkit_nccl.so: preloaded (LD_PRELOAD) into a profiled application, it stands in front of
// NCCL's collective calls, forwards each to the real one (the next in the global scope, else the
// loaded object that has it) and appends one "nccl" line per call to the process's record log:
// stream, operation, bytes as nccl-tests counts them, ranks of the communicator, and the time of
// the call. The launcher's side matches each call to the collective kernel that carried it out
// (correlate_collectives). In a job of several ranks it also counts each call in the job's peer
// table and, before forwarding it, waits while another rank replays (internal/peer_table.hpp).
// Built without NCCL's headers or library (internal/nccl_api.hpp).
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "internal/nccl_api.hpp"
#include "internal/peer_table.hpp"
#include "roofkit/ranks.hpp"

namespace {

namespace nccl = roofkit::nccl;

// A collective waits at most this long for a peer's replay: longer means the peer's host code
// waits for this rank outside NCCL, and the call goes ahead.
constexpr std::chrono::seconds peer_wait_limit{10};

const char* record_base() {
  const char* base = std::getenv("ROOFKIT_PROFILE_RECORD");
  return base && *base ? base : nullptr;
}

int record_fd() {
  static int fd = [] {
    if (!record_base())
      return -1;
    std::string path = record_base();
    if (auto r = roofkit::rank_from_environment(
            [](const char* n) -> const char* { return std::getenv(n); }))
      path = roofkit::rank_record_path(path, r->rank);
    return ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  }();
  return fd;
}

void say(const std::string& text) {
  const std::string line = "roofkit: " + text + "\n";
  (void)!::write(2, line.data(), line.size());
}

// The job's peer table, for a rank of a profiled job; null otherwise.
roofkit::detail::peer_table* peers() {
  static std::unique_ptr<roofkit::detail::peer_table> table = [] {
    std::string why_not;
    auto t = roofkit::detail::peer_table::for_process(record_base() ? record_base() : "", why_not);
    if (!why_not.empty())
      say("warning: no peer table (" + why_not + "): collectives do not wait for a peer's replay");
    return t;
  }();
  return table.get();
}

// The injection library's entry that ends this rank's replay span (replays its open batch), found
// through CUDA_INJECTION64_PATH: the driver loads that library in a scope of its own.
using end_span_fn = void (*)();
end_span_fn end_own_span() {
  static const end_span_fn f = []() -> end_span_fn {
    const char* path = std::getenv("CUDA_INJECTION64_PATH");
    void* handle = path && *path ? dlopen(path, RTLD_LAZY | RTLD_NOLOAD) : nullptr;
    return handle ? reinterpret_cast<end_span_fn>(dlsym(handle, "roofkit_inject_end_replay_span"))
                  : nullptr;
  }();
  return f;
}

// Ends this rank's own replay span, counts the call in the peer table and waits while a peer
// replays from before it; the nanoseconds waited.
long long enter_collective() {
  auto* table = peers();
  if (!table)
    return 0;
  if (const auto end_span = end_own_span()) // two ranks never wait for each other's spans
    end_span();
  bool gave_up = false;
  const auto waited = table->enter_collective(peer_wait_limit, gave_up);
  static std::once_flag told;
  if (gave_up)
    std::call_once(told, [] {
      say("warning: a collective went ahead after waiting " +
          std::to_string(peer_wait_limit.count()) +
          " s for a peer rank's replay; the job's results may differ from a run alone");
    });
  return static_cast<long long>(waited.count());
}

std::int64_t now_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<std::int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

// The file this library was loaded from, to tell NCCL's entry points from its own.
std::string own_file() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&own_file), &info) == 0 || !info.dli_fname)
    return {};
  return info.dli_fname;
}

bool is_own(void* symbol) {
  static const std::string own = own_file();
  Dl_info info{};
  return dladdr(symbol, &info) != 0 && info.dli_fname && own == info.dli_fname;
}

int add_object(dl_phdr_info* info, std::size_t, void* out) {
  if (info->dlpi_name && *info->dlpi_name)
    static_cast<std::vector<std::string>*>(out)->emplace_back(info->dlpi_name);
  return 0;
}

// An entry point in a loaded object other than this one, looked up through each object's own
// scope: NCCL loaded into a local scope (Python imports PyTorch with RTLD_LOCAL, and libnccl
// comes in as its dependency) is invisible to RTLD_NEXT, while the application's calls still
// reach this library, which is in the global scope.
void* in_local_scopes(const char* name) {
  std::vector<std::string> objects;
  dl_iterate_phdr(add_object, &objects); // dlopen only after: not under the loader's lock
  for (const auto& path : objects) {
    void* handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_NOLOAD);
    if (!handle)
      continue;
    void* symbol = dlsym(handle, name);
    dlclose(handle);
    if (symbol && !is_own(symbol))
      return symbol;
  }
  return nullptr;
}

void say_missing(const char* name) {
  char line[200];
  const int n = std::snprintf(line, sizeof line,
                              "roofkit: the NCCL call recorder found no %s to forward to in this "
                              "process; set ROOFKIT_NCCL_SHIM=0 to profile without it\n",
                              name);
  if (n > 0 && n < static_cast<int>(sizeof line))
    (void)!::write(2, line, static_cast<std::size_t>(n));
}

template <class F> F next(const char* name) {
  void* symbol = dlsym(RTLD_NEXT, name);
  if (!symbol || is_own(symbol))
    symbol = in_local_scopes(name);
  if (!symbol)
    say_missing(name);
  return reinterpret_cast<F>(symbol);
}

int ranks_of(nccl::comm_t comm) {
  static const auto count = next<nccl::comm_count_fn>("ncclCommCount");
  int n = 0;
  if (!count || count(comm, &n) != nccl::success)
    return 0;
  return n;
}

// One line, one write(2): lines of concurrent threads and processes do not interleave. Counts
// the call in the peer table first, and records the time it waited there.
void record(const char* op, nccl::stream_t stream, double bytes, int nranks) {
  const long long waited = enter_collective();
  const int fd = record_fd();
  if (fd < 0)
    return;
  char line[288];
  const int n =
      std::snprintf(line, sizeof line,
                    "{\"type\":\"nccl\",\"pid\":%ld,\"stream\":%llu,\"op\":\"%s\","
                    "\"bytes\":%.0f,\"nranks\":%d,\"t_ns\":%lld,\"peer_wait_ns\":%lld}\n",
                    static_cast<long>(getpid()),
                    static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(stream)), op,
                    bytes, nranks, static_cast<long long>(now_ns()), waited);
  if (n > 0 && n < static_cast<int>(sizeof line))
    (void)!::write(fd, line, static_cast<std::size_t>(n));
}

double bytes_of(std::size_t count, nccl::data_type_t type, int factor = 1) {
  return static_cast<double>(count) * static_cast<double>(nccl::type_size(type)) * factor;
}

} // namespace

#define ROOFKIT_SHIM extern "C" __attribute__((visibility("default")))

ROOFKIT_SHIM nccl::result_t ncclAllReduce(const void* s, void* r, std::size_t count,
                                          nccl::data_type_t t, nccl::red_op_t op, nccl::comm_t comm,
                                          nccl::stream_t stream) {
  static const auto real = next<nccl::all_reduce_fn>("ncclAllReduce");
  if (!real)
    return nccl::system_error;
  record("all_reduce", stream, bytes_of(count, t), ranks_of(comm));
  return real(s, r, count, t, op, comm, stream);
}

ROOFKIT_SHIM nccl::result_t ncclBroadcast(const void* s, void* r, std::size_t count,
                                          nccl::data_type_t t, int root, nccl::comm_t comm,
                                          nccl::stream_t stream) {
  static const auto real = next<nccl::broadcast_fn>("ncclBroadcast");
  if (!real)
    return nccl::system_error;
  record("broadcast", stream, bytes_of(count, t), ranks_of(comm));
  return real(s, r, count, t, root, comm, stream);
}

ROOFKIT_SHIM nccl::result_t ncclReduce(const void* s, void* r, std::size_t count,
                                       nccl::data_type_t t, nccl::red_op_t op, int root,
                                       nccl::comm_t comm, nccl::stream_t stream) {
  static const auto real = next<nccl::reduce_fn>("ncclReduce");
  if (!real)
    return nccl::system_error;
  record("reduce", stream, bytes_of(count, t), ranks_of(comm));
  return real(s, r, count, t, op, root, comm, stream);
}

// nccl-tests' size of an all-gather or reduce-scatter: the full buffer, count x ranks.
ROOFKIT_SHIM nccl::result_t ncclAllGather(const void* s, void* r, std::size_t send_count,
                                          nccl::data_type_t t, nccl::comm_t comm,
                                          nccl::stream_t stream) {
  static const auto real = next<nccl::all_gather_fn>("ncclAllGather");
  if (!real)
    return nccl::system_error;
  const int n = ranks_of(comm);
  record("all_gather", stream, bytes_of(send_count, t, n), n);
  return real(s, r, send_count, t, comm, stream);
}

ROOFKIT_SHIM nccl::result_t ncclReduceScatter(const void* s, void* r, std::size_t recv_count,
                                              nccl::data_type_t t, nccl::red_op_t op,
                                              nccl::comm_t comm, nccl::stream_t stream) {
  static const auto real = next<nccl::reduce_scatter_fn>("ncclReduceScatter");
  if (!real)
    return nccl::system_error;
  const int n = ranks_of(comm);
  record("reduce_scatter", stream, bytes_of(recv_count, t, n), n);
  return real(s, r, recv_count, t, op, comm, stream);
}

ROOFKIT_SHIM nccl::result_t ncclSend(const void* s, std::size_t count, nccl::data_type_t t,
                                     int peer, nccl::comm_t comm, nccl::stream_t stream) {
  static const auto real = next<nccl::send_fn>("ncclSend");
  if (!real)
    return nccl::system_error;
  record("send", stream, bytes_of(count, t), ranks_of(comm));
  return real(s, count, t, peer, comm, stream);
}

ROOFKIT_SHIM nccl::result_t ncclRecv(void* r, std::size_t count, nccl::data_type_t t, int peer,
                                     nccl::comm_t comm, nccl::stream_t stream) {
  static const auto real = next<nccl::recv_fn>("ncclRecv");
  if (!real)
    return nccl::system_error;
  record("recv", stream, bytes_of(count, t), ranks_of(comm));
  return real(r, count, t, peer, comm, stream);
}
