# expect: block SG106@4 SG106@5 SG106@6 SG106@7
import doctest
import json
doctest.testmod(json)
doctest.testfile("examples.txt")
doctest.run_docstring_examples(json.dumps, globals())
doctest.testmod(extraglobs={"o": json})
