# expect: pass
import struct

size = struct.calcsize("i")
