# expect: block SG004@3
name = input()
globals()[name]("1")
