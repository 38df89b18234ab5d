#include <algorithm>
#include <cctype>
#include <charconv>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofkit/arch.hpp"
#include "roofkit/core.hpp"

namespace roofkit {

namespace {

const nlohmann::json& value_entry(const nlohmann::json& values, const char* key,
                                  const std::string& origin) {
  auto it = values.find(key);
  if (it == values.end() || !it->is_object() || !it->contains("value") || !it->contains("source"))
    throw runtime_error(
        fmt::format("{}: value '{}' missing (needs value and source)", origin, key));
  return *it;
}

template <class T>
void read_value(const nlohmann::json& values, const char* key, T& out, arch_spec& a,
                const std::string& origin, bool optional = false) {
  if (optional && !values.contains(key))
    return;
  const auto& entry = value_entry(values, key, origin);
  try {
    out = entry.at("value").get<T>();
  } catch (const nlohmann::json::exception& e) {
    throw runtime_error(
        fmt::format("{}: value '{}' has the wrong type: {}", origin, key, e.what()));
  }
  a.sources[key] = entry.at("source").get<std::string>();
}

void check(bool ok, const std::string& origin, const std::string& what) {
  if (!ok)
    throw runtime_error(fmt::format("{}: inconsistent table: {}", origin, what));
}

std::vector<arch_spec> load_all() {
  std::vector<std::string> paths;
  for (auto name : embedded_files())
    if (name.rfind("data/arch/", 0) == 0 && name.size() > 5 &&
        name.substr(name.size() - 5) == ".json")
      paths.emplace_back(name);
  std::vector<arch_spec> archs;
  for (const auto& path : paths)
    archs.push_back(parse_arch_json(read_data_file(path), path));
  std::sort(archs.begin(), archs.end(), [](const arch_spec& a, const arch_spec& b) {
    return a.cc_major != b.cc_major ? a.cc_major < b.cc_major : a.cc_minor < b.cc_minor;
  });
  if (archs.empty())
    throw runtime_error("no architecture tables compiled in (data/arch/*.json)");
  return archs;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool parse_int(std::string_view s, int& out) {
  if (s.empty())
    return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

} // namespace

std::string arch_spec::id() const { return fmt::format("sm_{}{}", cc_major, cc_minor); }
std::string arch_spec::cc() const { return fmt::format("{}.{}", cc_major, cc_minor); }

arch_spec parse_arch_json(std::string_view json_text, const std::string& origin) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::exception& e) {
    throw runtime_error(fmt::format("{}: not valid JSON: {}", origin, e.what()));
  }
  arch_spec a;
  const std::string cc = doc.value("compute_capability", "");
  const auto dot = cc.find('.');
  if (dot == std::string::npos || !parse_int(std::string_view(cc).substr(0, dot), a.cc_major) ||
      !parse_int(std::string_view(cc).substr(dot + 1), a.cc_minor))
    throw runtime_error(fmt::format("{}: compute_capability '{}' is not MAJOR.MINOR", origin, cc));
  a.family = doc.value("family", "");
  a.examples = doc.value("examples", "");
  if (!doc.contains("values") || !doc["values"].is_object())
    throw runtime_error(fmt::format("{}: no 'values' object", origin));
  const auto& v = doc["values"];
  read_value(v, "warp_size", a.warp_size, a, origin);
  read_value(v, "max_threads_per_block", a.max_threads_per_block, a, origin);
  read_value(v, "max_warps_per_sm", a.max_warps_per_sm, a, origin);
  read_value(v, "max_threads_per_sm", a.max_threads_per_sm, a, origin);
  read_value(v, "max_blocks_per_sm", a.max_blocks_per_sm, a, origin);
  read_value(v, "registers_per_sm", a.registers_per_sm, a, origin);
  read_value(v, "max_registers_per_block", a.max_registers_per_block, a, origin);
  read_value(v, "max_registers_per_thread", a.max_registers_per_thread, a, origin);
  read_value(v, "register_allocation_unit", a.register_allocation_unit, a, origin);
  read_value(v, "warp_allocation_granularity", a.warp_allocation_granularity, a, origin);
  read_value(v, "register_compat_granularity", a.register_compat_granularity, a, origin, true);
  read_value(v, "shared_memory_per_sm", a.shared_memory_per_sm, a, origin);
  read_value(v, "shared_memory_per_block", a.shared_memory_per_block, a, origin);
  read_value(v, "shared_memory_per_block_optin", a.shared_memory_per_block_optin, a, origin);
  read_value(v, "reserved_shared_memory_per_block", a.reserved_shared_memory_per_block, a, origin);
  read_value(v, "shared_memory_allocation_unit", a.shared_memory_allocation_unit, a, origin);
  read_value(v, "shared_memory_carveouts", a.shared_memory_carveouts, a, origin);
  read_value(v, "block_barriers_per_sm", a.block_barriers_per_sm, a, origin);
  read_value(v, "max_cluster_size", a.max_cluster_size, a, origin);
  read_value(v, "max_cluster_size_nonportable", a.max_cluster_size_nonportable, a, origin);

  check(a.warp_size > 0 && a.max_threads_per_block > 0 && a.max_blocks_per_sm > 0, origin,
        "warp size, threads per block and blocks per SM must be positive");
  check(a.max_threads_per_sm == a.max_warps_per_sm * a.warp_size, origin,
        "max_threads_per_sm != max_warps_per_sm x warp_size");
  check(a.registers_per_sm > 0 && a.max_registers_per_block > 0 && a.register_allocation_unit > 0 &&
            a.warp_allocation_granularity > 0,
        origin, "register values must be positive");
  check(a.shared_memory_allocation_unit > 0 && a.shared_memory_per_sm > 0 &&
            a.shared_memory_per_block > 0 &&
            a.shared_memory_per_block_optin >= a.shared_memory_per_block,
        origin, "shared-memory values must be positive and opt-in >= default");
  check(a.shared_memory_per_block_optin + a.reserved_shared_memory_per_block <=
            a.shared_memory_per_sm,
        origin, "opt-in + reserved per block exceeds shared memory per SM");
  check(std::is_sorted(a.shared_memory_carveouts.begin(), a.shared_memory_carveouts.end()), origin,
        "carveouts must be ascending");
  check(a.shared_memory_carveouts.empty() ||
            a.shared_memory_carveouts.back() == a.shared_memory_per_sm,
        origin, "the largest carveout must equal shared memory per SM");
  return a;
}

const std::vector<arch_spec>& all_archs() {
  static const std::vector<arch_spec> archs = load_all();
  return archs;
}

const arch_spec* find_arch(int cc_major, int cc_minor) noexcept {
  try {
    for (const auto& a : all_archs())
      if (a.cc_major == cc_major && a.cc_minor == cc_minor)
        return &a;
  } catch (...) {
  }
  return nullptr;
}

std::string valid_arch_names() {
  std::string names;
  for (const auto& a : all_archs())
    names += (names.empty() ? "" : ", ") + a.id();
  return names;
}

const arch_spec& find_arch(std::string_view name) {
  std::string s = lower(name);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.pop_back();
  std::string_view t = s;
  for (std::string_view prefix : {"compute_", "sm_", "sm"})
    if (t.rfind(prefix, 0) == 0) {
      t.remove_prefix(prefix.size());
      break;
    }
  if (!t.empty() && (t.back() == 'a' || t.back() == 'f'))
    t.remove_suffix(1);
  int major = -1;
  int minor = -1;
  if (const auto dot = t.find('.'); dot != std::string_view::npos) {
    if (!parse_int(t.substr(0, dot), major) || !parse_int(t.substr(dot + 1), minor))
      major = -1;
  } else if (t.size() >= 2 && t.size() <= 3 && parse_int(t, major)) {
    minor = major % 10;
    major /= 10;
  }
  if (major >= 0 && minor >= 0)
    if (const auto* a = find_arch(major, minor))
      return *a;
  throw usage_error(fmt::format("unknown architecture '{}' (valid: {}; also written as 9.0)", name,
                                valid_arch_names()));
}

} // namespace roofkit
