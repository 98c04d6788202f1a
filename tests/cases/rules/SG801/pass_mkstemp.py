# expect: pass
# options: --fail-on low
import tempfile

fd, path = tempfile.mkstemp(suffix=".txt")
