// occupancy-calc: theoretical occupancy, limiters and cliffs, offline for sm_50 to sm_121.
#include "cli_parse.hpp"
#include "roofkit/main_guard.hpp"

int main(int argc, char** argv) {
  return roofkit::guarded_main("occupancy-calc", [&] {
    CLI::App app{"occupancy-calc: theoretical occupancy of a CUDA launch", "occupancy-calc"};
    if (int code = roofkit::cli::parse_or_exit(app, argc, argv); code >= 0)
      return code;
    return 0;
  });
}
