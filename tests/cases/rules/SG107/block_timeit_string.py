# expect: block SG107@3
import timeit
timeit.timeit("__import__('os').system('id')", number=1)
