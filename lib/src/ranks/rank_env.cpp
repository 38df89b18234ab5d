// Ranks from the launcher's environment and the files named for them. Standard library only:
// the interposed NCCL library compiles this file too.
#include <algorithm>
#include <charconv>
#include <string>
#include <string_view>
#include <system_error>

#include "roofkit/ranks.hpp"

namespace roofkit {

namespace {

/// A non-negative integer, or -1.
int non_negative(const char* text) {
  if (!text || !*text)
    return -1;
  const std::string_view s(text);
  int v = -1;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < 0)
    return -1;
  return v;
}

struct launcher_names {
  const char* rank;
  const char* local_rank;
  const char* size;
};

} // namespace

std::optional<rank_info> rank_from_environment(const char* (*lookup)(const char*)) {
  // torchrun first: it may itself run under mpirun or srun, whose variables the ranks inherit.
  static constexpr launcher_names launchers[] = {
      {"RANK", "LOCAL_RANK", "WORLD_SIZE"},
      {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_SIZE"},
      {"PMIX_RANK", "MPI_LOCALRANKID", "PMI_SIZE"},
      {"SLURM_PROCID", "SLURM_LOCALID", "SLURM_NTASKS"},
      {"PMI_RANK", "MPI_LOCALRANKID", "PMI_SIZE"},
  };
  for (const auto& l : launchers) {
    const int rank = non_negative(lookup(l.rank));
    if (rank < 0)
      continue;
    rank_info r;
    r.rank = rank;
    r.local_rank = non_negative(lookup(l.local_rank));
    r.world_size = std::max(0, non_negative(lookup(l.size)));
    r.source = l.rank;
    return r;
  }
  return std::nullopt;
}

std::string rank_record_path(const std::string& base, int rank) {
  return base + ".rank" + std::to_string(rank);
}

std::string peer_access_warning(int ranks, const char* p2p_disable, bool coordinated) {
  if (ranks < 2 || coordinated || (p2p_disable && std::string_view(p2p_disable) == "1"))
    return {};
  return "the job's own results may differ from a run alone: replays restore a rank's device "
         "memory while its peers may write into it over NVLink (NCCL peer-to-peer access), and "
         "these ranks did not wait for one another's replays (a profile per task, or the NCCL "
         "call recorder off). NCCL_P2P_DISABLE=1 keeps them exact, with the collectives through "
         "host memory instead of NVLink";
}

std::filesystem::path rank_run_path(const std::filesystem::path& output, int rank) {
  std::filesystem::path p = output;
  const std::string ext = p.has_extension() ? p.extension().string() : "";
  p.replace_filename(p.stem().string() + ".rank" + std::to_string(rank) + ext);
  return p;
}

std::vector<std::pair<int, std::filesystem::path>> find_rank_records(const std::string& base) {
  namespace fs = std::filesystem;
  std::vector<std::pair<int, fs::path>> out;
  const fs::path b(base);
  const fs::path dir = b.has_parent_path() ? b.parent_path() : fs::path(".");
  const std::string prefix = b.filename().string() + ".rank";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0)
      continue;
    const int rank = non_negative(name.c_str() + prefix.size());
    if (rank >= 0)
      out.emplace_back(rank, e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace roofkit
