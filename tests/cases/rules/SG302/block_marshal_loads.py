# expect: block SG302@5
import marshal

def load(blob):
    return marshal.loads(blob)
