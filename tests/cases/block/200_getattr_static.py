# expect: block SG201@3
import inspect, os
inspect.getattr_static(os, "system")("id")
