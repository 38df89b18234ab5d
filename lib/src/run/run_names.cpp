#include <optional>
#include <string>

#include "internal/text_util.hpp"
#include "roofkit/run.hpp"

namespace roofkit {

std::string to_string(precision p) {
  switch (p) {
  case precision::fp64:
    return "fp64";
  case precision::fp32:
    return "fp32";
  case precision::fp16:
    return "fp16";
  case precision::bf16:
    return "bf16";
  case precision::tensor_fp64:
    return "tensor_fp64";
  case precision::tensor_tf32:
    return "tensor_tf32";
  case precision::tensor_fp16:
    return "tensor_fp16";
  case precision::tensor_fp8:
    return "tensor_fp8";
  case precision::tensor_int8:
    return "tensor_int8";
  }
  return "unknown";
}

std::string label(precision p) {
  switch (p) {
  case precision::fp64:
    return "FP64";
  case precision::fp32:
    return "FP32";
  case precision::fp16:
    return "FP16";
  case precision::bf16:
    return "BF16";
  case precision::tensor_fp64:
    return "Tensor FP64";
  case precision::tensor_tf32:
    return "Tensor TF32";
  case precision::tensor_fp16:
    return "Tensor FP16/BF16";
  case precision::tensor_fp8:
    return "Tensor FP8";
  case precision::tensor_int8:
    return "Tensor INT8";
  }
  return "unknown";
}

std::string to_string(memory_level l) {
  switch (l) {
  case memory_level::l1:
    return "l1";
  case memory_level::l2:
    return "l2";
  case memory_level::dram:
    return "dram";
  }
  return "unknown";
}

std::string label(memory_level l) {
  switch (l) {
  case memory_level::l1:
    return "L1/shared";
  case memory_level::l2:
    return "L2";
  case memory_level::dram:
    return "DRAM";
  }
  return "unknown";
}

std::string to_string(ceiling_source s) {
  return s == ceiling_source::measured ? "measured" : "theoretical";
}

std::string to_string(run_origin o) {
  switch (o) {
  case run_origin::measured:
    return "measured";
  case run_origin::analytical:
    return "analytical";
  case run_origin::imported:
    return "imported";
  case run_origin::recorded:
    return "recorded";
  case run_origin::timing_only:
    return "timing-only";
  }
  return "unknown";
}

std::string to_string(work_source s) {
  switch (s) {
  case work_source::counters:
    return "counters";
  case work_source::analytical:
    return "analytical";
  case work_source::imported:
    return "imported";
  }
  return "unknown";
}

std::optional<precision> parse_precision(const std::string& name) {
  for (precision p : all_precisions)
    if (to_string(p) == name)
      return p;
  return std::nullopt;
}

std::optional<memory_level> parse_memory_level(const std::string& name) {
  for (memory_level l : all_memory_levels)
    if (to_string(l) == name)
      return l;
  return std::nullopt;
}

std::string short_kernel_name(const std::string& name, std::size_t max_chars) {
  std::string s = name;
  if (s.rfind("void ", 0) == 0)
    s = s.substr(5);
  // Drop a trailing argument list "(float*, int)" but keep names that are only "(...)".
  if (!s.empty() && s.back() == ')') {
    int depth = 0;
    for (std::size_t i = s.size(); i-- > 0;) {
      if (s[i] == ')')
        ++depth;
      else if (s[i] == '(' && --depth == 0) {
        // "(CUTLASS)" after a space is part of a label, not an argument list.
        if (i > 0 && s[i - 1] != ' ')
          s = s.substr(0, i);
        break;
      }
    }
  }
  // Long template names keep their outer name: "ns::Kernel<...>" becomes "ns::Kernel<…>".
  if (s.size() > max_chars) {
    const auto open = s.find('<');
    if (open != std::string::npos && open > 0) {
      int depth = 0;
      for (std::size_t i = open; i < s.size(); ++i) {
        if (s[i] == '<')
          ++depth;
        else if (s[i] == '>' && --depth == 0) {
          s = s.substr(0, open + 1) + "\u2026" + s.substr(i);
          break;
        }
      }
    }
  }
  // Characters, not bytes: UTF-8 names are cut at a character boundary.
  return detail::cut_to_chars(s, max_chars);
}

} // namespace roofkit
