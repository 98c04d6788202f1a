# expect: block SG104@14
# options: --line-offset 10
x = 1
os_mod = __import__("os")
