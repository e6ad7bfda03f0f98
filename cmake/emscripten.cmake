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

# The replay decoders catch what Cereal throws (docs/CONVENTIONS.md, "Three kinds of failure"): emscripten's
# exception support is off unless asked for.
add_compile_options(-fexceptions)
add_link_options(-fexceptions)
