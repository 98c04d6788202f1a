# expect: pass
import sysconfig

suffix = sysconfig.get_config_var("EXT_SUFFIX")
