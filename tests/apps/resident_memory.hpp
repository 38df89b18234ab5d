#pragma once
// The process's resident memory (VmRSS of /proc/self/status) in KiB, -1 when unreadable: test
// applications print it so that a profiled run's memory can be followed over many launches.
#include <cstdio>
#include <cstdlib>
#include <cstring>

inline long resident_kib() {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (!f)
    return -1;
  char line[256];
  long kib = -1;
  while (std::fgets(line, sizeof line, f))
    if (std::strncmp(line, "VmRSS:", 6) == 0)
      kib = std::atol(line + 6);
  std::fclose(f);
  return kib;
}
