# expect: pass
import array

buf = array.array("B", [1, 2, 3])
