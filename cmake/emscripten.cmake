# Settings of the WebAssembly build: this project configured with emcmake by web/CMakeLists.txt, which builds only
# common/engine, common/replay and web/wasm (the root CMakeLists.txt stops after them).
#
# Cereal and RapidJSON are header-only and come from the host (Debian's libcereal-dev and rapidjson-dev), but only
# they: a directory holding links to exactly their folders stands in for /usr/include, whose C library headers must
# not mix with emscripten's own. STACKRACE_CEREAL_INCLUDE and STACKRACE_RAPIDJSON_INCLUDE are the directories
# holding cereal/ and rapidjson/.
foreach(var STACKRACE_CEREAL_INCLUDE STACKRACE_RAPIDJSON_INCLUDE)
  if(NOT IS_DIRECTORY "${${var}}")
    message(FATAL_ERROR "the WebAssembly build needs ${var} (set by web/CMakeLists.txt)")
  endif()
endforeach()
set(host_headers ${CMAKE_BINARY_DIR}/host-headers)
file(REMOVE_RECURSE ${host_headers})
file(MAKE_DIRECTORY ${host_headers})
file(CREATE_LINK ${STACKRACE_CEREAL_INCLUDE}/cereal ${host_headers}/cereal SYMBOLIC)
file(CREATE_LINK ${STACKRACE_RAPIDJSON_INCLUDE}/rapidjson ${host_headers}/rapidjson SYMBOLIC)
add_library(cereal::cereal INTERFACE IMPORTED)
set_target_properties(cereal::cereal PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${host_headers})
# common/replay calls find_package(cereal): this config file answers it; the target above is the package.
file(WRITE ${CMAKE_BINARY_DIR}/cereal-config/cerealConfig.cmake
     "# Written by cmake/emscripten.cmake: cereal::cereal is defined there.\n")
set(cereal_DIR ${CMAKE_BINARY_DIR}/cereal-config CACHE PATH "cereal for the WebAssembly build" FORCE)

# The replay decoders catch what Cereal throws (docs/CONVENTIONS.md, "Three kinds of failure"), and emscripten's
# exception support is off unless asked for. Its exceptions (emscripten 3.1.6, JavaScript-based) wrap every call that
# might throw, inside code that must clean up or catch, in a call out to JavaScript, which costs the engine's hot
# loops most of their speed. So only the I/O edge is compiled with them: sr_replay and sr_web (decoding, verifying,
# texts), but neither the engine nor the re-simulation loops, which throw nothing (an exception passing through them,
# only bad_alloc, runs no destructors there). stackrace_wasm_exceptions() runs once the targets exist.
add_link_options(-fexceptions)

function(stackrace_wasm_exceptions)
  set(plain simulate.cpp)  # sr_replay's re-simulation loop
  get_target_property(sources sr_replay SOURCES)
  foreach(source ${sources})
    if(NOT source IN_LIST plain)
      set_property(SOURCE ${PROJECT_SOURCE_DIR}/common/replay/${source} DIRECTORY ${PROJECT_SOURCE_DIR}/common/replay
                   APPEND PROPERTY COMPILE_OPTIONS -fexceptions)
    endif()
  endforeach()
  get_target_property(sources sr_web SOURCES)
  foreach(source ${sources})
    if(NOT source STREQUAL "racer_cursor.cpp")  # the cursor's seeks, as hot as the re-simulation
      set_property(SOURCE ${PROJECT_SOURCE_DIR}/web/wasm/${source} DIRECTORY ${PROJECT_SOURCE_DIR}/web/wasm
                   APPEND PROPERTY COMPILE_OPTIONS -fexceptions)
    endif()
  endforeach()
  target_compile_options(stackrace_engine PRIVATE -fexceptions)
endfunction()
