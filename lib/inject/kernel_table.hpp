#pragma once
// The application's kernels, numbered by demangled name and looked up on every launch by the
// function's mangled symbol's address, checked against the symbol. CUPTI hands the same address
// on every launch of a function, so a known function costs a pointer lookup and a compare of its
// symbol, not a demangling and two hashes of long template names (0.79 us a launch on a training
// step, and 0.23 us since: validation/data/launch-parts-h200.json, launch-parts-gpt-h200.json).
// Pure bookkeeping, tested on the CPU.
#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace roofkit::inject {

class kernel_table {
public:
  /// What a launch's kernel is.
  struct kernel {
    int id = 0;              ///< numbered as first launched, by demangled name
    bool named = false;      ///< the launch had a symbol (else "(unnamed kernel)")
    bool collective = false; ///< a collective's kernel (is_collective_kernel)
    std::size_t hash = 0;    ///< symbol_hash of the mangled name, when named
  };
  /// The kernel of a launch of `mangled` (null: the driver gave no name).
  const kernel& of(const char* mangled);
  /// The demangled name of kernel `id`; valid until the next call of of().
  const std::string& name(int id) const { return names_[static_cast<std::size_t>(id)]; }
  /// Every kernel's demangled name, by id.
  const std::vector<std::string>& names() const { return names_; }

private:
  using by_symbol = std::unordered_map<std::string, kernel>;
  kernel numbered(const std::string& name, bool named, std::size_t hash);

  /// A cache: emptied when it holds this many pointers (in case the driver's were not stable).
  static constexpr std::size_t max_pointers = 1 << 16;
  /// Each symbol's entry of by_symbol_, whose name is compared on every lookup: the address may
  /// be reused for another function after an unload.
  std::unordered_map<const char*, const by_symbol::value_type*> by_pointer_;
  by_symbol by_symbol_;
  std::unordered_map<std::string, int> ids_;
  std::vector<std::string> names_;
  std::optional<kernel> unnamed_;
};

} // namespace roofkit::inject
