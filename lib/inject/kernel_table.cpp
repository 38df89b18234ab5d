#include "kernel_table.hpp"

#include <cstring>
#include <functional>
#include <string_view>

#include "roofkit/occupancy.hpp"
#include "roofkit/ranks.hpp"

namespace roofkit::inject {

std::size_t symbol_hash(const char* mangled) { return std::hash<std::string_view>{}(mangled); }

const kernel_table::kernel& kernel_table::add(const char* mangled) {
  const std::string symbol = mangled ? mangled : "";
  if (const auto it = by_symbol_.find(symbol); mangled && it != by_symbol_.end())
    return it->second;
  const std::string name = mangled ? demangle(symbol) : "(unnamed kernel)";
  const auto [at, added] = ids_.try_emplace(name, static_cast<int>(names_.size()));
  if (added)
    names_.push_back(name);
  const kernel k{at->second, mangled != nullptr, is_collective_kernel(name),
                 mangled ? symbol_hash(mangled) : 0};
  if (!mangled)
    return *(unnamed_ = k);
  return by_symbol_.emplace(symbol, k).first->second;
}

const kernel_table::kernel& kernel_table::of(const char* mangled) {
  if (!mangled)
    return unnamed_ ? *unnamed_ : add(nullptr);
  const auto it = by_pointer_.find(mangled);
  if (it != by_pointer_.end() && std::strcmp(it->second.mangled.c_str(), mangled) == 0)
    return it->second.facts;
  if (by_pointer_.size() >= max_pointers)
    by_pointer_.clear();
  known& entry = by_pointer_[mangled];
  entry = {mangled, add(mangled)};
  return entry.facts;
}

} // namespace roofkit::inject
