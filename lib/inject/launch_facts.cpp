#include "launch_facts.hpp"

#include "roofkit/core.hpp"

namespace roofkit::inject {

namespace {

// The cluster shape a cuLaunchKernelEx call asks for; false when it sets none.
bool launch_cluster(const launch_args& a, std::array<std::uint32_t, 3>& out) {
  if (a.config == nullptr || a.config->attrs == nullptr)
    return false;
  for (unsigned i = 0; i < a.config->numAttrs; ++i) {
    const CUlaunchAttribute& attr = a.config->attrs[i];
    if (attr.id != CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
      continue;
    const auto& d = attr.value.clusterDim;
    if (d.x == 0 || d.y == 0 || d.z == 0)
      return false;
    out = {d.x, d.y, d.z};
    return true;
  }
  return false;
}

int attribute(CUfunction_attribute which, CUfunction f) {
  int v = 0;
  ROOFKIT_CU_CHECK(cuFuncGetAttribute(&v, which, f));
  return v;
}

// A function's required cluster dimension; 0 when it has none or the device has no clusters
// (before compute capability 9.0 the driver may refuse the attribute).
int required_cluster(CUfunction_attribute which, CUfunction f) {
  int v = 0;
  return cuFuncGetAttribute(&v, which, f) == CUDA_SUCCESS ? v : 0;
}

std::uint32_t count(int v) { return v > 0 ? static_cast<std::uint32_t>(v) : 0; }

} // namespace

CUfunction function_in_context(CUfunction f) {
  CUfunctionLoadingState state;
  if (f == nullptr || cuFuncIsLoaded(&state, f) == CUDA_SUCCESS)
    return f;
  CUfunction in_context = nullptr;
  if (cuKernelGetFunction(&in_context, reinterpret_cast<CUkernel>(f)) != CUDA_SUCCESS)
    return nullptr;
  return in_context;
}

void read_launch_facts(const launch_args& a, launch_config& out) {
  out.grid = {a.grid[0], a.grid[1], a.grid[2]};
  out.block = {a.block[0], a.block[1], a.block[2]};
  out.dynamic_smem_bytes = a.dynamic_smem;
  const CUfunction f = function_in_context(a.function);
  if (f == nullptr)
    return;
  out.registers_per_thread = count(attribute(CU_FUNC_ATTRIBUTE_NUM_REGS, f));
  out.static_smem_bytes = count(attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
  out.local_bytes_per_thread = count(attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f));
  if (launch_cluster(a, out.cluster))
    return;
  const int w = required_cluster(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, f);
  const int h = required_cluster(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT, f);
  const int d = required_cluster(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH, f);
  if (w > 0 && h > 0 && d > 0)
    out.cluster = {count(w), count(h), count(d)};
  else
    out.cluster = {1, 1, 1};
}

} // namespace roofkit::inject
