# expect: block SG101@3
if (run := eval):
    run("1")
