#include "kernel_table.hpp"

#include <cstring>

#include "launch_spans.hpp"
#include "roofkit/occupancy.hpp"
#include "roofkit/ranks.hpp"

namespace roofkit::inject {

kernel_table::kernel kernel_table::numbered(const std::string& name, bool named, std::size_t hash) {
  const auto [at, added] = ids_.try_emplace(name, static_cast<int>(names_.size()));
  if (added)
    names_.push_back(name);
  return {at->second, named, is_collective_kernel(name), hash};
}

const kernel_table::kernel& kernel_table::of(const char* mangled) {
  if (!mangled) {
    if (!unnamed_)
      unnamed_ = numbered("(unnamed kernel)", false, 0);
    return *unnamed_;
  }
  const auto it = by_pointer_.find(mangled);
  if (it != by_pointer_.end() && std::strcmp(it->second->first.c_str(), mangled) == 0)
    return it->second->second;
  if (by_pointer_.size() >= max_pointers)
    by_pointer_.clear();
  const std::string symbol = mangled;
  auto known = by_symbol_.find(symbol);
  if (known == by_symbol_.end())
    known =
        by_symbol_.emplace(symbol, numbered(demangle(symbol), true, symbol_hash(mangled))).first;
  by_pointer_[mangled] = &*known;
  return known->second;
}

} // namespace roofkit::inject
