# expect: pass
import logging.config
logging.config.dictConfig({"version": 1, "handlers": {"h": {"class": "logging.StreamHandler"}}})
