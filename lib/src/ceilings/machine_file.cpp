// The machine file (`roofkit.machine/1`): the measured ceilings of one GPU, with their clocks
// and every measurement behind them, saved once and loaded by any run or chart.
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofkit/ceilings.hpp"
#include "roofkit/core.hpp"
#include "roofkit/device.hpp"

namespace roofkit {

namespace {

using json = nlohmann::json;

constexpr const char* machine_schema = "roofkit.machine/1";

json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json ceiling_to_json(const ceiling& c) {
  json j;
  if (c.is_memory)
    j["level"] = to_string(c.level);
  else
    j["precision"] = to_string(c.prec);
  j["value"] = number(c.value);
  j["unit"] = c.is_memory ? "B/s" : (c.prec == precision::tensor_int8 ? "OP/s" : "FLOP/s");
  j["source"] = to_string(c.source);
  j["sm_clock_mhz"] = number(c.sm_clock_mhz);
  j["mem_clock_mhz"] = number(c.mem_clock_mhz);
  j["method"] = c.method;
  return j;
}

json measurement_to_json(const ceiling_measurement& m) {
  json j = {{"name", m.name},
            {"unit", m.unit},
            {"value", number(m.value)},
            {"best", number(m.best)},
            {"work", number(m.work)},
            {"median_s", number(m.time.median_s)},
            {"repetitions", m.time.repetitions},
            {"theoretical", number(m.theoretical)},
            {"theoretical_sm_clock_mhz", number(m.theoretical_clock_mhz)},
            {"sm_clock_mhz", number(m.sm_clock_mhz)},
            {"reference", m.reference},
            {"check", m.check},
            {"method", m.method}};
  if (m.level)
    j["level"] = to_string(*m.level);
  if (m.prec)
    j["precision"] = to_string(*m.prec);
  if (m.sustained_value > 0) {
    j["sustained_value"] = number(m.sustained_value);
    j["sustained_sm_clock_mhz"] = number(m.sustained_sm_clock_mhz);
    j["sustained_s"] = number(m.sustained_s);
  }
  return j;
}

[[noreturn]] void fail(const std::string& source, const std::string& what) {
  throw usage_error(fmt::format("{}: not a valid machine file: {}", source, what));
}

double get_number(const json& j, const char* key, const std::string& source,
                  const std::string& where, bool required) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) {
    if (required)
      fail(source, fmt::format("{}.{} is missing", where, key));
    return 0;
  }
  if (!it->is_number())
    fail(source, fmt::format("{}.{} is not a number", where, key));
  return it->get<double>();
}

std::string get_text(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

machine_ceilings make_machine_ceilings(const ceilings_result& result, std::string device_name,
                                       int cc_major, int cc_minor, int sm_count,
                                       std::string command) {
  machine_ceilings m;
  m.device_name = std::move(device_name);
  m.cc_major = cc_major;
  m.cc_minor = cc_minor;
  m.sm_count = sm_count;
  m.command = std::move(command);
  m.tool_version = std::string(tool_version());
  m.date = utc_timestamp();
  m.gpu = result.gpu;
  if (m.gpu.name.empty())
    m.gpu.name = m.device_name;
  m.ceilings = result.ceilings;
  m.measurements = result.measurements;
  m.sweeps = result.sweeps;
  return m;
}

std::string machine_json_text(const machine_ceilings& m) {
  json doc;
  doc["schema"] = machine_schema;
  doc["device"] = {{"name", m.device_name},
                   {"cc", fmt::format("{}.{}", m.cc_major, m.cc_minor)},
                   {"sms", m.sm_count}};
  if (!m.gpu.uuid.empty())
    doc["device"]["uuid"] = m.gpu.uuid;
  if (!m.gpu.driver.empty())
    doc["device"]["driver"] = m.gpu.driver;
  if (m.gpu.sm_clock_mhz > 0)
    doc["device"]["max_sm_clock_mhz"] = number(m.gpu.sm_clock_mhz);
  if (m.gpu.mem_clock_mhz > 0)
    doc["device"]["mem_clock_mhz"] = number(m.gpu.mem_clock_mhz);
  doc["date"] = m.date;
  doc["command"] = m.command;
  doc["tool_version"] = m.tool_version;
  json ceilings = json::array();
  for (const auto& c : m.ceilings)
    ceilings.push_back(ceiling_to_json(c));
  doc["ceilings"] = ceilings;
  json measurements = json::array();
  for (const auto& x : m.measurements)
    measurements.push_back(measurement_to_json(x));
  doc["measurements"] = measurements;
  json sweeps = json::array();
  for (const auto& s : m.sweeps) {
    json points = json::array();
    for (const auto& p : s.points)
      points.push_back({number(p.working_set_bytes), number(p.bytes), number(p.time_s)});
    json plateaus = json::array();
    for (const auto& p : s.plateaus)
      plateaus.push_back({{"bandwidth", number(p.bandwidth)},
                          {"latency_s", number(p.latency_s)},
                          {"working_set_min", number(p.working_set_min)},
                          {"working_set_max", number(p.working_set_max)},
                          {"points", p.points},
                          {"rms_relative_residual", number(p.rms_relative_residual)}});
    sweeps.push_back({{"name", s.name},
                      {"sm_clock_mhz", number(s.sm_clock_mhz)},
                      {"points_columns", {"working_set_bytes", "bytes", "time_s"}},
                      {"points", points},
                      {"plateaus", plateaus}});
  }
  doc["sweeps"] = sweeps;
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

void save_machine_ceilings(const std::filesystem::path& path, const machine_ceilings& m) {
  write_text_file(path, machine_json_text(m));
}

machine_ceilings parse_machine_ceilings(const std::string& text, const std::string& source) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    fail(source, fmt::format("malformed JSON ({})", e.what()));
  } catch (const json::out_of_range& e) { // a number that overflows a double
    fail(source, fmt::format("malformed JSON ({})", e.what()));
  }
  if (!doc.is_object())
    fail(source, "expected a JSON object");
  const std::string schema = get_text(doc, "schema");
  if (schema.rfind("roofkit.machine/1", 0) != 0)
    fail(source, fmt::format("schema '{}' (valid: {})", schema, machine_schema));
  machine_ceilings m;
  if (const auto it = doc.find("device"); it != doc.end() && it->is_object()) {
    m.device_name = get_text(*it, "name");
    const std::string cc = get_text(*it, "cc");
    if (std::sscanf(cc.c_str(), "%d.%d", &m.cc_major, &m.cc_minor) != 2)
      m.cc_major = m.cc_minor = 0;
    m.sm_count = static_cast<int>(get_number(*it, "sms", source, "device", false));
    m.gpu.name = m.device_name;
    m.gpu.uuid = get_text(*it, "uuid");
    m.gpu.driver = get_text(*it, "driver");
    m.gpu.sm_clock_mhz = get_number(*it, "max_sm_clock_mhz", source, "device", false);
    m.gpu.mem_clock_mhz = get_number(*it, "mem_clock_mhz", source, "device", false);
  }
  m.date = get_text(doc, "date");
  m.command = get_text(doc, "command");
  m.tool_version = get_text(doc, "tool_version");
  const auto list = doc.find("ceilings");
  if (list == doc.end() || !list->is_array())
    fail(source, "'ceilings' is missing or not an array");
  for (std::size_t i = 0; i < list->size(); ++i) {
    const json& j = (*list)[i];
    const std::string where = fmt::format("ceilings[{}]", i);
    if (!j.is_object())
      fail(source, where + " is not an object");
    ceiling c;
    if (const std::string l = get_text(j, "level"); !l.empty()) {
      const auto level = parse_memory_level(l);
      if (!level)
        fail(source, fmt::format("{}.level '{}' is unknown (valid: l1, l2, dram)", where, l));
      c.is_memory = true;
      c.level = *level;
    } else {
      const std::string p = get_text(j, "precision");
      const auto prec = parse_precision(p);
      if (!prec)
        fail(source, fmt::format("{}: precision '{}' is unknown", where, p));
      c.prec = *prec;
    }
    c.value = get_number(j, "value", source, where, true);
    if (!(c.value > 0))
      fail(source, fmt::format("{}.value {} is not positive", where, c.value));
    c.source = ceiling_source::measured;
    c.sm_clock_mhz = get_number(j, "sm_clock_mhz", source, where, false);
    c.mem_clock_mhz = get_number(j, "mem_clock_mhz", source, where, false);
    c.method = get_text(j, "method");
    m.ceilings.push_back(c);
  }
  return m;
}

namespace {

std::string describe(const gpu_identity& g) {
  if (g.name.empty())
    return g.uuid.empty() ? "an unnamed GPU" : g.uuid;
  return g.uuid.empty() ? g.name : fmt::format("{} ({})", g.name, g.uuid);
}

} // namespace

std::vector<ceiling> load_machine_ceilings(const std::filesystem::path& path) {
  return parse_machine_ceilings(read_text_file(path), path.string()).ceilings;
}

std::string machine_gpu_mismatch(const machine_ceilings& m, const gpu_identity& here) {
  const std::string there_name = m.gpu.name.empty() ? m.device_name : m.gpu.name;
  if (!m.gpu.uuid.empty() && !here.uuid.empty()) {
    if (m.gpu.uuid == here.uuid)
      return "";
  } else if (there_name.empty()) {
    return "it names no GPU";
  } else if (normalize_gpu_name(there_name) == normalize_gpu_name(here.name)) {
    return "";
  }
  gpu_identity there = m.gpu;
  there.name = there_name;
  return fmt::format("measured on {}, not on {}", describe(there), describe(here));
}

machine_ceilings load_machine_file_for(const std::filesystem::path& path, const gpu_identity& here,
                                       bool any_gpu, std::string* accepted_note) {
  machine_ceilings m = parse_machine_ceilings(read_text_file(path), path.string());
  const std::string why = machine_gpu_mismatch(m, here);
  if (why.empty())
    return m;
  if (!any_gpu)
    throw usage_error(fmt::format("machine file '{}' is of another GPU: {}", path.string(), why));
  if (accepted_note)
    *accepted_note = fmt::format("roofs of machine file '{}' used although {}", path.string(), why);
  return m;
}

bool is_machine_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return false;
  const json doc = json::parse(read_text_file(path), nullptr, false);
  return doc.is_object() && get_text(doc, "schema").rfind(machine_schema, 0) == 0;
}

void apply_measured_ceilings(std::vector<ceiling>& roofs, const std::vector<ceiling>& measured) {
  std::erase_if(roofs, [](const ceiling& c) { return c.source == ceiling_source::measured; });
  roofs.insert(roofs.end(), measured.begin(), measured.end());
}

} // namespace roofkit
