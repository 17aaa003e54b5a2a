# Writes OUT with the source tree's git revision (git describe --always --dirty: "-dirty" when tracked files differ
# from the commit), at every build, and only when it changed (so that an unchanged revision rebuilds nothing).
# Run by the build (CMakeLists.txt, target flx_revision) with -DSRC=<source dir> -DOUT=<header>.
execute_process(COMMAND git describe --always --dirty --abbrev=7 WORKING_DIRECTORY "${SRC}"
                OUTPUT_VARIABLE REV OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT REV)
  set(REV "unknown")
endif()
set(TEXT "#define FLX_GIT_REVISION \"${REV}\"\n")
set(OLD "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" OLD)
endif()
if(NOT "${OLD}" STREQUAL "${TEXT}")
  file(WRITE "${OUT}" "${TEXT}")
endif()
