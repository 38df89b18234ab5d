// test_nccl_shim's second application: it loads fake_nccl_user (and through it the stand-in
// libnccl) with dlopen(RTLD_LOCAL) and makes one all-reduce through it; the exit code is 0 when
// the call reached the stand-in (its result, 42).
#include <dlfcn.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc < 2)
    return 2;
  void* user = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!user) {
    std::fprintf(stderr, "%s\n", dlerror());
    return 3;
  }
  auto call = reinterpret_cast<int (*)()>(dlsym(user, "roofkit_fake_user_all_reduce"));
  return call && call() == 42 ? 0 : 1;
}
