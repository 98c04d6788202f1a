# expect: block SG502@3
import inspect
fr = inspect.currentframe()
