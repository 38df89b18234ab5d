// Reads roofkit.run/1 JSON; every problem becomes one usage_error naming the file and the field.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <regex>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "internal/user_regex.hpp"
#include "roofkit/core.hpp"
#include "roofkit/results.hpp"

namespace roofkit {

namespace {

using json = nlohmann::json;

const char* valid_precisions =
    "fp64, fp32, fp16, bf16, tensor_fp64, tensor_tf32, tensor_fp16, tensor_fp8, tensor_int8";
const char* valid_levels = "l1, l2, dram";

class reader {
public:
  explicit reader(const std::string& source) : source_(source) {}

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    if (where.empty())
      throw usage_error(fmt::format("'{}': {}", source_, what));
    throw usage_error(fmt::format("'{}': {}: {}", source_, where, what));
  }

  static std::string join(const std::string& where, const std::string& key) {
    return where.empty() ? key : where + "." + key;
  }

  /// The member `key` of `obj`, nullptr when absent (or null and not required).
  const json* member(const json& obj, const std::string& where, const std::string& key,
                     bool required) const {
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) {
      if (required)
        fail(where, fmt::format("missing required field '{}'", key));
      return nullptr;
    }
    return &*it;
  }

  const json* object(const json& obj, const std::string& where, const std::string& key,
                     bool required) const {
    const json* v = member(obj, where, key, required);
    if (v != nullptr && !v->is_object())
      fail(join(where, key), fmt::format("expected an object, got {}", describe(*v)));
    return v;
  }

  const json* array(const json& obj, const std::string& where, const std::string& key,
                    bool required) const {
    const json* v = member(obj, where, key, required);
    if (v != nullptr && !v->is_array())
      fail(join(where, key), fmt::format("expected an array, got {}", describe(*v)));
    return v;
  }

  double number(const json& v, const std::string& where) const {
    if (!v.is_number())
      fail(where, fmt::format("expected a number, got {}", describe(v)));
    return v.get<double>();
  }

  double number(const json& obj, const std::string& where, const std::string& key, bool required,
                double fallback = 0) const {
    const json* v = member(obj, where, key, required);
    return v == nullptr ? fallback : number(*v, join(where, key));
  }

  std::optional<double> optional_number(const json& obj, const std::string& where,
                                        const std::string& key) const {
    const json* v = member(obj, where, key, false);
    if (v == nullptr)
      return std::nullopt;
    return number(*v, join(where, key));
  }

  std::uint32_t count(const json& v, const std::string& where) const {
    const double d = number(v, where);
    if (d < 0 || d != std::floor(d) || d > std::numeric_limits<std::uint32_t>::max())
      fail(where, fmt::format("expected a non-negative integer, got {}", v.dump()));
    return static_cast<std::uint32_t>(d);
  }

  std::uint32_t count(const json& obj, const std::string& where, const std::string& key) const {
    const json* v = member(obj, where, key, false);
    return v == nullptr ? 0 : count(*v, join(where, key));
  }

  std::string text(const json& obj, const std::string& where, const std::string& key,
                   bool required) const {
    const json* v = member(obj, where, key, required);
    if (v == nullptr)
      return {};
    if (!v->is_string())
      fail(join(where, key), fmt::format("expected a string, got {}", describe(*v)));
    return v->get<std::string>();
  }

  static std::string describe(const json& v) {
    if (v.is_string())
      return fmt::format("the string {}", v.dump());
    if (v.is_number())
      return fmt::format("the number {}", v.dump());
    return std::string(v.is_array() || v.is_object() ? "an " : "a ") + v.type_name();
  }

private:
  const std::string& source_;
};

void check_schema(const reader& rd, const json& doc) {
  const std::string schema = rd.text(doc, "", "schema", false);
  if (schema.empty())
    rd.fail("",
            fmt::format("no 'schema' field: not a roofkit run file (expected '{}')", run_schema));
  const std::string prefix = "roofkit.run/";
  if (schema.rfind(prefix, 0) != 0)
    rd.fail("",
            fmt::format("schema '{}' is not a roofkit run (expected '{}')", schema, run_schema));
  const std::string version = schema.substr(prefix.size());
  int major = -1;
  const char* end = version.data() + version.size();
  auto [ptr, ec] = std::from_chars(version.data(), end, major);
  const bool minor_ok =
      ptr == end || (*ptr == '.' && ptr + 1 != end &&
                     std::all_of(ptr + 1, end, [](char c) { return c >= '0' && c <= '9'; }));
  if (ec != std::errc() || !minor_ok)
    rd.fail("",
            fmt::format("schema '{}' has no valid version (expected '{}')", schema, run_schema));
  if (major != 1)
    rd.fail("", fmt::format("schema '{}' is not supported (this roofkit reads {})", schema,
                            run_schema));
}

run_origin parse_origin(const reader& rd, const std::string& name) {
  for (run_origin o : {run_origin::measured, run_origin::analytical, run_origin::imported,
                       run_origin::recorded, run_origin::timing_only})
    if (to_string(o) == name)
      return o;
  rd.fail("context.origin",
          fmt::format(
              "unknown origin '{}' (valid: measured, analytical, imported, recorded, timing-only)",
              name));
}

run_context parse_context(const reader& rd, const json& j) {
  run_context c;
  const std::string w = "context";
  const std::string origin = rd.text(j, w, "origin", false);
  c.origin = origin.empty() ? run_origin::measured : parse_origin(rd, origin);
  c.tool_version = rd.text(j, w, "tool_version", false);
  c.git_revision = rd.text(j, w, "git_revision", false);
  c.date = rd.text(j, w, "date", false);
  c.host = rd.text(j, w, "host", false);
  c.gpu_uuid = rd.text(j, w, "gpu_uuid", false);
  c.machine_id = rd.text(j, w, "machine_id", false);
  c.device_name = rd.text(j, w, "device", false);
  if (const std::string cc = rd.text(j, w, "cc", false); !cc.empty()) {
    int major = 0;
    int minor = 0;
    char dot = 0;
    if (std::sscanf(cc.c_str(), "%d%c%d", &major, &dot, &minor) != 3 || dot != '.' || major <= 0)
      rd.fail("context.cc", fmt::format("'{}' is not a compute capability like '9.0'", cc));
    c.cc_major = major;
    c.cc_minor = minor;
  }
  c.sm_count = static_cast<int>(rd.count(j, w, "sms"));
  c.driver_version = rd.text(j, w, "driver", false);
  c.runtime_version = rd.text(j, w, "runtime", false);
  if (const json* clocks = rd.object(j, w, "clocks", false)) {
    c.sm_clock_mhz = rd.number(*clocks, "context.clocks", "sm_mhz", false);
    c.mem_clock_mhz = rd.number(*clocks, "context.clocks", "mem_mhz", false);
  }
  c.command = rd.text(j, w, "command", false);
  c.cache_control = rd.text(j, w, "cache_control", false);
  c.clock_control = rd.text(j, w, "clock_control", false);
  if (const json* extra = rd.object(j, w, "extra", false))
    for (const auto& [key, value] : extra->items())
      c.extra[key] = value.is_string() ? value.get<std::string>() : value.dump();
  if (const auto it = j.find("notes"); it != j.end()) {
    if (!it->is_array())
      rd.fail("context.notes", "must be an array of strings");
    for (const auto& note : *it) {
      if (!note.is_string())
        rd.fail("context.notes", "must be an array of strings");
      c.notes.push_back(note.get<std::string>());
    }
  }
  return c;
}

ceiling_source parse_source(const reader& rd, const std::string& where, const std::string& s) {
  if (s.empty() || s == "theoretical")
    return ceiling_source::theoretical;
  if (s == "measured")
    return ceiling_source::measured;
  rd.fail(where, fmt::format("unknown source '{}' (valid: theoretical, measured)", s));
}

ceiling parse_ceiling(const reader& rd, const json& j, const std::string& w, bool memory) {
  if (!j.is_object())
    rd.fail(w, fmt::format("expected an object, got {}", reader::describe(j)));
  ceiling c;
  c.is_memory = memory;
  if (memory) {
    const std::string name = rd.text(j, w, "level", true);
    const auto level = parse_memory_level(name);
    if (!level)
      rd.fail(w + ".level",
              fmt::format("unknown memory level '{}' (valid: {})", name, valid_levels));
    c.level = *level;
  } else {
    const std::string name = rd.text(j, w, "precision", true);
    const auto prec = parse_precision(name);
    if (!prec)
      rd.fail(w + ".precision",
              fmt::format("unknown precision '{}' (valid: {})", name, valid_precisions));
    c.prec = *prec;
  }
  c.value = rd.number(j, w, "value", true);
  c.source = parse_source(rd, w + ".source", rd.text(j, w, "source", false));
  c.sm_clock_mhz = rd.number(j, w, "sm_clock_mhz", false);
  c.mem_clock_mhz = rd.number(j, w, "mem_clock_mhz", false);
  c.method = rd.text(j, w, "method", false);
  return c;
}

std::vector<ceiling> parse_ceilings(const reader& rd, const json& j) {
  std::vector<ceiling> out;
  for (bool memory : {false, true}) {
    const std::string key = memory ? "memory" : "compute";
    if (const json* list = rd.array(j, "ceilings", key, false))
      for (std::size_t i = 0; i < list->size(); ++i)
        out.push_back(
            parse_ceiling(rd, (*list)[i], fmt::format("ceilings.{}[{}]", key, i), memory));
  }
  return out;
}

std::array<std::uint32_t, 3> parse_dims(const reader& rd, const json& launch, const std::string& w,
                                        const std::string& key) {
  std::array<std::uint32_t, 3> d{1, 1, 1};
  const json* v = rd.array(launch, w, key, false);
  if (v == nullptr)
    return d;
  if (v->size() != 3)
    rd.fail(w + "." + key, fmt::format("expected 3 dimensions, got {}", v->size()));
  for (std::size_t i = 0; i < 3; ++i)
    d[i] = rd.count((*v)[i], fmt::format("{}.{}[{}]", w, key, i));
  return d;
}

template <class Key, class Parse>
std::map<Key, double> parse_amounts(const reader& rd, const json& k, const std::string& w,
                                    const std::string& key, Parse parse, const char* valid) {
  std::map<Key, double> out;
  const json* obj = rd.object(k, w, key, false);
  if (obj == nullptr)
    return out;
  for (const auto& [name, value] : obj->items()) {
    const auto parsed = parse(name);
    if (!parsed)
      rd.fail(w + "." + key, fmt::format("unknown name '{}' (valid: {})", name, valid));
    if (!value.is_null())
      out[*parsed] = rd.number(value, fmt::format("{}.{}.{}", w, key, name));
  }
  return out;
}

kernel_result parse_kernel(const reader& rd, const json& j, const std::string& w) {
  if (!j.is_object())
    rd.fail(w, fmt::format("expected an object, got {}", reader::describe(j)));
  kernel_result k;
  k.name = rd.text(j, w, "name", true);
  k.display_name = rd.text(j, w, "display_name", false);
  k.mangled_name = rd.text(j, w, "mangled_name", false);
  k.topic = rd.text(j, w, "topic", false);
  k.claim = rd.text(j, w, "claim", false);
  k.size = rd.text(j, w, "size", false);
  k.status = rd.text(j, w, "status", false);
  if (k.status.empty())
    k.status = "ok";
  k.message = rd.text(j, w, "message", false);
  const std::string source = rd.text(j, w, "source", false);
  if (source == "analytical")
    k.source = work_source::analytical;
  else if (source == "imported")
    k.source = work_source::imported;
  else if (source.empty() || source == "counters")
    k.source = work_source::counters;
  else
    rd.fail(w + ".source",
            fmt::format("unknown source '{}' (valid: counters, analytical, imported)", source));
  if (const json* launch = rd.object(j, w, "launch", false)) {
    const std::string lw = w + ".launch";
    k.launch.grid = parse_dims(rd, *launch, lw, "grid");
    k.launch.block = parse_dims(rd, *launch, lw, "block");
    k.launch.dynamic_smem_bytes = rd.count(*launch, lw, "dynamic_smem_bytes");
    k.launch.static_smem_bytes = rd.count(*launch, lw, "static_smem_bytes");
    k.launch.registers_per_thread = rd.count(*launch, lw, "registers_per_thread");
    k.launch.local_bytes_per_thread = rd.count(*launch, lw, "local_bytes_per_thread");
    k.launch.cluster = parse_dims(rd, *launch, lw, "cluster");
    k.launch.waves_per_sm = rd.optional_number(*launch, lw, "waves_per_sm");
  }
  const json* time = rd.object(j, w, "time_s", true);
  const std::string tw = w + ".time_s";
  k.time.median_s = rd.number(*time, tw, "median", true);
  k.time.min_s = rd.number(*time, tw, "min", false, k.time.median_s);
  k.time.max_s = rd.number(*time, tw, "max", false, k.time.median_s);
  k.time.repetitions = static_cast<int>(rd.count(*time, tw, "n"));
  k.gpu_time_s = rd.optional_number(j, w, "gpu_time_s");
  if (const auto it = j.find("overhead_dominated"); it != j.end()) {
    if (!it->is_boolean())
      rd.fail(w + ".overhead_dominated", "expected true or false");
    k.overhead_dominated = it->get<bool>();
  }
  if (const json* clocks = rd.object(j, w, "clocks", false)) {
    k.sm_clock_mhz = rd.optional_number(*clocks, w + ".clocks", "sm_mhz");
    k.mem_clock_mhz = rd.optional_number(*clocks, w + ".clocks", "mem_mhz");
  }
  k.flops = parse_amounts<precision>(rd, j, w, "flops", parse_precision, valid_precisions);
  k.bytes = parse_amounts<memory_level>(rd, j, w, "bytes", parse_memory_level, valid_levels);
  k.algorithmic_flops = rd.optional_number(j, w, "algorithmic_flops");
  k.minimal_bytes = rd.optional_number(j, w, "minimal_bytes");
  if (const json* occ = rd.object(j, w, "occupancy", false)) {
    k.occupancy_theoretical = rd.optional_number(*occ, w + ".occupancy", "theoretical");
    k.occupancy_achieved = rd.optional_number(*occ, w + ".occupancy", "achieved");
  }
  if (const json* counters = rd.object(j, w, "counters", false))
    for (const auto& [name, value] : counters->items())
      if (!value.is_null())
        k.counters[name] = rd.number(value, fmt::format("{}.counters.{}", w, name));
  return k;
}

std::string parse_error_text(const json::exception& e) {
  std::string what = e.what();
  if (const auto pos = what.find("] ");
      what.rfind("[json.exception", 0) == 0 && pos != std::string::npos)
    what = what.substr(pos + 2);
  for (char& c : what)
    if (c == '\n' || c == '\r')
      c = ' ';
  return what;
}

} // namespace

run parse_run(std::string_view text, const std::string& source_name) {
  const reader rd(source_name);
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    rd.fail("", "not valid JSON: " + parse_error_text(e));
  } catch (const json::out_of_range& e) { // e.g. a number that overflows a double
    rd.fail("", "not valid JSON: " + parse_error_text(e));
  }
  if (!doc.is_object())
    rd.fail("",
            fmt::format("expected a JSON object at the top level, got {}", reader::describe(doc)));
  check_schema(rd, doc);
  run r;
  r.context = parse_context(rd, *rd.object(doc, "", "context", true));
  if (const json* ceilings = rd.object(doc, "", "ceilings", false))
    r.ceilings = parse_ceilings(rd, *ceilings);
  const json* kernels = rd.array(doc, "", "kernels", true);
  for (std::size_t i = 0; i < kernels->size(); ++i)
    r.kernels.push_back(parse_kernel(rd, (*kernels)[i], fmt::format("kernels[{}]", i)));
  return r;
}

run load_run(const std::filesystem::path& path) {
  return parse_run(read_text_file(path), path.string());
}

} // namespace roofkit

namespace roofkit {

std::vector<kernel_result> select_run_kernels(const run& r, const std::string& regex) {
  const std::regex re = detail::compile_user_regex(regex, "kernel regex");
  std::vector<kernel_result> kept;
  for (const auto& k : r.kernels)
    if (std::regex_search(k.name, re))
      kept.push_back(k);
  if (kept.empty())
    throw usage_error(fmt::format("no kernel of the run matches '{}' ({} kernels in the run)",
                                  regex, r.kernels.size()));
  return kept;
}

} // namespace roofkit
