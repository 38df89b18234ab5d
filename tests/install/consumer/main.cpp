// A project outside roofkit: find_package(roofkit) and one occupancy query (sm_80, 512 x 33).
#include "roofkit/arch.hpp"
#include "roofkit/occupancy.hpp"
#include <iostream>
int main() {
  roofkit::launch_params p;
  p.threads_per_block = 512;
  p.registers_per_thread = 33;
  const auto r = roofkit::compute_occupancy(roofkit::find_arch("sm_80"), p);
  std::cout << r.active_blocks << " " << r.occupancy << "\n";
  return r.active_blocks == 3 ? 0 : 1;
}
