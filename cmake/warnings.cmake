# Warning flags for host code and for the host side of CUDA code.
add_library(roofkit_warnings INTERFACE)
target_compile_options(roofkit_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wno-missing-field-initializers>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --expt-relaxed-constexpr>)
if(ROOFKIT_WARNINGS_AS_ERRORS)
  target_compile_options(roofkit_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
endif()
