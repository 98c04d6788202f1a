# expect: block SG108@6
import logging.config

LOGGING = {
    "version": 1,
    "handlers": {"h": {"()": "os.system", "command": "id"}},
}
logging.config.dictConfig(LOGGING)
