# Small helpers shared by the folder CMakeLists.

# sw_add_library(NAME sw_models ALIAS models [HOT] SOURCES ... [PUBLIC_LIBS ...] [PRIVATE_LIBS ...])
# One static library per domain folder, with a slicewise:: alias and the repo root as include root.
# HOT marks the libraries whose loops the tests spend their time in (JSON reading, the rate model,
# the fits, the engine): they also get SW_HOT_FLAGS, with which the asan preset compiles them at
# -O1 while the rest of its build stays at -O0 (docs/ci.md).
set(SW_HOT_FLAGS "" CACHE STRING "Extra compile flags for the HOT libraries (core, models, calibration, sim)")
function(sw_add_library)
  cmake_parse_arguments(ARG "HOT" "NAME;ALIAS" "SOURCES;PUBLIC_LIBS;PRIVATE_LIBS" ${ARGN})
  add_library(${ARG_NAME} STATIC ${ARG_SOURCES})
  add_library(slicewise::${ARG_ALIAS} ALIAS ${ARG_NAME})
  target_compile_features(${ARG_NAME} PUBLIC cxx_std_20)
  target_include_directories(${ARG_NAME} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${ARG_NAME} PUBLIC ${ARG_PUBLIC_LIBS} PRIVATE ${ARG_PRIVATE_LIBS})
  if(ARG_HOT AND SW_HOT_FLAGS)
    separate_arguments(flags UNIX_COMMAND "${SW_HOT_FLAGS}")
    target_compile_options(${ARG_NAME} PRIVATE ${flags})
  endif()
endfunction()

# sw_add_test(NAME sw_models_test LABEL unit SOURCES ... LIBS ... [ENVIRONMENT ...])
# One GoogleTest executable; every case discovered as its own ctest test carrying LABEL.
function(sw_add_test)
  cmake_parse_arguments(ARG "" "NAME;LABEL" "SOURCES;LIBS;ENVIRONMENT" ${ARGN})
  add_executable(${ARG_NAME} ${ARG_SOURCES})
  target_link_libraries(${ARG_NAME} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main)
  target_compile_definitions(${ARG_NAME} PRIVATE
    SW_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/test/data"
    SW_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    SW_SHARED_DIR="${PROJECT_SOURCE_DIR}/../shared")
  gtest_discover_tests(${ARG_NAME}
    PROPERTIES LABELS ${ARG_LABEL} ENVIRONMENT "${ARG_ENVIRONMENT}"
    DISCOVERY_TIMEOUT 60)
endfunction()
