# expect: block SG301@3
import cPickle
obj = cPickle.loads(blob)
