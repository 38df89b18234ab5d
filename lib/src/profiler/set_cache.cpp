// A metric set configured for a chip (resolved, passes laid out, config image), kept in a cache
// file so that later sessions on the same chip skip the CUPTI host API's scheduling.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <system_error>

#include <cupti.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofkit/core.hpp"
#include "roofkit/profiler.hpp"

namespace roofkit {

namespace {

using json = nlohmann::json;

// Bumped whenever what configure_metric_set() works out changes for the same inputs.
constexpr int cache_format = 1;

// FNV-1a, 64 bits: stable across builds and machines, unlike std::hash.
class digest {
public:
  digest& add(const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i)
      value_ = (value_ ^ p[i]) * 0x100000001b3ull;
    return *this;
  }
  digest& add(const std::string& text) { return add(text.data(), text.size() + 1); }
  std::string hex() const { return fmt::format("{:016x}", value_); }

private:
  std::uint64_t value_ = 0xcbf29ce484222325ull;
};

std::string definition_digest(const metric_set_def& def) {
  digest d;
  d.add(def.name).add(std::to_string(def.pass_budget));
  for (const auto& m : def.metrics) {
    d.add(m.key)
        .add(to_string(m.role))
        .add(fmt::format("{}|{}|{}|{}", static_cast<int>(m.prec), m.weight,
                         static_cast<int>(m.level), m.optional));
    for (const auto& n : m.names)
      d.add(n);
    d.add("|chips");
    for (const auto& c : m.chips)
      d.add(c);
  }
  return d.hex();
}

std::uint32_t cupti_version() {
  std::uint32_t v = 0;
  return cuptiGetVersion(&v) == CUPTI_SUCCESS ? v : 0;
}

std::string to_hex(const std::vector<std::uint8_t>& bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const auto b : bytes) {
    out.push_back(digits[b >> 4]);
    out.push_back(digits[b & 15]);
  }
  return out;
}

std::vector<std::uint8_t> from_hex(const std::string& text) {
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9')
      return c - '0';
    if (c >= 'a' && c <= 'f')
      return c - 'a' + 10;
    throw std::runtime_error("not a hex digit");
  };
  if (text.size() % 2 != 0)
    throw std::runtime_error("odd hex length");
  std::vector<std::uint8_t> out(text.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<std::uint8_t>(nibble(text[2 * i]) * 16 + nibble(text[2 * i + 1]));
  return out;
}

drop_reason parse_drop_reason(const std::string& text) {
  for (auto r : {drop_reason::not_on_chip, drop_reason::over_budget})
    if (to_string(r) == text)
      return r;
  throw std::runtime_error("unknown drop reason '" + text + "'");
}

const metric_spec& spec_of(const metric_set_def& def, const std::string& key) {
  for (const auto& m : def.metrics)
    if (m.key == key)
      return m;
  throw std::runtime_error("no metric '" + key + "' in the set");
}

configured_set work_out(const metric_set_def& def, const cupti_catalog& catalog) {
  configured_set out;
  out.set = resolve_metric_set(def, catalog);
  if (out.set.metrics.empty())
    return out;
  lay_out_cold_passes(out.set, catalog);
  out.config = catalog.config_image(out.set.config_groups());
  if (!out.set.cold_names.empty() && cupti_catalog::image_passes(out.config) != out.set.passes) {
    // The groups were not scheduled one after the other: flush before every pass, in one group.
    out.set.cold_names.clear();
    out.set.cold_passes = -1;
    out.config = catalog.config_image(out.set.names());
  }
  return out;
}

json to_json(const configured_set& c, const std::string& key) {
  json metrics = json::array();
  for (const auto& m : c.set.metrics)
    metrics.push_back(
        {{"key", m.spec.key}, {"name", m.name}, {"description", m.nvidia_description}});
  json dropped = json::array();
  for (const auto& d : c.set.dropped)
    dropped.push_back({{"key", d.spec.key}, {"reason", to_string(d.reason)}});
  return {{"format", cache_format},
          {"key", key},
          {"set", c.set.set},
          {"chip", c.set.chip},
          {"passes", c.set.passes},
          {"cold_passes", c.set.cold_passes},
          {"cold_names", c.set.cold_names},
          {"metrics", metrics},
          {"dropped", dropped},
          {"config", to_hex(c.config)}};
}

configured_set from_json(const json& j, const metric_set_def& def) {
  configured_set out;
  out.set.set = j.at("set").get<std::string>();
  out.set.chip = j.at("chip").get<std::string>();
  out.set.passes = j.at("passes").get<int>();
  out.set.cold_passes = j.at("cold_passes").get<int>();
  out.set.cold_names = j.at("cold_names").get<std::vector<std::string>>();
  for (const auto& m : j.at("metrics"))
    out.set.metrics.push_back({spec_of(def, m.at("key").get<std::string>()),
                               m.at("name").get<std::string>(),
                               m.at("description").get<std::string>()});
  for (const auto& d : j.at("dropped"))
    out.set.dropped.push_back({spec_of(def, d.at("key").get<std::string>()),
                               parse_drop_reason(d.at("reason").get<std::string>())});
  out.config = from_hex(j.at("config").get<std::string>());
  out.from_cache = true;
  return out;
}

std::filesystem::path cache_file(const std::filesystem::path& dir, const std::string& chip,
                                 const std::string& key) {
  return dir / fmt::format("metric-config-{}-{}.json", chip, digest().add(key).hex());
}

// The cached set, or nothing when the file is missing, stale or does not hold together.
std::optional<configured_set> read_cached(const std::filesystem::path& path, const std::string& key,
                                          const metric_set_def& def) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return std::nullopt;
  try {
    const json j = json::parse(read_text_file(path));
    if (j.at("format").get<int>() != cache_format || j.at("key").get<std::string>() != key)
      return std::nullopt;
    configured_set c = from_json(j, def);
    if (c.set.metrics.empty() || cupti_catalog::image_passes(c.config) != c.set.passes)
      return std::nullopt;
    return c;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

} // namespace

std::string metric_config_key(const metric_set_def& def, const cupti_catalog& catalog) {
  const auto& availability = catalog.availability();
  return fmt::format("chip {}; counter availability {} ({} B); CUPTI {}; roofkit {} {}; set {} {}",
                     catalog.chip(), digest().add(availability.data(), availability.size()).hex(),
                     availability.size(), cupti_version(), tool_version(), git_revision(), def.name,
                     definition_digest(def));
}

configured_set configure_metric_set(const metric_set_def& def, const cupti_catalog& catalog,
                                    const std::filesystem::path& cache_dir) {
  if (cache_dir.empty())
    return work_out(def, catalog);
  const std::string key = metric_config_key(def, catalog);
  const auto path = cache_file(cache_dir, catalog.chip(), key);
  if (auto cached = read_cached(path, key, def))
    return std::move(*cached);
  configured_set out = work_out(def, catalog);
  if (out.set.metrics.empty())
    return out;
  try {
    std::filesystem::create_directories(cache_dir);
    write_text_file(path, to_json(out, key).dump(1) + "\n");
  } catch (const std::exception&) { // a cache that cannot be written only costs time
  }
  return out;
}

} // namespace roofkit
