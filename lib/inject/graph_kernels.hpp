#pragma once
// The kernels of the CUDA graphs the application instantiates: graph launches are not profiled,
// and their kernels are listed as such by name.
#include <cuda.h>

#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace roofkit::inject {

/// The demangled kernel names of each instantiated graph. Thread-safe: its own lock, taken
/// after the injector's or alone.
class graph_kernels {
public:
  /// Records the kernels of `graph` (child graphs included) for its instance `exec`. Makes driver
  /// calls: the caller keeps its callbacks out.
  void on_instantiate(CUgraphExec exec, CUgraph graph);
  /// The kernels of `exec`; nullopt when its instantiation was not seen.
  std::optional<std::vector<std::string>> kernels_of(CUgraphExec exec);

private:
  std::mutex mutex_;
  std::unordered_map<CUgraphExec, std::vector<std::string>> kernels_;
};

} // namespace roofkit::inject
