# expect: block SG001@2 SG102@2
exec "import os; os.system('id')"
