# Concatenate files: cmake -DOUT=file -DINS="a;b;c" -P concat.cmake
file(WRITE "${OUT}" "")
foreach(f ${INS})
  file(READ "${f}" body)
  file(APPEND "${OUT}" "${body}")
endforeach()
