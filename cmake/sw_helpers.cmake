# Small helpers shared by the folder CMakeLists.

# sw_add_library(NAME sw_models ALIAS models SOURCES ... [PUBLIC_LIBS ...] [PRIVATE_LIBS ...])
# One static library per domain folder, with a slicewise:: alias and the repo root as include root.
function(sw_add_library)
  cmake_parse_arguments(ARG "" "NAME;ALIAS" "SOURCES;PUBLIC_LIBS;PRIVATE_LIBS" ${ARGN})
  add_library(${ARG_NAME} STATIC ${ARG_SOURCES})
  add_library(slicewise::${ARG_ALIAS} ALIAS ${ARG_NAME})
  target_compile_features(${ARG_NAME} PUBLIC cxx_std_20)
  target_include_directories(${ARG_NAME} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${ARG_NAME} PUBLIC ${ARG_PUBLIC_LIBS} PRIVATE ${ARG_PRIVATE_LIBS})
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
