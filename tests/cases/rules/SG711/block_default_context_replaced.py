# expect: block SG711@4 SG709@4
import ssl

ssl._create_default_https_context = ssl._create_unverified_context
