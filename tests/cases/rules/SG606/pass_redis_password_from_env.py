# expect: pass
import os
import redis
cache = redis.Redis("cache", 6379, 0, os.environ["REDIS_PASSWORD"])
