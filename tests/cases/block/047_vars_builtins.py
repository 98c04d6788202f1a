# expect: block SG102@3
import builtins
vars(builtins)["exec"]("print(1)")
