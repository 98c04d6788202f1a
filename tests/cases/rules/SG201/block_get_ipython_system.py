# expect: block SG201@3 SG201@4
shell = get_ipython()
shell.system("ls " + user_dir)
get_ipython().getoutput("id")
