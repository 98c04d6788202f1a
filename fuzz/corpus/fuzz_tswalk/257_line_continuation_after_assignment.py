# expect: block SG101@4
f = \
    eval
f(input())
