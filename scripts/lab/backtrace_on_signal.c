// LD_PRELOAD: on SIGUSR2 print the receiving thread's native backtrace to stderr.
#define _GNU_SOURCE
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>
static void on_sig(int s) {
  (void)s;
  void* f[64];
  int n = backtrace(f, 64);
  char head[64];
  int len = snprintf(head, sizeof head, "=== backtrace tid %ld\n", (long)syscall(SYS_gettid));
  write(2, head, len);
  backtrace_symbols_fd(f, n, 2);
}
__attribute__((constructor)) static void init(void) { signal(SIGUSR2, on_sig); }
