# expect: block SG102@2 SG103@2
exec(compile("x = 1", "<s>", "exec"))
