# libmd2's test helpers, in one place: included by the top-level CMakeLists.txt when the tests are on,
# for tests/ and the examples' tests (tests/README.md), and by tests/web.
# SPDX-License-Identifier: MIT
include_guard(GLOBAL)

# Where the tests find real models: the shared corpus beside the repository.
get_filename_component(_md2_shared_default "${PROJECT_SOURCE_DIR}/../shared" ABSOLUTE)
set(MD2_SHARED_DIR "${_md2_shared_default}" CACHE PATH "Folder with the shared MD2 corpus used by the tests")
set(MD2_MODELS "${PROJECT_SOURCE_DIR}/examples/models")
set(MD2_CORPUS "${MD2_SHARED_DIR}/corpus")

# md2_test_target(<target>): md2_target_defaults(), libm (MD2_LIBM), src/ on the include path,
# MD2_SHARED_DIR and MD2_EXAMPLES_DIR as string macros.
function(md2_test_target target)
  md2_target_defaults(${target})
  target_link_libraries(${target} PRIVATE ${MD2_LIBM})
  target_include_directories(${target} PRIVATE "${PROJECT_SOURCE_DIR}/src")
  target_compile_definitions(${target} PRIVATE "MD2_SHARED_DIR=\"${MD2_SHARED_DIR}\""
    "MD2_EXAMPLES_DIR=\"${PROJECT_SOURCE_DIR}/examples\"")
endfunction()

# md2_test_program(<name> [<source>...] [LIBS <lib>...] [DEFS <macro>...] [O2] [TEST [ARGS <arg>...]]):
# the executable <name> from the sources (default <name>.c), with md2_test_target(), linked with md2::md2
# and LIBS. O2: optimised in every build type (brute-force checks, also run under valgrind and qemu).
# TEST: md2_register_test(<name> <arg>...) too.
function(md2_test_program name)
  cmake_parse_arguments(PARSE_ARGV 1 a "O2;TEST" "" "LIBS;DEFS;ARGS")
  if(NOT a_UNPARSED_ARGUMENTS)
    set(a_UNPARSED_ARGUMENTS ${name}.c)
  endif()
  add_executable(${name} ${a_UNPARSED_ARGUMENTS})
  md2_test_target(${name})
  target_link_libraries(${name} PRIVATE md2::md2 ${a_LIBS})
  target_compile_definitions(${name} PRIVATE ${a_DEFS})
  target_compile_options(${name} PRIVATE "$<$<AND:$<BOOL:${a_O2}>,$<C_COMPILER_ID:GNU,Clang>>:-O2>")
  if(a_TEST)
    md2_register_test(${name} ${a_ARGS})
  endif()
endfunction()

# md2_register_test(<name> [<arg>...]): the test <name> runs the program <name> in its folder; 77: skipped.
function(md2_register_test name)
  add_test(NAME ${name} COMMAND ${name} ${ARGN} WORKING_DIRECTORY "$<TARGET_FILE_DIR:${name}>")
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77)
  md2_test_env(${name})
endfunction()

function(md2_test_env test)
  if(MD2_SANITIZE)
    set_tests_properties(${test} PROPERTIES ENVIRONMENT "UBSAN_OPTIONS=print_stacktrace=1")
  endif()
endfunction()

# md2_add_test(<name> [md2_test_program options]): the cmocka unit test tests/unit/<name>.c, program and
# CTest test, listed in the global property MD2_UNIT_TESTS (tests/embed/single runs each on md2_single.h).
function(md2_add_test name)
  md2_test_program(${name} LIBS md2_testutil md2_cmocka ${ARGN} TEST)
  set_property(GLOBAL APPEND PROPERTY MD2_UNIT_TESTS ${name})
endfunction()

# md2_cmake_test(<name> <script> [-DVAR=value...] [WORKING_DIRECTORY <dir>] [PROPERTIES <prop>
# <value>...]): the CTest test <name> runs `cmake -DVAR=value... -P <script>`.
function(md2_cmake_test name script)
  cmake_parse_arguments(PARSE_ARGV 2 a "" "WORKING_DIRECTORY" "PROPERTIES")
  add_test(NAME ${name} COMMAND "${CMAKE_COMMAND}" ${a_UNPARSED_ARGUMENTS} -P "${script}"
    WORKING_DIRECTORY "${a_WORKING_DIRECTORY}")
  if(a_PROPERTIES)
    set_tests_properties(${name} PROPERTIES ${a_PROPERTIES})
  endif()
endfunction()

# md2_view_test(<name> [MODEL <file> SKIN <file> | EXIT <status>] [VIEW <arg>...] ...): an md2_view test,
# run by examples/md2_view_test.cmake, which says what its options (its -D variables; VIEW, CHECK:
# VIEW_ARGS, CHECK_ARGS) check. SAME_AS_GPU (VIEW has --cpu): REFERENCE_ARGS is VIEW without --cpu. DIR:
# the folder it runs in; FIXTURES: those it needs. The background, 01fe02, is a colour neither skin has
# (the checker makes sure). Under xvfb-run (screenshots, DISPLAY): label gpu (out of the valgrind pass:
# Mesa is slow and noisy there), one Xvfb at a time; a message without a display: label script (run.sh).
function(md2_view_test name)
  cmake_parse_arguments(PARSE_ARGV 1 t "VERTEX_BOX;OPTIONAL;SAME_AS_GPU;DISPLAY" "MODEL;SKIN;EXIT;EXPECT;NOT_MATCH;DIR;MAX_DIFFERENT_PIXELS;CHANNEL_TOLERANCE;ATTACH_MARK;ATTACH_REACH" "VIEW;CHECK;FIXTURES")
  set(defs "-DVIEWER=$<TARGET_FILE:md2_view>" "-DCHECKER=$<TARGET_FILE:md2_view_check>" -DBG=01fe02
    "-DOUT=${CMAKE_CURRENT_BINARY_DIR}/${name}.ppm")
  foreach(k IN ITEMS MODEL SKIN EXIT EXPECT NOT_MATCH VERTEX_BOX OPTIONAL MAX_DIFFERENT_PIXELS
      CHANNEL_TOLERANCE ATTACH_MARK ATTACH_REACH)
    list(APPEND defs "-D${k}=${t_${k}}")
  endforeach()
  list(JOIN t_CHECK "|" check)
  list(JOIN t_VIEW "|" view)
  set(reference "")
  if(t_SAME_AS_GPU)
    list(REMOVE_ITEM t_VIEW --cpu)
    list(JOIN t_VIEW "|" reference)
  endif()
  if(DEFINED t_EXIT AND NOT t_DISPLAY)
    list(APPEND defs -DXVFB_RUN= -DVIEWER_ENV=)
    set(props LABELS script)
  else()
    list(APPEND defs "-DXVFB_RUN=${MD2_XVFB_RUN}" "-DVIEWER_ENV=$<$<BOOL:${MD2_SANITIZE}>:ASAN_OPTIONS=detect_leaks=0>")
    set(props LABELS gpu TIMEOUT 300 RESOURCE_LOCK md2_xvfb SKIP_REGULAR_EXPRESSION MD2_VIEW_SKIPPED)
  endif()
  md2_cmake_test(${name} "${PROJECT_SOURCE_DIR}/examples/md2_view_test.cmake" ${defs} "-DVIEW_ARGS=${view}"
    "-DCHECK_ARGS=${check}" "-DREFERENCE_ARGS=${reference}" WORKING_DIRECTORY "${t_DIR}" PROPERTIES ${props})
  if(t_FIXTURES)
    set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED "${t_FIXTURES}")
  endif()
  md2_test_env(${name})
endfunction()
