# Configures, builds and (where it can run) runs the add_subdirectory consumer.
# -DBIN=<dir> -DARGS=<cache args>
file(REMOVE_RECURSE "${BIN}")
execute_process(COMMAND ${CMAKE_COMMAND} -S "${CMAKE_CURRENT_LIST_DIR}" -B "${BIN}/build" ${ARGS}
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the consumer (add_subdirectory) failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build "${BIN}/build" RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the consumer (add_subdirectory) failed")
endif()
execute_process(COMMAND "${BIN}/build/consumer" RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the consumer (add_subdirectory) ran and failed: ${rc}")
endif()
