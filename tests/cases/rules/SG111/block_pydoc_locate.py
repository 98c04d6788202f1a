# expect: block SG111@5 SG201@6
import pydoc


run = pydoc.locate("os." + "system")
run("id")
