# Install rules, included once from the top-level CMakeLists.txt after the targets exist.
# `cmake --install` lays TileScope out as a desktop app under a prefix:
#
#   bin/tilescope
#   lib/tilescope/libtilescope_gpu.so        with CUDA; kernels/gpu_module.cpp looks here
#   share/tilescope/                         assets/; app/cli/asset_paths.cpp looks here
#   share/applications/tilescope.desktop
#   share/icons/hicolor/{scalable,NxN}/apps/tilescope.{svg,png}
#   share/man/man1/tilescope.1.gz            help2man over the CLI's own --help
#   share/doc/tilescope/{copyright,changelog.gz}
#
# Only the stable targets `tilescope` and `tilescope_gpu` are named here.

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
  install(TARGETS tilescope_gpu LIBRARY DESTINATION lib/tilescope)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/ DESTINATION share/tilescope)
install(FILES ${TILESCOPE_PACKAGING_DIR}/tilescope.desktop DESTINATION share/applications)
install(FILES ${icon_svg} DESTINATION share/icons/hicolor/scalable/apps)
install(FILES ${man_page}.gz DESTINATION share/man/man1)
install(FILES ${TILESCOPE_PACKAGING_DIR}/copyright ${changelog_gz} DESTINATION share/doc/tilescope)
