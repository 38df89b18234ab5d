// Writes a run as roofkit.run/1 JSON (see docs/results-format.md).
#include <cmath>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "internal/run_json.hpp"
#include "roofkit/core.hpp"
#include "roofkit/diagnosis.hpp"
#include "roofkit/results.hpp"

namespace roofkit {

namespace {

using ojson = nlohmann::ordered_json;

ojson number(double v) { return std::isfinite(v) ? ojson(v) : ojson(nullptr); }

void put_if(ojson& obj, const char* key, const std::string& value) {
  if (!value.empty())
    obj[key] = value;
}

ojson context_json(const run_context& c) {
  ojson j = ojson::object();
  j["origin"] = to_string(c.origin);
  put_if(j, "tool_version", c.tool_version);
  put_if(j, "git_revision", c.git_revision);
  put_if(j, "date", c.date);
  put_if(j, "host", c.host);
  put_if(j, "gpu_uuid", c.gpu_uuid);
  put_if(j, "machine_id", c.machine_id);
  put_if(j, "device", c.device_name);
  if (c.cc_major > 0)
    j["cc"] = fmt::format("{}.{}", c.cc_major, c.cc_minor);
  if (c.sm_count > 0)
    j["sms"] = c.sm_count;
  put_if(j, "driver", c.driver_version);
  put_if(j, "runtime", c.runtime_version);
  j["clocks"] = {{"sm_mhz", number(c.sm_clock_mhz)}, {"mem_mhz", number(c.mem_clock_mhz)}};
  put_if(j, "command", c.command);
  put_if(j, "cache_control", c.cache_control);
  put_if(j, "clock_control", c.clock_control);
  if (!c.extra.empty())
    j["extra"] = c.extra;
  if (!c.notes.empty())
    j["notes"] = c.notes;
  return j;
}

ojson ceiling_json(const ceiling& c) {
  ojson j = ojson::object();
  if (c.is_memory) {
    j["level"] = to_string(c.level);
    j["value"] = number(c.value);
    j["unit"] = "B/s";
  } else {
    j["precision"] = to_string(c.prec);
    j["value"] = number(c.value);
    j["unit"] = c.prec == precision::tensor_int8 ? "OP/s" : "FLOP/s";
  }
  j["source"] = to_string(c.source);
  j["sm_clock_mhz"] = number(c.sm_clock_mhz);
  j["mem_clock_mhz"] = number(c.mem_clock_mhz);
  put_if(j, "method", c.method);
  return j;
}

ojson ceilings_json(const std::vector<ceiling>& ceilings) {
  ojson compute = ojson::array();
  ojson memory = ojson::array();
  for (const auto& c : ceilings)
    (c.is_memory ? memory : compute).push_back(ceiling_json(c));
  return {{"compute", compute}, {"memory", memory}};
}

ojson dims(const std::array<std::uint32_t, 3>& d) { return ojson::array({d[0], d[1], d[2]}); }

void put_derived(ojson& j, const kernel_placement& pl) {
  ojson intensity = ojson::object();
  ojson bandwidth = ojson::object();
  ojson utilisation = ojson::object();
  for (const auto& lp : pl.levels) {
    if (pl.has_flops)
      intensity[to_string(lp.level)] = number(lp.intensity);
    bandwidth[to_string(lp.level)] = number(lp.achieved_bandwidth);
    if (lp.has_ceiling)
      utilisation[to_string(lp.level)] = number(lp.utilisation);
  }
  j["intensity"] = intensity;
  j["achieved"] = {{"flop_per_s", number(pl.achieved_flops)}, {"bytes_per_s", bandwidth}};
  j["bandwidth_utilisation"] = utilisation;
  j["compute_roof_flop_per_s"] = number(pl.compute_roof);
  j["attainable_flop_per_s"] = number(pl.attainable_flops);
  j["bound"] = pl.bound;
  j["compute_bound"] = pl.compute_bound;
  j["pct_of_roof"] = number(pl.pct_of_roof);
  if (pl.ridge_level) {
    j["ridge_level"] = to_string(*pl.ridge_level);
    j["ridge_distance"] = number(pl.ridge_distance);
  }
  if (pl.roof_sm_clock_mhz > 0)
    j["roof_sm_clock_mhz"] = number(pl.roof_sm_clock_mhz);
  if (!pl.notes.empty())
    j["notes"] = pl.notes;
}

ojson finding_json(const diagnosis_finding& f) {
  ojson evidence = ojson::object();
  for (const auto& [key, v] : f.evidence)
    evidence[key] = number(v);
  for (const auto& [key, v] : f.evidence_text)
    evidence[key] = v;
  return {{"kind", f.kind}, {"gain", number(f.gain)}, {"text", f.text}, {"evidence", evidence}};
}

ojson occupancy_diagnosis_json(const diagnosis_occupancy& o) {
  ojson j = {{"theoretical", number(o.theoretical)},
             {"limiter", o.limiter},
             {"active_blocks", o.active_blocks},
             {"registers", o.registers}};
  if (o.achieved)
    j["achieved"] = number(*o.achieved);
  if (o.cliff)
    j["cliff"] = {{"variable", o.cliff->variable},
                  {"current", o.cliff->current},
                  {"value", o.cliff->value},
                  {"occupancy", number(o.cliff->occupancy)},
                  {"text", o.cliff->text},
                  {"launch",
                   {{"arch", o.cliff->arch},
                    {"threads", o.cliff->threads},
                    {"registers", o.cliff->registers},
                    {"static_smem_bytes", o.cliff->static_smem},
                    {"dynamic_smem_bytes", o.cliff->dynamic_smem}}}};
  return j;
}

ojson diagnosis_json(const kernel_diagnosis& d) {
  ojson j = ojson::object();
  j["limiter"] = d.limiter;
  j["verdict"] = d.verdict;
  j["try"] = d.try_first;
  j["bound"] = {{"roof", d.bound_roof},
                {"pct_of_roof", number(d.pct_of_roof)},
                {"sm_clock_mhz", number(d.sm_clock_mhz)}};
  if (d.occupancy)
    j["occupancy"] = occupancy_diagnosis_json(*d.occupancy);
  ojson findings = ojson::array();
  for (const auto& f : d.findings)
    findings.push_back(finding_json(f));
  j["findings"] = findings;
  return j;
}

ojson kernel_json(const kernel_result& k, const kernel_placement& pl) {
  ojson j = ojson::object();
  j["name"] = k.name;
  j["display_name"] = k.display_name;
  j["demangled_name"] = k.name;
  j["mangled_name"] = k.mangled_name;
  put_if(j, "topic", k.topic);
  put_if(j, "claim", k.claim);
  put_if(j, "size", k.size);
  j["status"] = k.status;
  put_if(j, "message", k.message);
  j["source"] = to_string(k.source);
  j["launch"] = {{"grid", dims(k.launch.grid)},
                 {"block", dims(k.launch.block)},
                 {"dynamic_smem_bytes", k.launch.dynamic_smem_bytes},
                 {"static_smem_bytes", k.launch.static_smem_bytes},
                 {"registers_per_thread", k.launch.registers_per_thread},
                 {"local_bytes_per_thread", k.launch.local_bytes_per_thread},
                 {"cluster", dims(k.launch.cluster)}};
  if (k.launch.waves_per_sm)
    j["launch"]["waves_per_sm"] = number(*k.launch.waves_per_sm);
  j["time_s"] = {{"median", number(k.time.median_s)},
                 {"min", number(k.time.min_s)},
                 {"max", number(k.time.max_s)},
                 {"n", k.time.repetitions}};
  if (k.gpu_time_s)
    j["gpu_time_s"] = number(*k.gpu_time_s);
  if (k.overhead_dominated)
    j["overhead_dominated"] = true;
  if (k.sm_clock_mhz || k.mem_clock_mhz) {
    ojson clocks = ojson::object();
    if (k.sm_clock_mhz)
      clocks["sm_mhz"] = number(*k.sm_clock_mhz);
    if (k.mem_clock_mhz)
      clocks["mem_mhz"] = number(*k.mem_clock_mhz);
    j["clocks"] = clocks;
  }
  ojson flops = ojson::object();
  for (const auto& [p, f] : k.flops)
    flops[to_string(p)] = number(f);
  j["flops"] = flops;
  ojson bytes = ojson::object();
  for (const auto& [l, b] : k.bytes)
    bytes[to_string(l)] = number(b);
  j["bytes"] = bytes;
  if (k.algorithmic_flops)
    j["algorithmic_flops"] = number(*k.algorithmic_flops);
  if (k.minimal_bytes)
    j["minimal_bytes"] = number(*k.minimal_bytes);
  ojson occupancy = ojson::object();
  if (k.occupancy_theoretical)
    occupancy["theoretical"] = number(*k.occupancy_theoretical);
  if (k.occupancy_achieved)
    occupancy["achieved"] = number(*k.occupancy_achieved);
  j["occupancy"] = occupancy;
  ojson counters = ojson::object();
  for (const auto& [name, v] : k.counters)
    counters[name] = number(v);
  j["counters"] = counters;
  put_derived(j, pl);
  return j;
}

} // namespace

namespace detail {

ojson run_document(run named) {
  assign_display_names(named);
  const auto placements = analyze(named);
  const auto diagnoses = diagnose_run(named, placements);
  ojson doc = ojson::object();
  doc["schema"] = std::string(run_schema);
  doc["context"] = context_json(named.context);
  doc["ceilings"] = ceilings_json(named.ceilings);
  ojson kernels = ojson::array();
  for (std::size_t i = 0; i < named.kernels.size(); ++i) {
    ojson k = kernel_json(named.kernels[i], placements[i]);
    if (diagnoses[i])
      k["diagnosis"] = diagnosis_json(*diagnoses[i]);
    kernels.push_back(std::move(k));
  }
  doc["kernels"] = std::move(kernels);
  return doc;
}

std::string run_json_text(const ojson& doc) {
  return doc.dump(2, ' ', false, ojson::error_handler_t::replace) + "\n";
}

} // namespace detail

std::string to_json_text(const run& r) { return detail::run_json_text(detail::run_document(r)); }

void save_run(const std::filesystem::path& path, const run& r) {
  write_text_file(path, to_json_text(r));
}

} // namespace roofkit
