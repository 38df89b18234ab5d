// Can a collective's NVLink traffic be counted without a replay? Offline (CUPTI host API, no GPU):
// whether the chip has NVLink receive and transmit byte counters, and how many passes they need
// alone, with the kernel's duration, and beside the DRAM counters. A collective is never replayed
// (its peers would not take part), so its counters must fit in the one pass of its own run.
// Prints one JSON object. Build against the library (see validation/lab/README.md):
//   g++ -std=c++20 -Ilib/include -I$CUDA_HOME/include validation/lab/nvlink_counters.cpp
//       build/ci/lib/libroofkit.a -L$CUDA_HOME/lib64 -lcupti -lnvperf_host -lcudart -ldl -lpthread
//   ./a.out [CHIP]   (default GH100)
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofkit/profiler.hpp"

namespace {

using names = std::vector<std::string>;

// Passes for the names together, or the CUPTI error when the host API refuses the combination.
nlohmann::json passes_of(const roofkit::cupti_catalog& cat, const names& n) {
  try {
    return cat.passes(n);
  } catch (const std::exception& e) {
    return std::string("refused: ") + e.what();
  }
}

} // namespace

int main(int argc, char** argv) {
  const std::string chip = argc > 1 ? argv[1] : "GH100";
  const roofkit::cupti_catalog cat(chip);
  const names links = {"nvlrx__bytes.sum", "nvltx__bytes.sum", "nvlrx__bytes_data_user.sum",
                       "nvltx__bytes_data_user.sum"};
  nlohmann::json metrics = nlohmann::json::array();
  for (const auto& n : links)
    metrics.push_back({{"name", n}, {"on_chip", cat.has(n)}, {"description", cat.description(n)}});
  const names time = {"gpu__time_duration.sum"};
  const names dram = {"dram__bytes_read.sum", "dram__bytes_write.sum"};
  names with_time = links, with_dram = links;
  with_time.insert(with_time.end(), time.begin(), time.end());
  with_dram.insert(with_dram.end(), dram.begin(), dram.end());
  const nlohmann::json out = {{"chip", chip},
                              {"metrics", metrics},
                              {"passes_links", passes_of(cat, links)},
                              {"passes_links_and_duration", passes_of(cat, with_time)},
                              {"passes_dram_alone", passes_of(cat, dram)},
                              {"passes_links_and_dram", passes_of(cat, with_dram)}};
  std::printf("%s\n", out.dump(1).c_str());
}
