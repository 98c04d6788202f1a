# expect: exception
print(open("/etc/shadow").read())
