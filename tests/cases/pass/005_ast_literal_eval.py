# expect: pass
import ast
print(ast.literal_eval("[1, 2, 3]"))
