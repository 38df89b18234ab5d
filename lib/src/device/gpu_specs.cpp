// data/gpus.json: parsing, validation and name matching.
#include <algorithm>
#include <cctype>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofkit/core.hpp"
#include "roofkit/device.hpp"

namespace roofkit {

namespace {

using json = nlohmann::json;

constexpr std::string_view gpus_file = "data/gpus.json";

class spec_parser {
public:
  explicit spec_parser(std::string_view origin) : origin_(origin) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw usage_error(fmt::format("{}: {}", origin_, what));
  }

  std::vector<gpu_spec> parse(std::string_view text) {
    json doc;
    try {
      doc = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
      fail(fmt::format("malformed JSON at byte {}: {}", e.byte, e.what()));
    } catch (const json::out_of_range& e) { // a number that overflows a double
      fail(fmt::format("malformed JSON: {}", e.what()));
    }
    if (!doc.is_object())
      fail("the top level must be an object with \"schema\", \"sources\" and \"gpus\"");
    const auto schema = doc.value("schema", std::string{});
    if (schema.rfind("roofkit.gpus/", 0) != 0)
      fail(fmt::format("\"schema\" is '{}' (valid: roofkit.gpus/1)", schema));
    if (schema != "roofkit.gpus/1")
      fail(fmt::format("unsupported schema '{}' (valid: roofkit.gpus/1)", schema));
    if (!doc.contains("sources") || !doc["sources"].is_object())
      fail("\"sources\" must be an object of id -> citation");
    for (const auto& [id, text_value] : doc["sources"].items()) {
      if (!text_value.is_string() || text_value.get<std::string>().empty())
        fail(fmt::format("source '{}' must be a non-empty string", id));
      sources_[id] = text_value.get<std::string>();
    }
    if (!doc.contains("gpus") || !doc["gpus"].is_array() || doc["gpus"].empty())
      fail("\"gpus\" must be a non-empty array");
    std::vector<gpu_spec> specs;
    std::map<std::string, std::string> owner; // normalized name -> entry
    for (std::size_t i = 0; i < doc["gpus"].size(); ++i) {
      specs.push_back(parse_gpu(doc["gpus"][i], i));
      const auto& s = specs.back();
      std::vector<std::string> names{s.name};
      names.insert(names.end(), s.aliases.begin(), s.aliases.end());
      for (const auto& n : names) {
        const auto key = normalize_gpu_name(n);
        if (key.empty())
          fail(fmt::format("GPU '{}': name or alias '{}' has no letters or digits", s.name, n));
        const auto [it, added] = owner.emplace(key, s.name);
        if (!added && it->second != s.name)
          fail(fmt::format("GPU '{}': name or alias '{}' is already used by GPU '{}'", s.name, n,
                           it->second));
      }
    }
    return specs;
  }

private:
  gpu_spec parse_gpu(const json& g, std::size_t index) {
    if (!g.is_object())
      fail(fmt::format("gpus[{}] must be an object", index));
    gpu_spec s;
    s.name = g.value("name", std::string{});
    if (s.name.empty())
      fail(fmt::format("gpus[{}]: \"name\" must be a non-empty string", index));
    where_ = fmt::format("GPU '{}'", s.name);
    if (g.contains("aliases")) {
      if (!g["aliases"].is_array())
        fail(where_ + ": \"aliases\" must be an array of strings");
      for (const auto& a : g["aliases"]) {
        if (!a.is_string())
          fail(where_ + ": \"aliases\" must be an array of strings");
        s.aliases.push_back(a.get<std::string>());
      }
    }
    s.segment = g.value("segment", std::string{"datacenter"});
    if (s.segment != "datacenter" && s.segment != "workstation" && s.segment != "geforce")
      fail(fmt::format("{}: segment '{}' (valid: datacenter, workstation, geforce)", where_,
                       s.segment));
    parse_cc(g, s);
    s.sm_count = static_cast<int>(positive(g, "sm_count", true));
    s.boost_clock_mhz = positive(g, "boost_clock_mhz");
    if (g.contains("tensor_clock_mhz"))
      s.tensor_clock_mhz = positive(g, "tensor_clock_mhz");
    s.memory_type = g.value("memory_type", std::string{});
    if (s.memory_type.empty())
      fail(where_ + ": \"memory_type\" must be a non-empty string");
    if (g.contains("memory_gb"))
      s.memory_gb = positive(g, "memory_gb");
    s.bus_width_bits = static_cast<int>(positive(g, "bus_width_bits", true));
    s.memory_clock_mhz = positive(g, "memory_clock_mhz");
    s.l2_bytes = static_cast<std::int64_t>(positive(g, "l2_bytes", true));
    parse_datasheet(g, s);
    parse_sources(g, s);
    if (g.contains("unconfirmed")) {
      if (!g["unconfirmed"].is_array())
        fail(where_ + ": \"unconfirmed\" must be an array of field keys");
      for (const auto& u : g["unconfirmed"]) {
        if (!u.is_string() || !s.sources.contains(u.get<std::string>()))
          fail(fmt::format("{}: unconfirmed field '{}' has no value or no source", where_,
                           u.dump()));
        s.unconfirmed.push_back(u.get<std::string>());
      }
    }
    s.notes = g.value("notes", std::string{});
    return s;
  }

  void parse_cc(const json& g, gpu_spec& s) {
    const auto cc = g.value("cc", std::string{});
    const auto dot = cc.find('.');
    try {
      if (dot == std::string::npos)
        throw std::invalid_argument("no dot");
      s.cc_major = std::stoi(cc.substr(0, dot));
      s.cc_minor = std::stoi(cc.substr(dot + 1));
    } catch (const std::exception&) {
      fail(fmt::format("{}: \"cc\" is '{}' (valid: \"MAJOR.MINOR\", e.g. \"9.0\")", where_, cc));
    }
    if (s.cc_major < 1 || s.cc_minor < 0)
      fail(fmt::format("{}: \"cc\" is '{}' (valid: \"MAJOR.MINOR\", e.g. \"9.0\")", where_, cc));
  }

  double positive(const json& g, const char* key, bool integer = false) const {
    if (!g.contains(key) || !g[key].is_number())
      fail(fmt::format("{}: \"{}\" must be a number", where_, key));
    const double v = g[key].get<double>();
    if (!(v > 0) || (integer && v != static_cast<double>(static_cast<std::int64_t>(v))))
      fail(fmt::format("{}: \"{}\" is {} (valid: a positive {})", where_, key, g[key].dump(),
                       integer ? "integer" : "number"));
    return v;
  }

  void parse_datasheet(const json& g, gpu_spec& s) const {
    if (!g.contains("datasheet") || !g["datasheet"].is_object())
      fail(where_ + ": \"datasheet\" must be an object with \"dram_gbs\" and \"tflops\"");
    const auto& d = g["datasheet"];
    s.datasheet_dram_bandwidth = positive(d, "dram_gbs") * 1e9;
    if (!d.contains("tflops") || !d["tflops"].is_object())
      fail(where_ + ": \"datasheet.tflops\" must be an object of precision -> TFLOP/s");
    for (const auto& [key, value] : d["tflops"].items()) {
      const auto p = parse_precision(key);
      if (!p)
        fail(fmt::format("{}: unknown precision '{}' in datasheet.tflops (valid: fp64, fp32, "
                         "fp16, tensor_fp64, tensor_tf32, tensor_fp16, tensor_fp8, tensor_int8)",
                         where_, key));
      if (!value.is_number() || !(value.get<double>() > 0))
        fail(fmt::format("{}: datasheet.tflops.{} must be a positive number", where_, key));
      s.datasheet_flops[*p] = value.get<double>() * 1e12;
    }
  }

  void parse_sources(const json& g, gpu_spec& s) const {
    if (!g.contains("sources") || !g["sources"].is_object())
      fail(where_ + ": \"sources\" must be an object of field -> [source ids]");
    for (const auto& [field, ids] : g["sources"].items()) {
      if (!ids.is_array() || ids.empty())
        fail(fmt::format("{}: sources.{} must be a non-empty array of source ids", where_, field));
      std::string text;
      for (const auto& id : ids) {
        const auto it = id.is_string() ? sources_.find(id.get<std::string>()) : sources_.end();
        if (it == sources_.end())
          fail(fmt::format("{}: sources.{} names unknown source {}", where_, field, id.dump()));
        text += (text.empty() ? "" : "; ") + it->second;
      }
      s.sources[field] = text;
    }
  }

  std::string origin_;
  std::string where_;
  std::map<std::string, std::string> sources_;
};

std::string known_names(const std::vector<gpu_spec>& specs) {
  std::string out;
  for (const auto& s : specs)
    out += (out.empty() ? "" : ", ") + s.name;
  return out;
}

bool any_name(const gpu_spec& s, const std::string& key, bool prefix) {
  auto test = [&](const std::string& n) {
    const auto k = normalize_gpu_name(n);
    return prefix ? k.rfind(key, 0) == 0 : k == key;
  };
  return test(s.name) || std::any_of(s.aliases.begin(), s.aliases.end(), test);
}

} // namespace

std::vector<gpu_spec> parse_gpu_specs(std::string_view json_text, std::string_view origin) {
  return spec_parser(origin).parse(json_text);
}

std::vector<gpu_spec> load_gpu_specs() {
  const std::string text = read_data_file(std::string(gpus_file));
  return parse_gpu_specs(text, gpus_file);
}

std::string normalize_gpu_name(std::string_view name) {
  std::string key;
  for (const char c : name)
    if (std::isalnum(static_cast<unsigned char>(c)))
      key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (key.rfind("nvidia", 0) == 0 && key.size() > 6)
    key.erase(0, 6);
  return key;
}

std::optional<gpu_spec> match_gpu(std::string_view device_name,
                                  const std::vector<gpu_spec>& specs) {
  const auto key = normalize_gpu_name(device_name);
  if (key.empty())
    return std::nullopt;
  for (const auto& s : specs)
    if (any_name(s, key, false))
      return s;
  return std::nullopt;
}

gpu_spec find_gpu(std::string_view name, const std::vector<gpu_spec>& specs) {
  const auto key = normalize_gpu_name(name);
  if (key.empty())
    throw usage_error(fmt::format("empty GPU name '{}' (valid: {})", name, known_names(specs)));
  if (auto exact = match_gpu(name, specs))
    return *exact;
  std::vector<const gpu_spec*> candidates;
  for (const auto& s : specs)
    if (any_name(s, key, true))
      candidates.push_back(&s);
  if (candidates.size() == 1)
    return *candidates.front();
  if (candidates.empty())
    throw usage_error(fmt::format("unknown GPU '{}' (valid: {})", name, known_names(specs)));
  std::string list;
  for (const auto* c : candidates)
    list += (list.empty() ? "" : ", ") + c->name;
  throw usage_error(fmt::format("GPU name '{}' is ambiguous (candidates: {})", name, list));
}

gpu_spec find_gpu(std::string_view name) { return find_gpu(name, load_gpu_specs()); }

} // namespace roofkit
