# expect: block SG204@3
import multiprocessing.util
multiprocessing.util.spawnv_passfds("/bin/sh", ["sh", "-c", "id"], [])
