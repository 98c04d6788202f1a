# expect: pass
# never call os.system("rm -rf /") or eval(user_input) here
s = "do not use eval( or exec( or os.system"
doc = """pickle.loads(data) is unsafe; subprocess.run(cmd, shell=True) too"""
print(s, doc)
