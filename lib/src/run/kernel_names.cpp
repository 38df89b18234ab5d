// Display names of kernels: short, recognisable, and unique within a run.
#include <algorithm>
#include <cstddef>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "internal/text_util.hpp"
#include "roofkit/run.hpp"

namespace roofkit {

namespace {

// Splits `s` at top-level occurrences of `sep` (outside <>, (), [] and {}).
std::vector<std::string> split_top(const std::string& s, const std::string& sep) {
  std::vector<std::string> parts;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '<' || c == '(' || c == '[' || c == '{')
      ++depth;
    else if ((c == '>' || c == ')' || c == ']' || c == '}') && depth > 0)
      --depth;
    else if (depth == 0 && s.compare(i, sep.size(), sep) == 0) {
      parts.push_back(s.substr(start, i - start));
      i += sep.size() - 1;
      start = i + 1;
    }
  }
  parts.push_back(s.substr(start));
  return parts;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(' ');
  if (b == std::string::npos)
    return {};
  return s.substr(b, s.find_last_not_of(' ') - b + 1);
}

// Removes every top-level "(...)" group (argument lists) and a trailing "[...]" note.
std::string drop_parens(const std::string& s) {
  std::string out;
  int paren = 0, angle = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '<' && paren == 0)
      ++angle;
    else if (c == '>' && paren == 0 && angle > 0)
      --angle;
    if (angle == 0 && c == '(' && s.compare(i, 21, "(anonymous namespace)") != 0) {
      ++paren;
      continue;
    }
    if (paren > 0) {
      if (c == '(')
        ++paren;
      else if (c == ')')
        --paren;
      continue;
    }
    out += c;
  }
  if (const auto b = out.rfind(" ["); b != std::string::npos && out.back() == ']')
    out.erase(b);
  return trim(out);
}

// The parts of a qualified function name: the last component's name and template arguments.
struct name_parts {
  std::string base;
  std::vector<std::string> args;
};

name_parts parse_name(const std::string& demangled) {
  std::string s = trim(demangled);
  // A return type ("void ", "at::Tensor ") precedes the name at the top level.
  if (auto words = split_top(drop_parens(s), " "); words.size() > 1) {
    std::string rest;
    for (std::size_t i = 1; i < words.size(); ++i)
      rest += (i > 1 ? " " : "") + words[i];
    s = rest;
  } else {
    s = drop_parens(s);
  }
  auto comps = split_top(s, "::");
  // A lambda names its enclosing function: "f<...>::{lambda(int)#1}" is f's kernel.
  while (comps.size() > 1 &&
         (comps.back().rfind("{lambda", 0) == 0 || comps.back().rfind("[lambda", 0) == 0))
    comps.pop_back();
  const std::string last = trim(comps.empty() ? s : comps.back());
  name_parts p;
  const auto open = last.find('<');
  if (open == std::string::npos || open == 0 || last.back() != '>') {
    p.base = last;
    return p;
  }
  p.base = last.substr(0, open);
  for (auto& a : split_top(last.substr(open + 1, last.size() - open - 2), ","))
    p.args.push_back(trim(a));
  return p;
}

// An argument at increasing detail: its class name, the class name of its first template
// argument, then the whole argument without namespaces.
std::string arg_at_level(const std::string& arg, int level) {
  const name_parts p = parse_name(arg);
  if (level == 0)
    return p.base.empty() ? arg : p.base;
  if (level == 1)
    return p.args.empty() ? p.base : parse_name(p.args[0]).base;
  static const std::regex ns(R"(([A-Za-z_][A-Za-z0-9_]*|\(anonymous namespace\))::)");
  std::string s = std::regex_replace(drop_parens(arg), ns, "");
  s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
  return s;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// The data type a library kernel's name states, or "".
std::string name_dtype(const std::string& n) {
  static const std::vector<std::pair<std::string, std::string>> known{
      {"bf16", "bf16"},  {"fp16", "fp16"}, {"f16", "fp16"},  {"tf32", "tf32"}, {"e4m3", "fp8"},
      {"e5m2", "fp8"},   {"fp8", "fp8"},   {"fp64", "fp64"}, {"f64", "fp64"},  {"int8", "int8"},
      {"i8", "int8"},    {"s8", "int8"},   {"fp32", "fp32"}, {"f32", "fp32"},  {"sgemm", "fp32"},
      {"dgemm", "fp64"}, {"hgemm", "fp16"}};
  const std::string l = lower(n);
  for (const auto& [token, type_name] : known) {
    const std::regex t("(^|_|[0-9])" + token + "($|_|[a-z0-9])");
    if (std::regex_search(l, t))
      return type_name;
  }
  return {};
}

std::string tile_of(const std::string& n) {
  static const std::regex tile(R"((?:tilesize|_)([0-9]+)x([0-9]+)(?:x[0-9]+)?(?:_|$))");
  std::smatch m;
  if (std::regex_search(n, m, tile))
    return m[1].str() + "x" + m[2].str();
  return {};
}

std::string gemm_label(const std::string& dtype, const std::string& tile, const std::string& lib) {
  std::string s = "GEMM";
  if (!dtype.empty())
    s += " " + dtype;
  if (!tile.empty())
    s += ", tile " + tile;
  return s + " (" + lib + ")";
}

// A readable form of a library kernel whose name encodes its configuration, or "".
std::string library_name(const std::string& demangled, const name_parts& p) {
  const std::string b = p.base;
  const std::string l = lower(b);
  if (b.rfind("nvjet_", 0) == 0)
    return gemm_label(name_dtype(b), tile_of(b), "cuBLAS nvjet");
  if (b.rfind("cutlass_", 0) == 0 && l.find("gemm") != std::string::npos)
    return gemm_label(name_dtype(b), tile_of(b), "CUTLASS");
  // cuBLAS kernels name their architecture and tile: "sm80_xmma_gemm_..._tilesize256x128x8_...",
  // "ampere_sgemm_128x64_nn"; a user's "sgemm_8192" is left alone.
  static const std::regex cublas(R"(^(sm[0-9]+|maxwell|pascal|volta|turing|ampere|hopper)_.*gemm)");
  if (p.args.empty() && !tile_of(b).empty() && std::regex_search(l, cublas))
    return gemm_label(name_dtype(b), tile_of(b), "cuBLAS");
  const std::string whole = lower(demangled);
  const bool flash = whole.find("flash_fwd") != std::string::npos ||
                     whole.find("flash_bwd") != std::string::npos ||
                     whole.find("flash_attn") != std::string::npos;
  const bool fmha = whole.find("fmha") != std::string::npos;
  const bool sdpa = whole.find("sdpa") != std::string::npos;
  if (flash || fmha || sdpa) {
    const bool bwd =
        whole.find("bwd") != std::string::npos || whole.find("backward") != std::string::npos ||
        whole.find("dgrad") != std::string::npos || whole.find("bprop") != std::string::npos;
    const std::string lib = flash ? "flash" : sdpa ? "cuDNN sdpa" : "fmha";
    return fmt::format("attention {} ({}, {})", bwd ? "bwd" : "fwd", lib, b);
  }
  if ((b == "Kernel" || b == "Kernel2" || b == "device_kernel") && !p.args.empty() &&
      demangled.find("cutlass") != std::string::npos) {
    const name_parts inner = parse_name(p.args[0]);
    const std::string named = library_name(p.args[0], inner);
    return named.empty() ? "CUTLASS " + inner.base : named;
  }
  return {};
}

std::string base_label(const kernel_result& k) {
  if (!k.display_name.empty())
    return k.display_name;
  return display_kernel_name(k.name);
}

// Template arguments that tell apart the kernels of one group (same base label), at the
// coarsest level where all differ; "" for each when none does.
std::vector<std::string> distinguishing_args(const std::vector<name_parts>& group) {
  std::size_t nargs = 0;
  for (const auto& p : group)
    nargs = std::max(nargs, p.args.size());
  for (int level = 0; level < 3; ++level) {
    std::vector<std::string> out(group.size());
    for (std::size_t a = 0; a < nargs; ++a) {
      std::set<std::string> values;
      std::vector<std::string> v(group.size());
      for (std::size_t i = 0; i < group.size(); ++i) {
        v[i] = a < group[i].args.size() ? arg_at_level(group[i].args[a], level) : "";
        values.insert(v[i]);
      }
      if (values.size() < 2)
        continue;
      for (std::size_t i = 0; i < group.size(); ++i)
        out[i] += (out[i].empty() ? "" : ", ") + v[i];
    }
    if (std::set<std::string>(out.begin(), out.end()).size() == group.size())
      return out;
  }
  return std::vector<std::string>(group.size());
}

// At most `max_chars` (and at least 8) characters, an ellipsis marking a cut at the end.
std::string cut(const std::string& s, std::size_t max_chars) {
  return detail::cut_to_chars(s, std::max<std::size_t>(max_chars, 8));
}

// The same with the cut in the middle, for labels that a cut at the end makes alike: their end
// (template arguments, a library's "(cuBLAS)", a tile shape) tells them apart, so the longest end
// that starts a word, "<" or "(" and leaves a third of the room (at least 6 characters) to the
// start is kept.
std::string cut_middle(const std::string& s, std::size_t max_chars) {
  const std::size_t width = std::max<std::size_t>(max_chars, 8);
  if (detail::char_count(s) <= width)
    return s;
  const std::size_t room = width - 1; // the ellipsis
  const std::size_t max_tail = room - std::max<std::size_t>(6, room / 3);
  std::string tail;
  for (std::size_t at = 1; at < s.size(); ++at) {
    const bool starts = s[at] == '<' || s[at] == '(' || (s[at - 1] == ' ' && s[at] != ' ');
    if (starts && detail::char_count(std::string_view(s).substr(at)) <= max_tail) {
      tail = s.substr(at);
      break;
    }
  }
  if (tail.empty())
    return detail::cut_to_chars(s, width);
  std::string head = detail::cut_to_chars(s, room - detail::char_count(tail) + 1);
  head.resize(head.size() - std::string("\u2026").size()); // cut_to_chars' own ellipsis
  while (!head.empty() && (head.back() == ' ' || head.back() == ','))
    head.pop_back();
  return head + "\u2026" + tail;
}

std::string grid_text(const launch_config& l) {
  if (l.grid[0] == 0)
    return {};
  if (l.grid[1] == 1 && l.grid[2] == 1)
    return fmt::format("grid {}", l.grid[0]);
  return fmt::format("grid {}x{}x{}", l.grid[0], l.grid[1], l.grid[2]);
}

} // namespace

std::string display_kernel_name(const std::string& demangled) {
  const name_parts p = parse_name(demangled);
  if (auto lib = library_name(demangled, p); !lib.empty())
    return lib;
  return p.base.empty() ? trim(demangled) : p.base;
}

std::vector<std::string> kernel_labels(const run& r, std::size_t max_chars) {
  const std::size_t n = r.kernels.size();
  std::vector<std::string> labels(n);
  std::map<std::string, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < n; ++i) {
    labels[i] = base_label(r.kernels[i]);
    groups[labels[i]].push_back(i);
  }
  // Distinct full names under one label: add the template arguments that tell them apart.
  for (const auto& [label, members] : groups) {
    std::set<std::string> names;
    for (std::size_t i : members)
      names.insert(drop_parens(r.kernels[i].name));
    if (names.size() < 2 || !r.kernels[members[0]].display_name.empty())
      continue;
    std::vector<name_parts> parts;
    for (std::size_t i : members)
      parts.push_back(parse_name(r.kernels[i].name));
    const auto args = distinguishing_args(parts);
    for (std::size_t m = 0; m < members.size(); ++m)
      if (!args[m].empty())
        labels[members[m]] = label + "<" + args[m] + ">";
  }
  // Cut to the width (in the middle where a cut at the end makes labels alike, case aside),
  // then number whatever still collides ("#2", with the grid when known).
  std::vector<std::string> at_end(n);
  std::map<std::string, int> alike;
  for (std::size_t i = 0; i < n; ++i)
    ++alike[lower(at_end[i] = cut(labels[i], max_chars))];
  for (std::size_t i = 0; i < n; ++i)
    labels[i] = alike[lower(at_end[i])] > 1 ? cut_middle(labels[i], max_chars) : at_end[i];
  std::map<std::string, int> seen;
  for (std::size_t i = 0; i < n; ++i) {
    if (int count = ++seen[labels[i]]; count > 1) {
      const std::string g = grid_text(r.kernels[i].launch);
      std::string suffix = fmt::format(" #{}", count) + (g.empty() ? "" : " " + g);
      std::string candidate =
          cut(labels[i], max_chars > suffix.size() + 8 ? max_chars - suffix.size() : 8) + suffix;
      while (seen.count(candidate))
        candidate += "'";
      seen[candidate] = 1;
      labels[i] = candidate;
    }
  }
  return labels;
}

void assign_display_names(run& r) {
  const auto labels = kernel_labels(r);
  for (std::size_t i = 0; i < r.kernels.size(); ++i)
    r.kernels[i].display_name = labels[i];
}

} // namespace roofkit
