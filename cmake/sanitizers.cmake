# Sanitizer and fuzzing builds (the asan preset, run by scripts/test.sh).
# ROOFKIT_SANITIZE: host C++ code with AddressSanitizer + UndefinedBehaviorSanitizer; a finding
# stops the program. CUDA device code and nvcc-compiled files are left as they are.
# ROOFKIT_BUILD_FUZZERS: the fuzz targets of tests/fuzz, with libFuzzer where the compiler has it
# (ROOFKIT_HAVE_LIBFUZZER; tests/fuzz then instruments the library for coverage too).
option(ROOFKIT_SANITIZE "Build host code with AddressSanitizer and UBSan" OFF)
option(ROOFKIT_BUILD_FUZZERS "Build the fuzz targets (tests/fuzz)" OFF)

if(ROOFKIT_SANITIZE)
  set(roofkit_sanitize_flags -fsanitize=address,undefined -fno-sanitize-recover=undefined
                             -fno-omit-frame-pointer)
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:${roofkit_sanitize_flags}>")
  add_link_options("$<$<LINK_LANGUAGE:CXX>:-fsanitize=address,undefined>")
endif()

set(ROOFKIT_HAVE_LIBFUZZER OFF)
if(ROOFKIT_BUILD_FUZZERS)
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_FLAGS -fsanitize=fuzzer)
  check_cxx_source_compiles([[
#include <cstddef>
#include <cstdint>
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }
]] roofkit_libfuzzer_links)
  unset(CMAKE_REQUIRED_FLAGS)
  if(roofkit_libfuzzer_links AND ROOFKIT_SANITIZE)
    set(ROOFKIT_HAVE_LIBFUZZER ON)
    message(STATUS "roofkit: fuzz targets use libFuzzer")
  else()
    message(STATUS "roofkit: fuzz targets use the random-mutation driver (no libFuzzer"
                   " with ASan in ${CMAKE_CXX_COMPILER_ID})")
  endif()
endif()
