// Which tensor paths fit beside the bench's required counters in fewer passes, offline (CUPTI
// host API, no GPU): the required counters' hardware passes, the tensor paths' alone, every
// largest subset of the paths that fits in the required counters' passes, and the same without
// each bank-conflict counter. Build against the library (see validation/lab/README.md):
//   g++ -std=c++20 -Ilib/include -I$CUDA_HOME/include validation/lab/pass_sets.cpp
//       build/ci/lib/libroofkit.a -L$CUDA_HOME/lib -lcupti -lnvperf_host -lcudart -ldl -lpthread
//   ./a.out [CHIP]   (default GH100)
#include <bit>
#include <cstdio>
#include <string>
#include <vector>

#include "roofkit/bench.hpp"
#include "roofkit/profiler.hpp"

namespace {
using names = std::vector<std::string>;

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

// Prints every largest subset of `paths` that fits beside `base` in `limit` hardware passes.
void largest_fitting(const roofkit::cupti_catalog& cat, const names& base, const names& paths,
                     int limit, const char* what) {
  const unsigned n = static_cast<unsigned>(paths.size());
  for (int size = static_cast<int>(n); size > 0; --size) {
    bool any = false;
    for (unsigned mask = 0; mask < (1u << n); ++mask) {
      if (std::popcount(mask) != size)
        continue;
      names set = base;
      for (unsigned i = 0; i < n; ++i)
        if (mask >> i & 1)
          set.push_back(paths[i]);
      if (cat.passes(set) > limit)
        continue;
      any = true;
      std::printf("%s: %d of %u paths fit, without", what, size, n);
      for (unsigned i = 0; i < n; ++i)
        if (!(mask >> i & 1))
          std::printf(" %s", paths[i].c_str());
      std::printf("\n");
    }
    if (any)
      return;
  }
}
} // namespace

int main(int argc, char** argv) {
  const std::string chip = argc > 1 ? argv[1] : "GH100";
  roofkit::cupti_catalog cat(chip);
  const auto set = roofkit::resolve_metric_set(roofkit::bench_metric_set(), cat);
  names hardware, paths, sass;
  for (const auto& m : set.metrics) {
    if (contains(m.name, "sass"))
      sass.push_back(m.name);
    else if (!m.spec.optional)
      hardware.push_back(m.name);
    else if (contains(m.name, "ops_path_tensor"))
      paths.push_back(m.name);
  }
  const int required = cat.passes(hardware);
  std::printf("%s: bench set %d passes; required hardware counters %d, SASS counters %d, "
              "tensor paths alone %d\n",
              chip.c_str(), set.passes, required, cat.passes(sass), cat.passes(paths));
  largest_fitting(cat, hardware, paths, required, "beside every required counter");
  for (const auto& skip : hardware) {
    if (!contains(skip, "bank_conflicts"))
      continue;
    names without;
    for (const auto& h : hardware)
      if (h != skip)
        without.push_back(h);
    largest_fitting(cat, without, paths, required, ("without " + skip).c_str());
  }
}
