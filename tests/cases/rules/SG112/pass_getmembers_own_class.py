# expect: pass
import inspect


class Shape:
    def area(self):
        return 0


methods = [name for name, _ in inspect.getmembers(Shape, inspect.isfunction)]
print(methods)
