# expect: block SG102@2 SG102@3
get_ipython().run_cell(notebook_cell)
get_ipython().run_line_magic("system", "rm -rf build")
