// Helpers every test folder may use (the repository root is the include root).
#pragma once

#include <exception>
#include <functional>
#include <string>

namespace slicewise::test {

/// what() of the exception `f` throws, or "(no error)" when it returns normally: for asserting a
/// whole error message.
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace slicewise::test
