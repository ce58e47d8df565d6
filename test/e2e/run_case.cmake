# Runs one end-to-end case of the real `slicewise` binary (SimGrid's tesh idea) and compares its
# exit code, and its stdout / stderr when expected files are given, byte for byte.
# -DEXE=... -DSOURCE_DIR=... -DARGS=a;b;c -DEXPECT_EXIT=N [-DEXPECT_STDOUT=file] [-DEXPECT_STDERR=file]
execute_process(
  COMMAND ${EXE} ${ARGS}
  WORKING_DIRECTORY ${SOURCE_DIR}
  RESULT_VARIABLE exit_code
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
# Under the asan preset, an exception thrown inside a SimGrid actor makes ASan print a three-line
# notice that it cannot unpoison an unknown stack (cmake/asan.supp says why). It is ASan's, not
# slicewise's output: taken out before comparing. Any real ASan report still fails the case.
string(REGEX REPLACE "==[0-9]+==WARNING: ASan is ignoring requested __asan_handle_no_return: [^\n]*\nFalse positive error reports may follow\nFor details see https://github.com/google/sanitizers/issues/189\n"
       "" err "${err}")
set(failed FALSE)
if(NOT "${exit_code}" STREQUAL "${EXPECT_EXIT}")
  message(SEND_ERROR "exit code ${exit_code}, expected ${EXPECT_EXIT}\n--- stdout:\n${out}\n--- stderr:\n${err}")
  set(failed TRUE)
endif()
foreach(stream stdout stderr)
  string(TOUPPER ${stream} upper)
  if(DEFINED EXPECT_${upper} AND EXISTS "${EXPECT_${upper}}")
    file(READ "${EXPECT_${upper}}" expected)
    if(stream STREQUAL "stdout")
      set(actual "${out}")
    else()
      set(actual "${err}")
    endif()
    if(NOT actual STREQUAL expected)
      message(SEND_ERROR "${stream} differs from ${EXPECT_${upper}}\n--- expected:\n${expected}\n--- actual:\n${actual}")
    endif()
  endif()
endforeach()
