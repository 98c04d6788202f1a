# expect: block SG302@3
import marshal
code = marshal.loads(blob)
