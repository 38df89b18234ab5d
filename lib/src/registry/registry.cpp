#include <algorithm>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "internal/user_regex.hpp"
#include "roofkit/core.hpp"
#include "roofkit/registry.hpp"

namespace roofkit {

namespace {

struct pending_registration {
  std::function<std::vector<kernel_descriptor>()> make;
};

std::vector<pending_registration>& pending() {
  static std::vector<pending_registration> list;
  return list;
}

std::vector<std::function<std::vector<seed_claim>()>>& pending_claims() {
  static std::vector<std::function<std::vector<seed_claim>()>> list;
  return list;
}

// The registered display order of the topics; unknown topics come last, alphabetically.
std::vector<std::string>& topic_order() {
  static std::vector<std::string> order;
  return order;
}

std::size_t topic_rank(const std::string& topic) {
  const auto& order = topic_order();
  const auto it = std::find(order.begin(), order.end(), topic);
  return static_cast<std::size_t>(it - order.begin());
}

std::vector<kernel_descriptor> build_registry() {
  std::vector<kernel_descriptor> all;
  // Registrations run in an unspecified order across files; within a file the order is stable.
  std::vector<std::pair<std::size_t, kernel_descriptor>> ordered;
  for (const auto& reg : pending()) {
    std::size_t index = 0;
    for (auto& d : reg.make())
      ordered.emplace_back(index++, std::move(d));
  }
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) {
    const auto ra = topic_rank(a.second.topic), rb = topic_rank(b.second.topic);
    if (ra != rb)
      return ra < rb;
    if (a.second.topic != b.second.topic)
      return a.second.topic < b.second.topic;
    return a.first < b.first;
  });
  for (auto& [index, d] : ordered) {
    if (const auto* c = find_claim(d.claim_id); c != nullptr && d.claim.empty())
      d.claim = c->text;
    all.push_back(std::move(d));
  }
  return all;
}

} // namespace

kernel_registration::kernel_registration(std::function<std::vector<kernel_descriptor>()> make) {
  pending().push_back({std::move(make)});
}

claim_registration::claim_registration(std::function<std::vector<seed_claim>()> make) {
  pending_claims().push_back(std::move(make));
}

topic_order_registration::topic_order_registration(std::vector<std::string> topics) {
  auto& order = topic_order();
  order.insert(order.end(), topics.begin(), topics.end());
}

const std::vector<seed_claim>& seed_claims() {
  static const std::vector<seed_claim> claims = [] {
    std::vector<seed_claim> all;
    for (const auto& make : pending_claims())
      for (auto& c : make())
        all.push_back(std::move(c));
    return all;
  }();
  return claims;
}

std::string to_string(measurement m) {
  switch (m) {
  case measurement::kernel:
    return "kernel";
  case measurement::managed_memory:
    return "managed_memory";
  case measurement::transfer:
    return "transfer";
  }
  return "kernel";
}

std::string to_string(claim_metric m) {
  switch (m) {
  case claim_metric::speedup:
    return "speedup";
  case claim_metric::bandwidth_ratio:
    return "bandwidth_ratio";
  case claim_metric::bandwidth_gbs:
    return "bandwidth_gbs";
  case claim_metric::fraction_of_dram_roof:
    return "fraction_of_dram_roof";
  case claim_metric::counter_ratio:
    return "counter_ratio";
  case claim_metric::counter_quotient:
    return "counter_quotient";
  case claim_metric::occupancy:
    return "occupancy";
  }
  return "speedup";
}

void kernel_descriptor::validate_size(problem_size size) const {
  if (size < min_size || size > max_size)
    throw usage_error(fmt::format("size '{}' is out of range for kernel {} (valid: {} to {} {})",
                                  size, name, min_size, max_size, size_unit));
}

double kernel_descriptor::total_flops(problem_size size) const {
  double total = 0;
  if (flops)
    for (const auto& [p, v] : flops(size))
      total += v;
  return total;
}

const std::vector<kernel_descriptor>& kernel_registry() {
  static const std::vector<kernel_descriptor> registry = build_registry();
  return registry;
}

const kernel_descriptor* find_kernel(std::string_view name) {
  for (const auto& d : kernel_registry())
    if (d.name == name)
      return &d;
  return nullptr;
}

std::vector<const kernel_descriptor*> select_kernels(const std::string& regex) {
  const std::regex re =
      detail::compile_user_regex(regex, "", "an ECMAScript regex such as 'topic/|other-topic/'");
  std::vector<const kernel_descriptor*> selected;
  for (const auto& d : kernel_registry())
    if (regex.empty() || std::regex_search(d.name, re))
      selected.push_back(&d);
  if (selected.empty())
    throw usage_error(fmt::format("'{}' matches no kernel (valid: a regex matching the name "
                                  "of a registered kernel, e.g. its topic followed by '/')",
                                  regex));
  return selected;
}

const seed_claim* find_claim(std::string_view id) {
  if (id.empty())
    return nullptr;
  for (const auto& c : seed_claims())
    if (c.id == id)
      return &c;
  return nullptr;
}

std::vector<std::string> registry_problems() {
  std::vector<std::string> problems;
  std::set<std::string> names;
  for (const auto& d : kernel_registry()) {
    if (!names.insert(d.name).second)
      problems.push_back("duplicate kernel name " + d.name);
    if (d.name.rfind(d.topic + "/", 0) != 0)
      problems.push_back(d.name + ": name does not start with its topic '" + d.topic + "/'");
    if (!d.claim_id.empty() && find_claim(d.claim_id) == nullptr)
      problems.push_back(d.name + ": unknown claim id '" + d.claim_id + "'");
    if (d.claim.empty())
      problems.push_back(d.name + ": no seed claim");
    if (d.seed_file.empty())
      problems.push_back(d.name + ": no seed file");
    if (!d.launch || !d.flops || !d.minimal_bytes || !d.device_bytes || !d.make)
      problems.push_back(d.name + ": a formula, the launch or the factory is missing");
    if (d.flops_formula.empty() || d.bytes_formula.empty() || d.check.empty() ||
        d.description.empty() || d.size_unit.empty())
      problems.push_back(d.name + ": a text field is empty");
    if (d.default_size < d.min_size || d.default_size > d.max_size)
      problems.push_back(d.name + ": default size outside its valid range");
    if (d.test_sizes.empty())
      problems.push_back(d.name + ": no test sizes");
    for (auto s : d.test_sizes)
      if (s < d.min_size || s > d.max_size)
        problems.push_back(d.name + ": test size " + std::to_string(s) + " out of range");
    if (d.kind == measurement::transfer && d.counter_profiled)
      problems.push_back(d.name + ": transfers are not counter-profiled");
    if (d.kind == measurement::managed_memory && !d.reset_before_each_run)
      problems.push_back(d.name + ": managed-memory kernels must reset before each run");
  }
  std::set<std::string> claim_ids;
  for (const auto& c : seed_claims()) {
    if (!claim_ids.insert(c.id).second)
      problems.push_back("duplicate claim id " + c.id);
    if (find_kernel(c.subject) == nullptr)
      problems.push_back("claim " + c.id + ": unknown subject kernel " + c.subject);
    if (!c.baseline.empty() && find_kernel(c.baseline) == nullptr)
      problems.push_back("claim " + c.id + ": unknown baseline kernel " + c.baseline);
    const bool needs_baseline = c.metric == claim_metric::speedup ||
                                c.metric == claim_metric::bandwidth_ratio ||
                                c.metric == claim_metric::counter_ratio;
    if (needs_baseline && c.baseline.empty())
      problems.push_back("claim " + c.id + ": metric " + to_string(c.metric) + " needs a baseline");
    const std::size_t counters_needed = c.metric == claim_metric::counter_ratio      ? 1
                                        : c.metric == claim_metric::counter_quotient ? 2
                                                                                     : 0;
    if (c.counters.size() != counters_needed)
      problems.push_back("claim " + c.id + ": wrong number of counters for " + to_string(c.metric));
    if (c.text.empty() || c.seed_file.empty() || c.seed_figure.empty())
      problems.push_back("claim " + c.id + ": a text field is empty");
  }
  return problems;
}

table kernel_list_table(const std::vector<const kernel_descriptor*>& kernels) {
  table t;
  t.id = "kernels";
  t.title = "Kernels";
  t.columns = {{"name", "Kernel"},
               {"topic", "Topic"},
               {"size", "Default size", "", 0},
               {"size_unit", "Size unit"},
               {"launch", "Launch (grid x block)"},
               {"measurement", "Measures"},
               {"flops_formula", "FLOPs formula"},
               {"flops", "FLOPs", "", 0},
               {"bytes_formula", "Minimal bytes formula"},
               {"bytes", "Minimal bytes", "", 0},
               {"intensity", "Intensity", "FLOP/B", 3},
               {"claim_id", "Claim id"},
               {"claim", "Seed claim"}};
  for (const auto* d : kernels) {
    const auto size = d->default_size;
    const double flops = d->total_flops(size);
    const double bytes = d->minimal_bytes(size);
    const auto lc = d->launch(size);
    std::string launch = lc.grid[0] == 0
                             ? std::string("copy")
                             : fmt::format("({},{},{}) x ({},{},{})", lc.grid[0], lc.grid[1],
                                           lc.grid[2], lc.block[0], lc.block[1], lc.block[2]);
    t.rows.push_back({d->name, d->topic, std::int64_t{size}, d->size_unit, launch,
                      to_string(d->kind), d->flops_formula, flops, d->bytes_formula, bytes,
                      bytes > 0 ? flops / bytes : 0.0, d->claim_id, d->claim});
  }
  t.notes.push_back(fmt::format("{} kernels. FLOPs and bytes are the algorithm's (declared), "
                                "evaluated at the default size.",
                                kernels.size()));
  return t;
}

} // namespace roofkit
