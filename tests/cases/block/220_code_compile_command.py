# expect: block SG106@3
import code
code.compile_command("print(1)")
