# expect: block SG310@4
from lxml import etree

parser = etree.XMLParser(resolve_entities=True, no_network=False)
tree = etree.fromstring(data, parser)
