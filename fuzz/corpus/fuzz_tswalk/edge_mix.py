match p:
    case Point(x=0, y=[1, *rest]) | {"k": v, **kw} as q if q:
        pass
f"{a!r:>{w}}" rb"x" "y"
x = (1,
# c
 2)
if x:
pass
def (:
  return ]]]
