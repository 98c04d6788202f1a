# expect: pass
import os


def apply(f, value):
    return f(value)


class Pipeline:
    def __init__(self, step=str.strip):
        self.step = step

    def run(self, text):
        return self.step(text)


print(apply(len, "abc"), apply(os.path.basename, "/tmp/x"))
print(Pipeline().run("  a  "), Pipeline(str.upper).run("b"))
