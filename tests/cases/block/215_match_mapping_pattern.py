# expect: block SG101@5
import builtins
match vars(builtins):
    case {"eval": e}:
        e("1 + 1")
