# expect: pass
def kind(p):
    match p:
        case {"system": s}:
            return s.upper()
        case object(name=n):
            return n
        case _:
            return None
