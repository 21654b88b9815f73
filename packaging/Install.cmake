# Install rules and the Debian package (issue 18), included once from the top-level
# CMakeLists.txt after the targets exist. `cmake --install` lays TileScope out as a desktop
# app under a prefix; CPack (`scripts/build.sh package`) wraps that layout in a .deb:
#
#   bin/tilescope
#   lib/tilescope/gpu/libtilescope_gpu.so    with CUDA; kernels/gpu_module.cpp looks here
#   lib/tilescope/gpu/tilescope-gpu-worker   with CUDA: the process the kernels run in
#                                            (a folder below lib/tilescope: CPack adds ldconfig
#                                            calls for a library one level under /usr/lib,
#                                            and this one is opened by path, never linked)
#   share/tilescope/                         assets/; app/cli/asset_paths.cpp looks here
#   share/applications/tilescope.desktop
#   share/icons/hicolor/{scalable,NxN}/apps/tilescope.{svg,png}
#   share/man/man1/tilescope.1.gz            help2man over the CLI's own --help
#   share/doc/tilescope/{copyright,changelog.gz}
#
# Only the stable targets `tilescope`, `tilescope_gpu` and `tilescope_gpu_worker` are named here.

set(TILESCOPE_PACKAGING_DIR ${PROJECT_SOURCE_DIR}/packaging)
set(TILESCOPE_GENERATED_DIR ${PROJECT_BINARY_DIR}/packaging)

# scripts/setup.sh installs these (help2man, librsvg2-bin).
find_program(HELP2MAN_PROGRAM help2man REQUIRED)
find_program(RSVG_CONVERT_PROGRAM rsvg-convert REQUIRED)
find_program(GZIP_PROGRAM gzip REQUIRED)

# The build tree mirrors share/tilescope with a link to the source's assets/, so the binary
# in the build folder finds the very files the installed one ships, wherever the folder is.
file(CREATE_LINK ${PROJECT_SOURCE_DIR}/assets ${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/assets SYMBOLIC)

# Debian wants a changelog whose newest entry is the packaged version: a version bump in
# project() must come with an entry, or the package would contradict itself.
file(STRINGS ${TILESCOPE_PACKAGING_DIR}/changelog changelog_head LIMIT_COUNT 1)
if(NOT changelog_head MATCHES "^tilescope \\(${PROJECT_VERSION}\\) ")
  message(FATAL_ERROR "packaging/changelog starts with '${changelog_head}': add an entry for "
                      "version ${PROJECT_VERSION} (project() in CMakeLists.txt) at its top")
endif()

# Generated at build time: PNG icons, the man page, the compressed changelog (gzip -n: no
# timestamp, so the same sources give the same package).
set(icon_svg ${TILESCOPE_PACKAGING_DIR}/tilescope.svg)
set(generated_files)
foreach(size 16 24 32 48 64 128 256)
  set(png ${TILESCOPE_GENERATED_DIR}/icons/${size}x${size}/tilescope.png)
  add_custom_command(
    OUTPUT ${png}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${TILESCOPE_GENERATED_DIR}/icons/${size}x${size}
    COMMAND ${RSVG_CONVERT_PROGRAM} --width=${size} --height=${size} --output=${png} ${icon_svg}
    DEPENDS ${icon_svg}
    COMMENT "Rendering the ${size}x${size} icon"
    VERBATIM)
  list(APPEND generated_files ${png})
  install(FILES ${png} DESTINATION share/icons/hicolor/${size}x${size}/apps)
endforeach()

# --version-string: the man page's header needs only the version, not --version's folders,
# which name the build tree. --locale: in help2man's default C locale the help's × and ·
# would become '?'.
set(man_page ${TILESCOPE_GENERATED_DIR}/tilescope.1)
add_custom_command(
  OUTPUT ${man_page}.gz
  COMMAND ${HELP2MAN_PROGRAM} --no-info --locale=C.UTF-8 --version-string=${PROJECT_VERSION}
          "--name=${PROJECT_DESCRIPTION}" --include=${TILESCOPE_PACKAGING_DIR}/tilescope.h2m
          --output=${man_page} $<TARGET_FILE:tilescope>
  COMMAND ${GZIP_PROGRAM} -9nf ${man_page}
  DEPENDS tilescope ${TILESCOPE_PACKAGING_DIR}/tilescope.h2m
  COMMENT "Writing the man page from tilescope --help"
  VERBATIM)
list(APPEND generated_files ${man_page}.gz)

set(changelog_gz ${TILESCOPE_GENERATED_DIR}/changelog.gz)
add_custom_command(
  OUTPUT ${changelog_gz}
  COMMAND ${CMAKE_COMMAND} -E copy ${TILESCOPE_PACKAGING_DIR}/changelog ${TILESCOPE_GENERATED_DIR}/changelog
  COMMAND ${GZIP_PROGRAM} -9nf ${TILESCOPE_GENERATED_DIR}/changelog
  DEPENDS ${TILESCOPE_PACKAGING_DIR}/changelog
  VERBATIM)
list(APPEND generated_files ${changelog_gz})

add_custom_target(tilescope_packaging_files ALL DEPENDS ${generated_files})

install(TARGETS tilescope RUNTIME DESTINATION bin)
if(TARGET tilescope_gpu)
  install(TARGETS tilescope_gpu LIBRARY DESTINATION lib/tilescope/gpu)
  # Beside the module, where kernels/gpu_worker.cpp starts it: the kernels run in it.
  install(TARGETS tilescope_gpu_worker RUNTIME DESTINATION lib/tilescope/gpu)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/ DESTINATION share/tilescope)
install(FILES ${TILESCOPE_PACKAGING_DIR}/tilescope.desktop DESTINATION share/applications)
install(FILES ${icon_svg} DESTINATION share/icons/hicolor/scalable/apps)
install(FILES ${man_page}.gz DESTINATION share/man/man1)
install(FILES ${TILESCOPE_PACKAGING_DIR}/copyright ${changelog_gz} DESTINATION share/doc/tilescope)

# The .deb. Depends: what dpkg-shlibdeps reads off the binaries (GLFW, stb, cairo, giflib and
# libwebp for `tour --slides`/`--record`, the C++
# runtime, libc) plus the fonts the GUI loads by path (app/gui/fonts.cpp).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tilescope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "TileScope")
set(CPACK_PACKAGE_CONTACT "Seed aa0055e3 maintainers <maintainers@users.noreply.a-seed-aa0055e3.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
# Wrapped under 80 columns: Debian shows it in terminals (lintian:
# extended-description-line-too-long).
set(CPACK_PACKAGE_DESCRIPTION
    "TileScope teaches how a GPU multiplies matrices with shared-memory tiling.
It steps through the tile phases of a small product on an exact CPU model of
the CUDA kernel: what sits in the shared tiles, where every thread waits at
__syncthreads(), how many global reads tiling saves. A barrier switched off
shows the race. Where an NVIDIA GPU, its driver and the CUDA 13 runtime with
cuBLAS are present, it runs the real kernels against cuBLAS; without them
everything else works and the app says which part is missing.")
set(CPACK_DEBIAN_PACKAGE_SECTION education)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_DEPENDS fonts-dejavu-core)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(TARGET tilescope_gpu)
  # The CUDA runtime and cuBLAS are optional at run time: the module is dlopen'ed and a
  # missing library is reported by the app. dpkg-shlibdeps must still find them to read
  # the module, so it is pointed at the toolkit's folder; found there, outside any package
  # with dependency information, they add nothing to Depends (CPack passes
  # --ignore-missing-info). The package test checks that Depends names no CUDA package.
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CUDAToolkit_LIBRARY_DIR})
endif()
# Debian ships stripped binaries (lintian: unstripped-binary-or-object).
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
include(CPack)
