# expect: pass
from flask import render_template_string, request

html = render_template_string("<h1>{{ page }}</h1>", page=request.args.get("page", ""))
