# Profile-guided optimisation of the parser: the tree-sitter runtime and grammar, the largest cost
# of the static gate, are compiled twice. First with -fprofile-generate into sg_pgo_train, which
# parses the repository's own Python files (tests, examples, scripts: some 700 files, not the
# benchmark's corpus); then, with the counters of that run, with -fprofile-use into the objects the
# libraries take. Measured in bench/README.md. GCC only (the profile format is the compiler's);
# not with sanitizers, the fuzz build or a Debug build; -DSNIPGATE_PGO=OFF switches it off.
#
# GCC names a profile after its object file; -dumpdir/-dumpbase give the training and the final
# object of a source the same name. The training objects compile a one-line file that includes the
# source, so that the final objects (and only they) depend on the profile.
option(SNIPGATE_PGO "Optimise the tree-sitter parser with a profile of parsing the repository's Python files (GCC)" ON)
set(SNIPGATE_PGO_ACTIVE OFF)
if(NOT SNIPGATE_PGO OR NOT CMAKE_C_COMPILER_ID STREQUAL "GNU" OR SNIPGATE_SANITIZE OR SNIPGATE_FUZZ
   OR CMAKE_BUILD_TYPE STREQUAL "Debug")
  return()
endif()
if(CMAKE_C_COMPILER_VERSION VERSION_LESS 11)
  message(STATUS "PGO of the parser: off (GCC ${CMAKE_C_COMPILER_VERSION}; -dumpdir needs GCC 11)")
  return()
endif()
# The training corpus: the repository's own Python files.
file(GLOB_RECURSE sg_pgo_corpus CONFIGURE_DEPENDS
  ${CMAKE_SOURCE_DIR}/tests/*.py ${CMAKE_SOURCE_DIR}/examples/*.py ${CMAKE_SOURCE_DIR}/scripts/*.py
  ${CMAKE_SOURCE_DIR}/bench/*.py ${CMAKE_SOURCE_DIR}/golden_tasks/*.py ${CMAKE_SOURCE_DIR}/fuzz/*.py
  ${CMAKE_SOURCE_DIR}/sandbox/*.py)
list(LENGTH sg_pgo_corpus sg_pgo_n)
if(sg_pgo_n LESS 50)
  message(STATUS "PGO of the parser: off (${sg_pgo_n} Python files to train on, fewer than 50)")
  return()
endif()
message(STATUS "PGO of the parser: on (trained on ${sg_pgo_n} Python files of the repository)")
set(SNIPGATE_PGO_ACTIVE ON)

set(sg_pgo ${CMAKE_BINARY_DIR}/pgo)
set(sg_pgo_names grammar_parser grammar_scanner runtime_lib)
set(sg_pgo_paths ${SNIPGATE_GRAMMAR_DIR}/src/parser.c ${SNIPGATE_GRAMMAR_DIR}/src/scanner.c
    ${SNIPGATE_TS_DIR}/lib/src/lib.c)
foreach(name path IN ZIP_LISTS sg_pgo_names sg_pgo_paths)
  file(CONFIGURE OUTPUT ${sg_pgo}/src/${name}.c CONTENT "#include \"${path}\"\n" @ONLY)
  set_source_files_properties(${path} ${sg_pgo}/src/${name}.c PROPERTIES
    COMPILE_OPTIONS "-dumpdir;${sg_pgo}/names/;-dumpbase;${name}.c")
  set_source_files_properties(${path} PROPERTIES OBJECT_DEPENDS ${sg_pgo}/profile.stamp)
endforeach()
file(MAKE_DIRECTORY ${sg_pgo}/names)

add_library(sg_grammar_pgogen OBJECT ${sg_pgo}/src/grammar_parser.c ${sg_pgo}/src/grammar_scanner.c)
add_library(sg_tsruntime_pgogen OBJECT ${sg_pgo}/src/runtime_lib.c)
sg_third_party_flags(sg_grammar_pgogen sg_tsruntime_pgogen)
foreach(t sg_grammar_pgogen sg_tsruntime_pgogen)
  target_compile_options(${t} PRIVATE -fprofile-generate=${sg_pgo}/prof)
endforeach()
add_executable(sg_pgo_train ${CMAKE_SOURCE_DIR}/cmake/pgo_train.c
  $<TARGET_OBJECTS:sg_grammar_pgogen> $<TARGET_OBJECTS:sg_tsruntime_pgogen>)
target_include_directories(sg_pgo_train PRIVATE ${SNIPGATE_TS_DIR}/lib/include)
target_compile_options(sg_pgo_train PRIVATE ${SG_WARN})
target_link_options(sg_pgo_train PRIVATE -fprofile-generate=${sg_pgo}/prof)

list(JOIN sg_pgo_corpus "\n" sg_pgo_list)
file(CONFIGURE OUTPUT ${sg_pgo}/corpus.txt CONTENT "${sg_pgo_list}\n" @ONLY)
add_custom_command(OUTPUT ${sg_pgo}/profile.stamp
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${sg_pgo}/prof
  COMMAND sg_pgo_train ${sg_pgo}/corpus.txt
  COMMAND ${CMAKE_COMMAND} -E touch ${sg_pgo}/profile.stamp
  DEPENDS sg_pgo_train ${sg_pgo}/corpus.txt ${sg_pgo_corpus}
  COMMENT "Profiling the tree-sitter parser on the repository's Python files (PGO)" VERBATIM)
add_custom_target(sg_pgo_profile DEPENDS ${sg_pgo}/profile.stamp)
foreach(t sg_grammar sg_tsruntime)
  add_dependencies(${t} sg_pgo_profile)
  # -fprofile-partial-training: code the training did not reach (error recovery on hostile input,
  # say) is optimised as without a profile, not for size
  target_compile_options(${t} PRIVATE -fprofile-use=${sg_pgo}/prof -fprofile-partial-training)
endforeach()
