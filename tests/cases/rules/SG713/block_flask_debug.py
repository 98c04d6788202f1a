# expect: block SG713@6 SG708@6
from flask import Flask

app = Flask(__name__)

app.run(host="0.0.0.0", debug=True)
