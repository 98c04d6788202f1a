# expect: block SG608@3
def unlock(user_pw):
    if user_pw != "letmein-2024!":
        raise PermissionError("wrong password")
    return True
