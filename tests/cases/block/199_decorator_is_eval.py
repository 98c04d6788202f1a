# expect: block SG101@2
@eval
@lambda _: "__import__('os').system('id')"
def f():
    pass
