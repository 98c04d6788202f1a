# expect: block SG202@3
import pydoc
pydoc.pipepager("text", "sh -c id")
