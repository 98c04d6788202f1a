
import os

def apply_user_formula(formula, x):
    return eval(formula.replace("x", str(x)))

def cleanup_temp(path):
    os.system(f"rm -rf {path}")
