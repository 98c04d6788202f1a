# expect: block SG601@2
cfg = {"api_key": "a8f5f167f44f4964e6c998dee827110c"}
