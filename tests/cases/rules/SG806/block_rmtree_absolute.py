# expect: block SG806@4
import shutil

shutil.rmtree("/var/lib/app")
