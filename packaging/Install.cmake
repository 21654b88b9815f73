# Install rules, included once from the top-level CMakeLists.txt after the targets exist.
# `cmake --install` lays TileScope out as a desktop app under a prefix:
#
#   bin/tilescope
#   lib/tilescope/libtilescope_gpu.so        with CUDA; kernels/gpu_module.cpp looks here
#   share/tilescope/                         assets/; app/cli/asset_paths.cpp looks here
#
# Only the stable targets `tilescope` and `tilescope_gpu` are named here.

# The build tree mirrors share/tilescope with a link to the source's assets/, so the binary
# in the build folder finds the very files the installed one ships, wherever the folder is.
file(CREATE_LINK ${PROJECT_SOURCE_DIR}/assets ${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/assets SYMBOLIC)

install(TARGETS tilescope RUNTIME DESTINATION bin)
if(TARGET tilescope_gpu)
  install(TARGETS tilescope_gpu LIBRARY DESTINATION lib/tilescope)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/ DESTINATION share/tilescope)
