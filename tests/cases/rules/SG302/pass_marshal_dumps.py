# expect: pass
import marshal

blob = marshal.dumps([1, 2, 3])
