# expect: pass
import ast

def parse(text):
    return ast.literal_eval(text)
