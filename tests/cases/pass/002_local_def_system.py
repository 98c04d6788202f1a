# expect: pass
def system(cmd):
    return cmd.upper()
print(system("ls"))
