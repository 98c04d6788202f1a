# expect: block SG113@5
import operator
import subprocess

caller = operator.methodcaller("run", "id; ls", shell=True)
caller(subprocess)
