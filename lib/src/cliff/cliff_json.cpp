// Cliff files (schema roofkit.cliff/1): writing and reading.
#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofkit/cliff.hpp"
#include "roofkit/core.hpp"

namespace roofkit {

namespace {

using json = nlohmann::ordered_json;

json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json point_json(const cliff_point& p) {
  json j;
  j["value"] = p.value;
  j["status"] = p.status;
  if (!p.message.empty())
    j["message"] = p.message;
  j["launch"] = {{"size", p.size},
                 {"grid", p.grid},
                 {"block", p.block},
                 {"dynamic_smem", p.dynamic_smem},
                 {"static_smem", p.static_smem},
                 {"register_cap", p.register_cap},
                 {"registers", p.registers},
                 {"local_bytes", p.local_bytes}};
  if (p.spill_stores)
    j["launch"]["spill_stores"] = *p.spill_stores;
  if (p.spill_loads)
    j["launch"]["spill_loads"] = *p.spill_loads;
  j["working_set_bytes"] = number(p.working_set_bytes);
  j["predicted"] = {{"occupancy", number(p.occupancy_theoretical)},
                    {"active_blocks", p.active_blocks},
                    {"limiter", p.limiter},
                    {"waves", number(p.waves)}};
  json m;
  m["occupancy_achieved"] = p.occupancy_achieved ? number(*p.occupancy_achieved) : json(nullptr);
  m["time_s"] = {{"median", number(p.time_median_s)},
                 {"min", number(p.time_min_s)},
                 {"max", number(p.time_max_s)},
                 {"n", p.repetitions}};
  m["spread"] = number(p.spread);
  m["flops"] = number(p.flops);
  m["bytes"] = number(p.bytes);
  json counted = json::object();
  for (const auto& [k, v] : p.counted)
    counted[k] = number(v);
  m["counted"] = counted;
  j["measured"] = m;
  j["derived"] = {{"rate", number(p.rate)},
                  {"intensity", number(p.intensity)},
                  {"attainable", number(p.attainable)},
                  {"pct_of_roof", number(p.pct_of_roof)},
                  {"bound", p.bound}};
  return j;
}

json step_json(const predicted_step& s) {
  return {{"from", s.from},
          {"at", s.at},
          {"before", number(s.before)},
          {"after", number(s.after)},
          {"blocks_before", s.blocks_before},
          {"blocks_after", s.blocks_after},
          {"cause", s.cause}};
}

json change_json(const measured_change& c) {
  return {{"from", c.from},
          {"at", c.at},
          {"before", number(c.before)},
          {"after", number(c.after)},
          {"relative", number(c.relative)}};
}

// Typed access with errors that name the file and the field.
struct reader {
  std::string source;
  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw usage_error(fmt::format("{}: {} {}", source, where, what));
  }
  const json& field(const json& o, const char* key, const std::string& where) const {
    if (!o.is_object() || !o.contains(key))
      fail(where, fmt::format("has no field '{}'", key));
    return o.at(key);
  }
  double num(const json& o, const char* key, const std::string& where, double dflt = NAN,
             bool required = false) const {
    if (!o.contains(key)) {
      if (required)
        fail(where, fmt::format("has no field '{}'", key));
      return dflt;
    }
    const auto& v = o.at(key);
    if (v.is_null())
      return NAN;
    if (!v.is_number())
      fail(where, fmt::format("field '{}' is not a number", key));
    return v.get<double>();
  }
  std::int64_t integer(const json& o, const char* key, const std::string& where,
                       std::int64_t dflt = 0) const {
    if (!o.contains(key))
      return dflt;
    const auto& v = o.at(key);
    if (!v.is_number_integer())
      fail(where, fmt::format("field '{}' is not an integer", key));
    return v.get<std::int64_t>();
  }
  std::string text(const json& o, const char* key, const std::string& where,
                   const std::string& dflt = "") const {
    if (!o.contains(key))
      return dflt;
    const auto& v = o.at(key);
    if (!v.is_string())
      fail(where, fmt::format("field '{}' is not a string", key));
    return v.get<std::string>();
  }
};

} // namespace

std::string to_json_text(const cliff_result& r) {
  json j;
  j["schema"] = std::string(cliff_schema);
  j["context"] = {{"tool_version", r.tool_version},
                  {"git_revision", r.git_revision},
                  {"date", r.date},
                  {"host", r.host},
                  {"device", r.device},
                  {"cc", fmt::format("{}.{}", r.cc_major, r.cc_minor)},
                  {"sms", r.sm_count},
                  {"l2_bytes", number(r.l2_bytes)},
                  {"l1_bytes", number(r.l1_bytes)},
                  {"driver", r.driver_version},
                  {"runtime", r.runtime_version},
                  {"sm_clock_mhz", number(r.sm_clock_mhz)},
                  {"mem_clock_mhz", number(r.mem_clock_mhz)},
                  {"command", r.command}};
  if (!r.counters_note.empty())
    j["context"]["counters"] = r.counters_note;
  for (const auto& [k, v] : r.extra)
    j["context"]["extra"][k] = v;
  j["kernel"] = r.kernel;
  j["description"] = r.kernel_description;
  j["sweep"] = to_string(r.axis);
  j["range"] = to_string(r.range);
  j["rate"] = {{"name", r.rate_name}, {"unit", r.rate_unit}};
  j["detection"] = {{"threshold", r.options.threshold}, {"spread_factor", r.options.spread_factor}};
  j["points"] = json::array();
  for (const auto& p : r.points)
    j["points"].push_back(point_json(p));
  j["predicted_steps"] = json::array();
  for (const auto& s : r.steps)
    j["predicted_steps"].push_back(step_json(s));
  j["measured_changes"] = json::array();
  for (const auto& c : r.changes)
    j["measured_changes"].push_back(change_json(c));
  j["events"] = json::array();
  for (const auto& e : r.events) {
    json ej{{"at", e.at},
            {"value", r.points.at(e.at).value},
            {"verdict", to_string(e.verdict)},
            {"cause", e.cause}};
    if (e.step)
      ej["step"] = step_json(*e.step);
    if (e.change)
      ej["change"] = change_json(*e.change);
    j["events"].push_back(ej);
  }
  return j.dump(2) + "\n";
}

namespace {

// The sweep's "context": where, when and how it was measured.
void read_context(const reader& rd, const json& c, cliff_result& r) {
  r.tool_version = rd.text(c, "tool_version", "context");
  r.git_revision = rd.text(c, "git_revision", "context");
  r.date = rd.text(c, "date", "context");
  r.host = rd.text(c, "host", "context");
  r.device = rd.text(c, "device", "context");
  const std::string cc = rd.text(c, "cc", "context", "0.0");
  if (std::sscanf(cc.c_str(), "%d.%d", &r.cc_major, &r.cc_minor) != 2)
    rd.fail("context", fmt::format("field 'cc' '{}' is not MAJOR.MINOR", cc));
  r.sm_count = int(rd.integer(c, "sms", "context"));
  r.l2_bytes = rd.num(c, "l2_bytes", "context", 0);
  r.l1_bytes = rd.num(c, "l1_bytes", "context", 0);
  r.driver_version = rd.text(c, "driver", "context");
  r.runtime_version = rd.text(c, "runtime", "context");
  r.sm_clock_mhz = rd.num(c, "sm_clock_mhz", "context", 0);
  r.mem_clock_mhz = rd.num(c, "mem_clock_mhz", "context", 0);
  r.command = rd.text(c, "command", "context");
  r.counters_note = rd.text(c, "counters", "context");
  if (c.contains("extra") && c.at("extra").is_object())
    for (const auto& [k, v] : c.at("extra").items())
      r.extra[k] = v.is_string() ? v.get<std::string>() : v.dump();
}

// points[i] (named `w` in messages): the launch, the prediction, the measurement, what is derived.
cliff_point read_point(const reader& rd, const json& pj, const std::string& w) {
  cliff_point p;
  p.value = rd.integer(pj, "value", w);
  p.status = rd.text(pj, "status", w, "ok");
  p.message = rd.text(pj, "message", w);
  const json& l = rd.field(pj, "launch", w);
  const std::string lw = w + ".launch";
  p.size = rd.integer(l, "size", lw);
  p.grid = rd.integer(l, "grid", lw);
  p.block = int(rd.integer(l, "block", lw));
  p.dynamic_smem = rd.integer(l, "dynamic_smem", lw);
  p.static_smem = rd.integer(l, "static_smem", lw);
  p.register_cap = int(rd.integer(l, "register_cap", lw));
  p.registers = int(rd.integer(l, "registers", lw));
  p.local_bytes = rd.integer(l, "local_bytes", lw);
  if (l.contains("spill_stores"))
    p.spill_stores = rd.integer(l, "spill_stores", lw);
  if (l.contains("spill_loads"))
    p.spill_loads = rd.integer(l, "spill_loads", lw);
  p.working_set_bytes = rd.num(pj, "working_set_bytes", w, 0);
  const json& pr = rd.field(pj, "predicted", w);
  p.occupancy_theoretical = rd.num(pr, "occupancy", w + ".predicted", 0);
  p.active_blocks = int(rd.integer(pr, "active_blocks", w + ".predicted"));
  p.limiter = rd.text(pr, "limiter", w + ".predicted");
  p.waves = rd.num(pr, "waves", w + ".predicted", 0);
  const json& m = rd.field(pj, "measured", w);
  const std::string mw = w + ".measured";
  const double occ = rd.num(m, "occupancy_achieved", mw);
  if (std::isfinite(occ))
    p.occupancy_achieved = occ;
  if (m.contains("time_s")) {
    const json& t = m.at("time_s");
    p.time_median_s = rd.num(t, "median", mw + ".time_s", 0);
    p.time_min_s = rd.num(t, "min", mw + ".time_s", 0);
    p.time_max_s = rd.num(t, "max", mw + ".time_s", 0);
    p.repetitions = int(rd.integer(t, "n", mw + ".time_s"));
  }
  p.spread = rd.num(m, "spread", mw, 0);
  p.flops = rd.num(m, "flops", mw, 0);
  p.bytes = rd.num(m, "bytes", mw, 0);
  if (m.contains("counted") && m.at("counted").is_object())
    for (const auto& [k, v] : m.at("counted").items())
      if (v.is_number())
        p.counted[k] = v.get<double>();
  if (pj.contains("derived")) {
    const json& d = pj.at("derived");
    const std::string dw = w + ".derived";
    p.rate = rd.num(d, "rate", dw, 0);
    p.intensity = rd.num(d, "intensity", dw, 0);
    p.attainable = rd.num(d, "attainable", dw, 0);
    p.pct_of_roof = rd.num(d, "pct_of_roof", dw, 0);
    p.bound = rd.text(d, "bound", dw);
  }
  for (double* v : {&p.rate, &p.spread, &p.time_median_s, &p.occupancy_theoretical})
    if (!std::isfinite(*v))
      *v = 0;
  return p;
}

} // namespace

cliff_result parse_cliff(std::string_view text, const std::string& source_name) {
  reader rd{source_name};
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    throw usage_error(fmt::format("{}: not valid JSON (byte {})", source_name, e.byte));
  } catch (const json::out_of_range& e) { // a number that overflows a double
    throw usage_error(fmt::format("{}: not valid JSON ({})", source_name, e.what()));
  }
  if (!doc.is_object())
    rd.fail("the document", "is not a JSON object");
  const std::string schema = rd.text(doc, "schema", "the document");
  if (schema.rfind("roofkit.cliff/1", 0) != 0)
    throw usage_error(fmt::format("{}: schema '{}' is not {} (is this a cliff sweep file?)",
                                  source_name, schema, cliff_schema));
  cliff_result r;
  read_context(rd, rd.field(doc, "context", "the document"), r);
  r.kernel = rd.text(doc, "kernel", "the document");
  r.kernel_description = rd.text(doc, "description", "the document");
  r.axis = parse_sweep_axis(rd.text(doc, "sweep", "the document"));
  r.range = parse_sweep_range(rd.text(doc, "range", "the document"), r.axis);
  if (doc.contains("rate")) {
    r.rate_name = rd.text(doc.at("rate"), "name", "rate");
    r.rate_unit = rd.text(doc.at("rate"), "unit", "rate");
  }
  if (doc.contains("detection")) {
    r.options.threshold = rd.num(doc.at("detection"), "threshold", "detection", 0.05);
    r.options.spread_factor = rd.num(doc.at("detection"), "spread_factor", "detection", 2.0);
  }
  const json& pts = rd.field(doc, "points", "the document");
  if (!pts.is_array())
    rd.fail("field 'points'", "is not an array");
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const std::string w = fmt::format("points[{}]", i);
    r.points.push_back(read_point(rd, pts[i], w));
  }
  analyze_cliffs(r); // steps, changes and events are derived: recomputed, never trusted
  return r;
}

cliff_result load_cliff(const std::filesystem::path& path) {
  // read_text_file names a missing file, a directory, an unreadable one.
  return parse_cliff(read_text_file(path), path.string());
}

} // namespace roofkit
