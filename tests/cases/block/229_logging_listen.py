# expect: block SG106@3
import logging.config
t = logging.config.listen(9999)
