# expect: block SG111@4
import pkg_resources

pkg_resources.load_entry_point("pip", "console_scripts", "pip")()
