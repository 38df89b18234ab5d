// Starting the profiled application: posix_spawn with an amended environment, signals passed on.
#include <dlfcn.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <cupti.h>
#include <fmt/format.h>

#include "roofkit/app_profile.hpp"
#include "roofkit/core.hpp"

extern char** environ;

namespace roofkit {

namespace {

volatile sig_atomic_t child_pid = 0;

void forward_signal(int sig) {
  if (child_pid > 0)
    kill(child_pid, sig);
}

} // namespace

app_outcome run_app(const std::vector<std::string>& argv,
                    const std::map<std::string, std::string>& env) {
  if (argv.empty())
    throw usage_error("no application given (usage: profile [options] -- ./app args...)");
  std::vector<std::string> env_text;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    if (!env.count(name))
      env_text.push_back(entry);
  }
  for (const auto& [name, value] : env)
    env_text.push_back(name + "=" + value);
  std::vector<char*> envp;
  for (auto& e : env_text)
    envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = argv;
  std::vector<char*> argp;
  for (auto& a : args)
    argp.push_back(a.data());
  argp.push_back(nullptr);

  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, argp[0], nullptr, nullptr, argp.data(), envp.data());
  if (rc != 0)
    throw usage_error(fmt::format("cannot start '{}': {}", argv[0], std::strerror(rc)));
  child_pid = pid;
  struct sigaction sa {};
  struct sigaction old_int {};
  struct sigaction old_term {};
  sa.sa_handler = forward_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  child_pid = 0;
  app_outcome out;
  if (WIFEXITED(status)) {
    out.exit_code = WEXITSTATUS(status);
    // posix_spawnp reports exec failures as exit 127 from the child.
  } else if (WIFSIGNALED(status)) {
    out.signal = WTERMSIG(status);
    out.exit_code = 128 + out.signal;
  }
  return out;
}

std::filesystem::path find_inject_library(const std::string& explicit_path,
                                          const std::vector<std::filesystem::path>& candidates) {
  namespace fs = std::filesystem;
  if (!explicit_path.empty()) {
    if (!fs::exists(explicit_path))
      throw usage_error(fmt::format("injection library '{}' does not exist", explicit_path));
    return fs::absolute(explicit_path);
  }
  std::string looked;
  for (const auto& c : candidates) {
    if (fs::exists(c))
      return fs::absolute(c);
    looked += (looked.empty() ? "" : ", ") + c.string();
  }
  throw usage_error(fmt::format("the injection library libroofkit_inject.so was not found "
                                "(looked at: {}); set ROOFKIT_INJECT_LIBRARY to its path",
                                looked.empty() ? "nowhere" : looked));
}

std::string cupti_library_path() {
  void* symbol = reinterpret_cast<void*>(&cuptiGetVersion);
  for (const char* soname : {"libcupti.so.13", "libcupti.so"})
    if (void* handle = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD)) {
      if (void* s = dlsym(handle, "cuptiGetVersion"))
        symbol = s;
      dlclose(handle);
      break;
    }
  Dl_info info{};
  if (dladdr(symbol, &info) != 0 && info.dli_fname)
    return info.dli_fname;
  return {};
}

std::map<std::string, std::string> profile_environment(const app_profile_options& options,
                                                       const std::filesystem::path& inject_library,
                                                       const std::string& cupti_path) {
  auto env = to_environment(options);
  env["CUDA_INJECTION64_PATH"] = inject_library.string();
  if ((!options.nvtx_range.empty() || options.nvtx_groups) && !cupti_path.empty())
    env["NVTX_INJECTION64_PATH"] = cupti_path;
  return env;
}

} // namespace roofkit
