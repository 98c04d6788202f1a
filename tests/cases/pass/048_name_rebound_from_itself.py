# expect: pass
# a name rebound from itself many times (text cleaning): deep, but no limit and nothing to find
def clean(text):
    text = text.strip()
    text = text.replace("\t", " ")
    text = text.replace("\r", "")
    text = text.replace("&", "&amp;")
    text = text.replace("<", "&lt;")
    text = text.replace(">", "&gt;")
    text = text.replace('"', "&quot;")
    text = text.replace("'", "&#x27;")
    text = text.lower()
    text = text.rstrip(".")
    text = text.lstrip("-")
    text = text.title()
    text = text.swapcase()
    text = text.casefold()
    return text
