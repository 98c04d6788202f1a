# expect: block SG801@5
# options: --fail-on low
import tempfile

path = tempfile.mktemp(suffix=".txt")
