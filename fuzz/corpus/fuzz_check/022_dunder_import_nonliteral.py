# expect: block SG104@3
name = input()
mod = __import__(name)
