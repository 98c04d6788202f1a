# expect: block SG109@5
from flask import render_template_string, request

page = request.args.get("page", "")
html = render_template_string("<h1>" + page + "</h1>")
