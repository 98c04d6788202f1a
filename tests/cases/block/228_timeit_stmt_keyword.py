# expect: block SG107@3
import timeit
timeit.repeat(stmt="import os; os.system('id')", repeat=1, number=1)
