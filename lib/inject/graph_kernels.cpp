#include "graph_kernels.hpp"

#include "roofkit/occupancy.hpp"

namespace roofkit::inject {

namespace {

std::string function_name(CUfunction f, CUkernel k) {
  const char* name = nullptr;
  if (f && cuFuncGetName(&name, f) == CUDA_SUCCESS && name)
    return name;
  if (k && cuKernelGetName(&name, k) == CUDA_SUCCESS && name)
    return name;
  return "(unknown kernel)";
}

void collect(CUgraph graph, std::vector<std::string>& names, int depth) {
  std::size_t n = 0;
  if (depth > 8 || cuGraphGetNodes(graph, nullptr, &n) != CUDA_SUCCESS || n == 0)
    return;
  std::vector<CUgraphNode> nodes(n);
  if (cuGraphGetNodes(graph, nodes.data(), &n) != CUDA_SUCCESS)
    return;
  for (CUgraphNode node : nodes) {
    CUgraphNodeType type;
    if (cuGraphNodeGetType(node, &type) != CUDA_SUCCESS)
      continue;
    if (type == CU_GRAPH_NODE_TYPE_KERNEL) {
      CUDA_KERNEL_NODE_PARAMS p{};
      if (cuGraphKernelNodeGetParams(node, &p) == CUDA_SUCCESS)
        names.push_back(demangle(function_name(p.func, p.kern)));
    } else if (type == CU_GRAPH_NODE_TYPE_GRAPH) {
      CUgraph child = nullptr;
      if (cuGraphChildGraphNodeGetGraph(node, &child) == CUDA_SUCCESS)
        collect(child, names, depth + 1);
    }
  }
}

} // namespace

void graph_kernels::on_instantiate(CUgraphExec exec, CUgraph graph) {
  std::vector<std::string> names;
  collect(graph, names, 0);
  std::lock_guard lock(mutex_);
  kernels_[exec] = std::move(names);
}

std::optional<std::vector<std::string>> graph_kernels::kernels_of(CUgraphExec exec) {
  std::lock_guard lock(mutex_);
  auto it = kernels_.find(exec);
  if (it == kernels_.end())
    return std::nullopt;
  return it->second;
}

} // namespace roofkit::inject
