# expect: block SG804@4
# options: --fail-on low
import pdb
pdb.set_trace()
