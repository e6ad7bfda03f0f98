# The synctest driver (tests/sync/README.md), shared by sync_tests (tests/sync) and stackrace-synctest (tests/bench/sync,
# which is also built without the tests).
if(NOT TARGET sr_synctest)
  add_library(sr_synctest STATIC ${CMAKE_CURRENT_LIST_DIR}/sync_plan.cpp ${CMAKE_CURRENT_LIST_DIR}/synctest.cpp)
  target_include_directories(sr_synctest PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(sr_synctest PUBLIC sr_net sr_server_core sr_bot)
  stackrace_warnings(sr_synctest)
endif()
