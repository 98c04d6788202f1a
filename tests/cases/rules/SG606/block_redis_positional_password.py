# expect: block SG606@3
import redis
cache = redis.Redis("cache.internal", 6379, 0, "r3disPass!")
