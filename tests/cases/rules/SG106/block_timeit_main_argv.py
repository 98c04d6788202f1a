# expect: block SG106@4
import timeit

timeit.main(["-s", "import os", "os.system('id')"])
