# expect: block SG108@3
import logging.config
logging.config.dictConfig({"version": 1, "handlers": {"h": {"()": "os.system", "command": "id"}}})
