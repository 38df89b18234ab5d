#include "device_variables.hpp"

#include <utility>

#include "roofkit/app_profile.hpp"
#include "roofkit/core.hpp"

namespace roofkit::inject {

void module_variables::add_image(const void* image, std::size_t size) {
  std::map<std::string, std::size_t> names = writable_device_variables(image, size);
  if (names.empty())
    return;
  std::lock_guard lock(names_mutex_);
  names_.merge(names);
}

void module_variables::forget_modules() { by_module_.clear(); }

const std::vector<device_variable>& module_variables::of(CUfunction f) {
  static const std::vector<device_variable> none;
  CUmodule module = nullptr;
  if (!f || cuFuncGetModule(&module, f) != CUDA_SUCCESS || !module)
    return none;
  const auto known = by_module_.find(module);
  if (known != by_module_.end())
    return known->second;
  std::vector<device_variable>& found = by_module_[module];
  std::lock_guard lock(names_mutex_);
  for (const auto& [name, bytes] : names_) {
    device_variable v;
    if (cuModuleGetGlobal(&v.address, &v.bytes, module, name.c_str()) == CUDA_SUCCESS &&
        v.bytes > 0)
      found.push_back(v);
  }
  found_ += found.size();
  return found;
}

variable_snapshot::~variable_snapshot() { release(); }

variable_snapshot::variable_snapshot(variable_snapshot&& other) noexcept
    : modules_(std::move(other.modules_)), saved_(std::exchange(other.saved_, {})) {}

variable_snapshot& variable_snapshot::operator=(variable_snapshot&& other) noexcept {
  if (this != &other) {
    release();
    modules_ = std::move(other.modules_);
    saved_ = std::exchange(other.saved_, {});
  }
  return *this;
}

void variable_snapshot::release() noexcept {
  for (const auto& s : saved_)
    cuMemFree(s.copy);
  saved_.clear();
  modules_.clear();
}

void variable_snapshot::save(module_variables& modules, CUfunction f, bool needed) {
  CUmodule module = nullptr;
  if (!f || cuFuncGetModule(&module, f) != CUDA_SUCCESS || !modules_.insert(module).second ||
      !needed)
    return;
  for (const device_variable& v : modules.of(f)) {
    saved_variable s{v, 0};
    ROOFKIT_CU_CHECK(cuMemAlloc(&s.copy, v.bytes));
    saved_.push_back(s);
    ROOFKIT_CU_CHECK(cuMemcpyDtoD(s.copy, v.address, v.bytes));
  }
}

void variable_snapshot::restore() const {
  for (const auto& s : saved_)
    ROOFKIT_CU_CHECK(cuMemcpyDtoD(s.at.address, s.copy, s.at.bytes));
}

} // namespace roofkit::inject
