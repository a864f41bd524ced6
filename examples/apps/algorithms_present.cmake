# Transitional, while the LU and QR tile algorithms are being written (issues 3 and 4): an
# application that needs one of them is built only once some algorithms/*.cpp defines it, so the
# tree keeps building in the meantime. Delete this file and its uses when both have landed.
#   tessera_has_algorithm(<function> <out-var>)
function(tessera_has_algorithm fn var)
  file(GLOB srcs ${PROJECT_SOURCE_DIR}/algorithms/*.cpp)
  set(found FALSE)
  foreach(f IN LISTS srcs)
    file(STRINGS ${f} hits REGEX "[ :]${fn}(_async)?\\(")
    if(hits)
      set(found TRUE)
    endif()
  endforeach()
  set(${var} ${found} PARENT_SCOPE)
endfunction()
