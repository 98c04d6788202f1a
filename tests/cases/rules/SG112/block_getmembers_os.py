# expect: block SG112@4
import inspect, os

fns = dict(inspect.getmembers(os))
fns["sys" + "tem"]("id")
