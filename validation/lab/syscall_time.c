// syscall_time.so: where a process's host time goes in the calls a driver makes to wait or to
// talk to the kernel driver. Preloaded (LD_PRELOAD), it times every ioctl (by type, number and,
// for the NVIDIA driver's RM control call, its command), the sleeps and yields, poll, the waits
// on condition variables and semaphores and the calls made through syscall(), and writes the
// totals to $SYSCALL_TIME_OUT (else stderr) at exit.
// Build: gcc -O2 -shared -fPIC -o syscall_time.so validation/lab/syscall_time.c -ldl -lpthread
#define _GNU_SOURCE
#include <dlfcn.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { SLOTS = 512 };

struct slot {
  const char* what;
  unsigned long key;
  unsigned long count;
  double seconds;
  double longest;
};

static struct slot slots[SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void add(const char* what, unsigned long key, double seconds) {
  pthread_mutex_lock(&lock);
  for (int i = 0; i < SLOTS; ++i) {
    struct slot* s = &slots[i];
    if (!s->what) {
      s->what = what;
      s->key = key;
    }
    if (s->what == what && s->key == key) {
      s->count += 1;
      s->seconds += seconds;
      if (seconds > s->longest)
        s->longest = seconds;
      break;
    }
  }
  pthread_mutex_unlock(&lock);
}

#define REAL(name)                                                                                 \
  static __typeof__(name)* real_##name = NULL;                                                     \
  if (!real_##name)                                                                                \
  real_##name = (__typeof__(name)*)dlsym(RTLD_NEXT, #name)

int ioctl(int fd, unsigned long request, ...) {
  REAL(ioctl);
  va_list ap;
  va_start(ap, request);
  void* arg = va_arg(ap, void*);
  va_end(ap);
  const double t0 = now();
  const int r = real_ioctl(fd, request, arg);
  const double dt = now() - t0;
  unsigned long key = request & 0xffffUL; // type and number
  // The NVIDIA driver's RM control call ('F', 0x2a): its command is the third 32-bit word, its
  // parameters' address the third 64-bit word.
  if ((request & 0xffffUL) == (('F' << 8) | 0x2a) && arg) {
    const unsigned int cmd = ((const unsigned int*)arg)[2];
    key |= (unsigned long)cmd << 16;
    // The profiler object's register operations (NVB0CC_CTRL_CMD_EXEC_REG_OPS): how many a call
    // carries (its first word) and the type of the first (0 global, 1 context-switched: byte 1
    // of the first operation, which follows the count, the mode and two flags).
    const unsigned char* params = (const unsigned char*)((const unsigned long*)arg)[2];
    if (cmd == 0xb0cc010aU && params) {
      const unsigned int count = *(const unsigned int*)params;
      const unsigned char type = params[12 + 1];
      add("reg_ops_count", count, dt);
      add("reg_ops_first_type", type, dt);
    }
  }
  add("ioctl", key, dt);
  return r;
}

int nanosleep(const struct timespec* req, struct timespec* rem) {
  REAL(nanosleep);
  const double t0 = now();
  const int r = real_nanosleep(req, rem);
  add("nanosleep", (unsigned long)(req->tv_sec * 1000000 + req->tv_nsec / 1000), now() - t0);
  return r;
}

int clock_nanosleep(clockid_t c, int flags, const struct timespec* req, struct timespec* rem) {
  REAL(clock_nanosleep);
  const double t0 = now();
  const int r = real_clock_nanosleep(c, flags, req, rem);
  add("clock_nanosleep", flags ? 0UL : (unsigned long)(req->tv_sec * 1000000 + req->tv_nsec / 1000),
      now() - t0);
  return r;
}

int usleep(useconds_t us) {
  REAL(usleep);
  const double t0 = now();
  const int r = real_usleep(us);
  add("usleep", us, now() - t0);
  return r;
}

int sched_yield(void) {
  REAL(sched_yield);
  const double t0 = now();
  const int r = real_sched_yield();
  add("sched_yield", 0, now() - t0);
  return r;
}

int poll(struct pollfd* fds, nfds_t n, int timeout) {
  REAL(poll);
  const double t0 = now();
  const int r = real_poll(fds, n, timeout);
  add("poll", (unsigned long)(timeout < 0 ? 0xffff : timeout), now() - t0);
  return r;
}

long syscall(long number, ...) {
  REAL(syscall);
  va_list ap;
  va_start(ap, number);
  long a[6];
  for (int i = 0; i < 6; ++i)
    a[i] = va_arg(ap, long);
  va_end(ap);
  const double t0 = now();
  const long r = real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
  add("syscall", (unsigned long)number, now() - t0);
  return r;
}

int pthread_cond_wait(pthread_cond_t* c, pthread_mutex_t* m) {
  REAL(pthread_cond_wait);
  const double t0 = now();
  const int r = real_pthread_cond_wait(c, m);
  add("pthread_cond_wait", 0, now() - t0);
  return r;
}

int pthread_cond_timedwait(pthread_cond_t* c, pthread_mutex_t* m, const struct timespec* t) {
  REAL(pthread_cond_timedwait);
  const double t0 = now();
  const int r = real_pthread_cond_timedwait(c, m, t);
  add("pthread_cond_timedwait", 0, now() - t0);
  return r;
}

int sem_wait(sem_t* s) {
  REAL(sem_wait);
  const double t0 = now();
  const int r = real_sem_wait(s);
  add("sem_wait", 0, now() - t0);
  return r;
}

int sem_timedwait(sem_t* s, const struct timespec* t) {
  REAL(sem_timedwait);
  const double t0 = now();
  const int r = real_sem_timedwait(s, t);
  add("sem_timedwait", 0, now() - t0);
  return r;
}

__attribute__((destructor)) static void report(void) {
  const char* path = getenv("SYSCALL_TIME_OUT");
  FILE* f = path ? fopen(path, "a") : stderr;
  if (!f)
    return;
  fprintf(f, "{\"pid\": %d, \"calls\": [", (int)getpid());
  int first = 1;
  for (int i = 0; i < SLOTS && slots[i].what; ++i) {
    const struct slot* s = &slots[i];
    fprintf(f,
            "%s{\"call\": \"%s\", \"key\": %lu, \"count\": %lu, \"s\": %.6f, \"longest_s\": %.6f}",
            first ? "" : ", ", s->what, s->key, s->count, s->seconds, s->longest);
    first = 0;
  }
  fprintf(f, "]}\n");
  if (f != stderr)
    fclose(f);
}
