# expect: pass
from operator import attrgetter, itemgetter, methodcaller

people = [{"name": "b"}, {"name": "a"}]
words = ["B", "a"]
print(sorted(people, key=itemgetter("name")), sorted(words, key=methodcaller("lower")))


class P:
    name = "x"


print(sorted([P()], key=attrgetter("name")))
