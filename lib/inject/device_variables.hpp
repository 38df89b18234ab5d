#pragma once
// The variables of a GPU module that kernels can write (`__device__`, `__managed__`) are restored
// by a CUPTI checkpoint only when the module was loaded before it. With lazy loading, a module
// loaded while a replay batch is open (the first launch of one of its kernels joined the batch)
// was not: its kernels counted launches once per replay pass as well
// (tests/apps/module_variables.cu). The injected library therefore saves the variables of such a
// module before the batch's first launch of its kernels runs, and puts them back after every
// checkpoint restore.
#include <cuda.h>

#include <cstddef>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace roofkit::inject {

/// One variable in device memory.
struct device_variable {
  CUdeviceptr address = 0;
  std::size_t bytes = 0;
};

/// The writable variables of the loaded modules, by module.
class module_variables {
public:
  /// Adds the variables named in a loaded module's image (the CUPTI module-loaded callback).
  void add_image(const void* image, std::size_t size);
  /// Forgets what is known per module (a module was unloaded: its handle may come back).
  void forget_modules();
  /// The variables of the module of `f` (a CUfunction in the current context), empty when the
  /// driver cannot tell.
  const std::vector<device_variable>& of(CUfunction f);
  /// Variables found in modules so far.
  std::size_t found() const { return found_; }

private:
  std::mutex names_mutex_; // add_image runs on whichever thread loads a module
  std::map<std::string, std::size_t> names_;
  std::map<CUmodule, std::vector<device_variable>> by_module_;
  std::size_t found_ = 0;
};

/// Copies of variables taken before a replay, put back by restore(); freed with it.
class variable_snapshot {
public:
  variable_snapshot() = default;
  ~variable_snapshot();
  variable_snapshot(const variable_snapshot&) = delete;
  variable_snapshot& operator=(const variable_snapshot&) = delete;
  variable_snapshot(variable_snapshot&& other) noexcept;
  variable_snapshot& operator=(variable_snapshot&& other) noexcept;

  /// At a launch of `f`, before it runs: the first launch of its module's kernels since the
  /// snapshot began saves that module's variables when `needed` (the module may be newer than the
  /// checkpoint); later launches save nothing, as that module's kernels have run since. Throws
  /// roofkit::error when the driver fails.
  void save(module_variables& modules, CUfunction f, bool needed);
  /// Writes the saved values back (synchronous).
  void restore() const;
  std::size_t variables() const { return saved_.size(); }

private:
  struct saved_variable {
    device_variable at;
    CUdeviceptr copy = 0;
  };
  void release() noexcept;
  std::set<CUmodule> modules_;
  std::vector<saved_variable> saved_;
};

} // namespace roofkit::inject
