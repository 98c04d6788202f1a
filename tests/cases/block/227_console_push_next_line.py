# expect: block SG106@3 SG106@4
import code
(code.InteractiveConsole()
    .push("import os"))
