# expect: block SG608@3
def login(user, password):
    if password == "hunter2-Prod!":
        return True
    return False
