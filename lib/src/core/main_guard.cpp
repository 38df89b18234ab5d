#include "roofkit/core.hpp"

#include <cstdio>
#include <exception>
#include <iostream>

#include <unistd.h>

namespace roofkit {

int guarded_main(std::string_view tool, const std::function<int()>& body) {
  try {
    return body();
  } catch (const error& e) {
    std::cout.flush();
    std::cerr << tool << ": error: " << e.what() << '\n';
    if (!e.hint().empty())
      std::cerr << tool << ": hint: " << e.hint() << '\n';
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << tool << ": error: " << e.what() << '\n';
    return static_cast<int>(exit_code::failure);
  }
}

bool stderr_is_terminal() { return isatty(fileno(stderr)) != 0; }
bool stdout_is_terminal() { return isatty(fileno(stdout)) != 0; }

} // namespace roofkit
