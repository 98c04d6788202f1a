
import ast, operator
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}

def apply_user_formula(formula, x):
    node = ast.parse(formula, mode="eval").body
    return _eval_node(node, x)

def _eval_node(node, x):
    if isinstance(node, ast.BinOp):
        return _OPS[type(node.op)](_eval_node(node.left, x), _eval_node(node.right, x))
    if isinstance(node, ast.Name) and node.id == "x":
        return x
    if isinstance(node, ast.Constant):
        return node.value
    raise ValueError("unsupported expression")
