# expect: block SG108@4
import logging.config
base = {"version": 1}
handlers = {"h": {"()": "subprocess.getoutput", "cmd": "id"}}
logging.config.dictConfig({**base, "handlers": handlers})
