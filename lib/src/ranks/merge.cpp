// Merging per-rank run files into one run, one input at a time: the kernels and launches are
// streamed to side files and joined at the end, so memory holds one rank's file and the
// per-kernel and per-rank totals, whatever the number of ranks.
#include <algorithm>
#include <fstream>
#include <map>
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofkit/core.hpp"
#include "roofkit/ranks.hpp"
#include "roofkit/results.hpp"

namespace roofkit {

namespace {

using ojson = nlohmann::ordered_json;
namespace fs = std::filesystem;

/// A JSON array written element by element to a side file.
class array_file {
public:
  explicit array_file(fs::path path) : path_(std::move(path)), out_(path_) {
    if (!out_)
      throw runtime_error(fmt::format("cannot write '{}'", path_.string()));
  }
  void add(const ojson& j) { out_ << (count_++ ? ",\n" : "\n") << j.dump(); }
  /// Appends "[...]" to `to` and removes the side file.
  void copy_to(std::ostream& to) {
    out_.close();
    to << '[';
    std::ifstream in(path_);
    if (count_ > 0) // inserting an empty buffer would set the failbit of `to`
      to << in.rdbuf();
    in.close();
    to << (count_ ? "\n]" : "]");
    fs::remove(path_);
  }
  ~array_file() {
    std::error_code ec;
    out_.close();
    fs::remove(path_, ec);
  }
  std::int64_t count() const { return count_; }

private:
  fs::path path_;
  std::ofstream out_;
  std::int64_t count_ = 0;
};

/// The k-th collective of every rank, taken as one collective (SPMD order): the fastest rank's
/// time in it, and each rank's own times.
struct collective_waits {
  std::vector<double> fastest;
  std::vector<int> fastest_rank;
  std::vector<std::string> ops;
  bool ops_differ = false;
  std::map<int, std::pair<double, std::size_t>> own; ///< rank: its times' sum, its collectives

  void add(int rank, const std::string& op, double t) {
    auto& [sum, n] = own[rank];
    const std::size_t k = n++;
    sum += t;
    if (k == fastest.size()) {
      fastest.push_back(t);
      fastest_rank.push_back(rank);
      ops.push_back(op);
      return;
    }
    ops_differ = ops_differ || ops[k] != op;
    if (t < fastest[k]) {
      fastest[k] = t;
      fastest_rank[k] = rank;
    }
  }

  /// Each rank's wait and times last to arrive, into the summary.
  void finish(merge_summary& s) const {
    if (ops_differ || fastest.empty())
      return;
    std::vector<double> prefix(fastest.size() + 1, 0.0);
    for (std::size_t k = 0; k < fastest.size(); ++k)
      prefix[k + 1] = prefix[k] + fastest[k];
    std::map<int, std::int64_t> last;
    for (int r : fastest_rank)
      ++last[r];
    for (auto& row : s.ranks)
      if (const auto it = own.find(row.rank); it != own.end()) {
        row.collective_wait_s = it->second.first - prefix[it->second.second];
        row.last_to_arrive = last.count(row.rank) ? last.at(row.rank) : 0;
      }
    s.matched_collectives = static_cast<std::int64_t>(fastest.size());
    s.collective_fastest_s = prefix.back();
  }
};

struct kernel_totals {
  bool collective = false;
  int ranks = 0;
  std::int64_t launches = 0;
  double sum = 0;
  double min = 0;
  double max = 0;
  int slowest = -1;
};

double median(std::vector<double>& v) {
  if (v.empty())
    return 0;
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

int rank_from_file_name(const fs::path& p) {
  static const std::regex re(R"(\.rank([0-9]+)(\.[^.]*)?$)");
  std::smatch m;
  const std::string name = p.filename().string();
  if (std::regex_search(name, m, re))
    return std::stoi(m[1].str());
  return -1;
}

rank_status status_of(const ojson& j) {
  const ojson* mg = j.contains("multi_gpu") ? &j["multi_gpu"] : nullptr;
  if (mg && mg->contains("status")) {
    const std::string s = (*mg)["status"].get<std::string>();
    return s == to_string(rank_status::ok) ? rank_status::ok : rank_status::ended_early;
  }
  if (j.contains("profile") && j["profile"].contains("app"))
    return j["profile"]["app"].value("records_complete", false) ? rank_status::ok
                                                                : rank_status::ended_early;
  return rank_status::ok;
}

/// The merger's state across inputs.
struct merger {
  array_file kernels;
  array_file launches;
  array_file collectives;
  std::map<std::string, kernel_totals> totals;
  collective_waits waits;
  merge_summary summary;
  ojson context;
  ojson ceilings = ojson::array();
  ojson interconnect;
  int world_size = 0;

  explicit merger(const fs::path& out)
      : kernels(out.string() + ".kernels.tmp"), launches(out.string() + ".launches.tmp"),
        collectives(out.string() + ".collectives.tmp") {}

  void add_kernel_time(const std::string& name, int rank, std::int64_t n, double t) {
    kernel_totals& k = totals[name];
    k.collective = is_collective_kernel(name);
    if (k.ranks == 0 || t < k.min)
      k.min = t;
    if (k.ranks == 0 || t > k.max) {
      k.max = t;
      k.slowest = rank;
    }
    ++k.ranks;
    k.launches += n;
    k.sum += t;
  }

  void add(const ojson& j, merge_summary::rank_row& row) {
    const ojson* mg = j.contains("multi_gpu") ? &j["multi_gpu"] : nullptr;
    if (mg) {
      row.rank = mg->value("rank", row.rank);
      world_size = std::max(world_size, mg->value("world_size", 0));
      row.gpu_uuid = mg->value("gpu_uuid", "");
      row.device = mg->value("device", -1);
      std::vector<double> busbw;
      std::map<std::pair<std::string, double>, std::vector<double>> by_size;
      if (mg->contains("collectives"))
        for (ojson c : (*mg)["collectives"]) {
          if (const double b = c.value("busbw_bytes_per_s", 0.0); b > 0) {
            busbw.push_back(b);
            by_size[{c.value("op", ""), c.value("bytes", 0.0)}].push_back(b);
          }
          waits.add(row.rank, c.value("op", c.value("name", "")), c.value("time_s", 0.0));
          c["rank"] = row.rank;
          collectives.add(c);
          ++row.collectives;
        }
      row.median_busbw = median(busbw);
      for (auto& [key, values] : by_size)
        summary.collective_points.push_back({row.rank, parse_collective_op(key.first), key.second,
                                             median(values),
                                             static_cast<std::int64_t>(values.size())});
      if (mg->contains("nvlink")) {
        const ojson& n = (*mg)["nvlink"];
        row.nvlink = {n.value("counter", ""), n.value("why", ""), n.value("tx_bytes", 0.0),
                      n.value("rx_bytes", 0.0), n.value("seconds", 0.0)};
        row.collective_bus_bytes = n.value("collective_bus_bytes", 0.0);
        row.rooted_bus_bytes = n.value("rooted_bus_bytes", 0.0);
      }
      if (interconnect.is_null() && mg->contains("interconnect"))
        interconnect = (*mg)["interconnect"];
    }
    row.status = status_of(j);
    if (context.is_null()) {
      context = j.value("context", ojson::object());
      if (j.contains("ceilings"))
        ceilings = j["ceilings"];
    }
    for (ojson k : j.value("kernels", ojson::array())) {
      k["name"] = fmt::format("{} [rank {}]", k.value("name", ""), row.rank);
      k.erase("display_name");
      k["rank"] = row.rank;
      kernels.add(k);
    }
    if (!j.contains("profile"))
      return;
    const ojson& p = j["profile"];
    for (const ojson& s : p.value("kernels", ojson::array())) {
      const std::string name = s.value("name", "");
      const double t = s.value("total_time_s", 0.0);
      add_kernel_time(name, row.rank, s.value("launches", std::int64_t{0}), t);
      (is_collective_kernel(name) ? row.collective_s : row.compute_s) += t;
    }
    for (ojson l : p.value("launches", ojson::array())) {
      l["rank"] = row.rank;
      launches.add(l);
      ++row.launches;
    }
  }
};

ojson rank_json(const merge_summary::rank_row& r) {
  const double total = r.compute_s + r.collective_s;
  return {{"rank", r.rank},
          {"file", r.file},
          {"status", to_string(r.status)},
          {"device", r.device},
          {"gpu_uuid", r.gpu_uuid},
          {"profiled_launches", r.launches},
          {"compute_time_s", r.compute_s},
          {"collective_time_s", r.collective_s},
          {"collective_share", total > 0 ? r.collective_s / total : 0.0},
          {"collective_launches", r.collectives},
          {"collective_wait_s", r.collective_wait_s},
          {"collectives_last_to_arrive", r.last_to_arrive},
          {"median_busbw_bytes_per_s", r.median_busbw},
          {"nvlink_tx_bytes", r.nvlink.counter.empty() ? ojson() : ojson(r.nvlink.tx_bytes)},
          {"nvlink_rx_bytes", r.nvlink.counter.empty() ? ojson() : ojson(r.nvlink.rx_bytes)},
          {"collective_bus_bytes", r.collective_bus_bytes}};
}

// A rank's NVLink traffic beside its collectives' bus bytes; "" when its run has none.
std::string nvlink_note(const merge_summary::rank_row& r) {
  const nvlink_traffic& n = r.nvlink;
  if (n.counter.empty())
    return n.why.empty() ? "" : fmt::format("rank {}: NVLink traffic not read ({})", r.rank, n.why);
  std::string out = fmt::format("rank {}: its GPU sent {:.3f} GB and received {:.3f} GB over "
                                "NVLink in {:.1f} s (NVML, the whole GPU); its collectives' bus "
                                "bytes {:.3f} GB",
                                r.rank, n.tx_bytes / 1e9, n.rx_bytes / 1e9, n.seconds,
                                r.collective_bus_bytes / 1e9);
  if (r.collective_bus_bytes > 0)
    out += fmt::format(" (sent / bus bytes {:.3f})", n.tx_bytes / r.collective_bus_bytes);
  if (r.rooted_bus_bytes > 0)
    out += fmt::format(", of which {:.3f} GB broadcast or reduced, sent by the root only",
                       r.rooted_bus_bytes / 1e9);
  return out;
}

// The ranks' NVLink lines: one per rank up to `per_rank_up_to` ranks, else one for the job.
std::vector<std::string> nvlink_notes(const std::vector<merge_summary::rank_row>& rows,
                                      std::size_t per_rank_up_to = 8) {
  std::vector<std::string> out;
  if (rows.size() <= per_rank_up_to) {
    for (const auto& r : rows)
      if (std::string note = nvlink_note(r); !note.empty())
        out.push_back(std::move(note));
    return out;
  }
  std::vector<double> sent;
  std::vector<double> ratio;
  std::size_t unread = 0;
  std::string why;
  for (const auto& r : rows) {
    if (r.nvlink.counter.empty()) {
      unread += !r.nvlink.why.empty();
      why = why.empty() ? r.nvlink.why : why;
      continue;
    }
    sent.push_back(r.nvlink.tx_bytes);
    if (r.collective_bus_bytes > 0)
      ratio.push_back(r.nvlink.tx_bytes / r.collective_bus_bytes);
  }
  if (!sent.empty()) {
    const auto [lo, hi] = std::minmax_element(sent.begin(), sent.end());
    std::string note = fmt::format(
        "NVLink (NVML, each rank's whole GPU): {} ranks read, {:.3f} to {:.3f} GB sent per rank",
        sent.size(), *lo / 1e9, *hi / 1e9);
    if (!ratio.empty()) {
      const auto [rlo, rhi] = std::minmax_element(ratio.begin(), ratio.end());
      note += fmt::format("; sent / its collectives' bus bytes {:.3f} to {:.3f}", *rlo, *rhi);
    }
    out.push_back(std::move(note));
  }
  if (unread > 0)
    out.push_back(fmt::format("NVLink traffic not read on {} of the ranks ({})", unread, why));
  return out;
}

ojson kernel_json(const merge_summary::kernel_row& k) {
  return {{"name", k.name},         {"collective", k.collective}, {"ranks", k.ranks},
          {"launches", k.launches}, {"mean_time_s", k.mean_s},    {"min_time_s", k.min_s},
          {"max_time_s", k.max_s},  {"spread", k.spread},         {"slowest_rank", k.slowest_rank}};
}

void finish_summary(merger& m) {
  merge_summary& s = m.summary;
  // Ranks of the job (0 to its size) without any file.
  std::vector<bool> seen(static_cast<std::size_t>(m.world_size), false);
  for (const auto& r : s.ranks)
    if (r.rank >= 0 && r.rank < m.world_size)
      seen[static_cast<std::size_t>(r.rank)] = true;
  for (int r = 0; r < m.world_size; ++r)
    if (!seen[static_cast<std::size_t>(r)]) {
      merge_summary::rank_row row;
      row.rank = r;
      s.ranks.push_back(row);
    }
  std::stable_sort(s.ranks.begin(), s.ranks.end(),
                   [](const auto& a, const auto& b) { return a.rank < b.rank; });
  for (const auto& [name, t] : m.totals) {
    merge_summary::kernel_row k;
    k.name = name;
    k.collective = t.collective;
    k.ranks = t.ranks;
    k.launches = t.launches;
    k.mean_s = t.ranks ? t.sum / t.ranks : 0;
    k.min_s = t.min;
    k.max_s = t.max;
    k.spread = k.mean_s > 0 ? (t.max - t.min) / k.mean_s : 0;
    k.slowest_rank = t.slowest;
    s.kernels.push_back(k);
  }
  std::stable_sort(s.kernels.begin(), s.kernels.end(),
                   [](const auto& a, const auto& b) { return a.mean_s > b.mean_s; });
  double sum = 0;
  double max = 0;
  int n = 0;
  for (const auto& r : s.ranks)
    if (r.status == rank_status::ok || r.status == rank_status::ended_early) {
      sum += r.compute_s;
      max = std::max(max, r.compute_s);
      ++n;
    }
  s.load_imbalance = n > 0 && sum > 0 ? max / (sum / n) : 0;
  s.launches = m.launches.count();
  m.waits.finish(s);
}

} // namespace

std::string to_string(rank_status s) {
  switch (s) {
  case rank_status::ok:
    return "ok";
  case rank_status::ended_early:
    return "ended early (crashed or killed)";
  case rank_status::unreadable:
    return "unreadable file";
  case rank_status::no_file:
    return "no file";
  }
  return "?";
}

merge_summary merge_rank_runs(const std::vector<fs::path>& inputs, const fs::path& output,
                              const std::function<void(const std::string&)>& say) {
  if (inputs.empty())
    throw usage_error("no run files to merge (give the rank run files, e.g. run.rank*.json)");
  merger m(output);
  int readable = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    merge_summary::rank_row row;
    row.file = inputs[i].string();
    row.rank = rank_from_file_name(inputs[i]);
    if (row.rank < 0)
      row.rank = static_cast<int>(i);
    ojson j;
    try {
      j = ojson::parse(read_text_file(inputs[i]), nullptr, false);
    } catch (const error&) {
      j = ojson();
    }
    if (j.is_discarded() || !j.is_object() || j.value("schema", "") != run_schema) {
      row.status = fs::exists(inputs[i]) ? rank_status::unreadable : rank_status::no_file;
      if (say)
        say(fmt::format("{}: {}, listed as such", row.file, to_string(row.status)));
      m.summary.ranks.push_back(row);
      continue;
    }
    ++readable;
    m.add(j, row);
    m.summary.ranks.push_back(row);
  }
  if (readable == 0)
    throw usage_error(
        fmt::format("none of the {} files given is a readable run file", inputs.size()));
  finish_summary(m);
  const merge_summary& s = m.summary;
  ojson ctx = m.context;
  ctx["command"] = fmt::format("merge of {} rank runs", inputs.size());
  ojson notes = ctx.value("notes", ojson::array());
  notes.push_back(
      fmt::format("merged from {} rank run files; kernels named \"[rank R]\"", inputs.size()));
  ctx["notes"] = notes;
  ojson mg = ojson::object();
  mg["ranks"] = ojson::array();
  for (const auto& r : s.ranks)
    mg["ranks"].push_back(rank_json(r));
  mg["world_size"] = std::max<int>(m.world_size, static_cast<int>(s.ranks.size()));
  mg["load_imbalance"] = s.load_imbalance;
  mg["collectives_matched_across_ranks"] = s.matched_collectives;
  mg["collective_fastest_time_s"] = s.collective_fastest_s;
  mg["kernels"] = ojson::array();
  for (const auto& k : s.kernels)
    mg["kernels"].push_back(kernel_json(k));
  if (!m.interconnect.is_null())
    mg["interconnect"] = m.interconnect;
  std::ofstream out(output);
  if (!out)
    throw runtime_error(fmt::format("cannot write '{}'", output.string()));
  out << "{\"schema\":" << ojson(run_schema).dump() << ",\n\"context\":" << ctx.dump()
      << ",\n\"ceilings\":" << m.ceilings.dump() << ",\n\"kernels\":";
  m.kernels.copy_to(out);
  std::string head = mg.dump();
  head.pop_back(); // the closing brace: the streamed arrays follow
  out << ",\n\"multi_gpu\":" << head << ",\n\"collectives\":";
  m.collectives.copy_to(out);
  out << ",\n\"launches\":";
  m.launches.copy_to(out);
  out << "}}\n";
  if (!out)
    throw runtime_error(fmt::format("cannot write '{}'", output.string()));
  return s;
}

} // namespace roofkit

namespace roofkit {

std::vector<table> merge_tables(const merge_summary& s, std::size_t max_kernels) {
  table ranks;
  ranks.id = "ranks";
  ranks.title = "Ranks";
  ranks.columns = {{"rank", "Rank", "", 0},
                   {"status", "Ended"},
                   {"device", "GPU", "", 0},
                   {"profiled", "Profiled", "", 0},
                   {"compute_ms", "Compute", "ms", 3},
                   {"collective_ms", "Collectives", "ms", 3},
                   {"collective_pct", "Collective share", "%", 1},
                   {"collectives", "Collective launches", "", 0},
                   {"wait_ms", "Waiting in collectives", "ms", 3},
                   {"last", "Last to arrive", "", 0},
                   {"busbw_gbs", "busbw (median)", "GB/s", 1}};
  for (const auto& r : s.ranks) {
    const double total = r.compute_s + r.collective_s;
    ranks.rows.push_back({std::int64_t{r.rank}, to_string(r.status), std::int64_t{r.device},
                          r.launches, r.compute_s * 1e3, r.collective_s * 1e3,
                          total > 0 ? 100 * r.collective_s / total : 0.0, r.collectives,
                          r.collective_wait_s * 1e3, r.last_to_arrive, r.median_busbw / 1e9});
  }
  ranks.notes.push_back(
      fmt::format("load imbalance (max / mean compute time): {:.3f}", s.load_imbalance));
  ranks.notes.push_back(
      s.matched_collectives > 0
          ? fmt::format("waiting in collectives: a rank's collective time beyond the fastest "
                        "rank's copy of each of the {} collectives (matched by order); the "
                        "fastest copies take {:.3f} ms",
                        s.matched_collectives, s.collective_fastest_s * 1e3)
          : "waiting in collectives: not computed (no collectives, or the ranks' collectives "
            "differ in order)");
  for (auto& note : nvlink_notes(s.ranks))
    ranks.notes.push_back(std::move(note));
  table kernels;
  kernels.id = "kernels_across_ranks";
  kernels.title = "Kernels across ranks (GPU time per rank)";
  kernels.columns = {{"kernel", "Kernel"},
                     {"collective", "Collective"},
                     {"ranks", "Ranks", "", 0},
                     {"launches", "Launches", "", 0},
                     {"mean_ms", "Mean", "ms", 3},
                     {"min_ms", "Min", "ms", 3},
                     {"max_ms", "Max", "ms", 3},
                     {"spread_pct", "Spread", "%", 1},
                     {"slowest_rank", "Slowest rank", "", 0}};
  run shown; // the rows' kernels, for labels unique among them
  for (std::size_t i = 0; i < s.kernels.size() && i < max_kernels; ++i)
    shown.kernels.emplace_back().name = s.kernels[i].name;
  const std::vector<std::string> labels = kernel_labels(shown, 72);
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const auto& k = s.kernels[i];
    kernels.rows.push_back({labels[i], k.collective, std::int64_t{k.ranks}, k.launches,
                            k.mean_s * 1e3, k.min_s * 1e3, k.max_s * 1e3, k.spread * 100,
                            std::int64_t{k.slowest_rank}});
  }
  if (s.kernels.size() > max_kernels)
    kernels.notes.push_back(
        fmt::format("{} more kernels in the merged run", s.kernels.size() - max_kernels));
  return {ranks, kernels};
}

} // namespace roofkit
