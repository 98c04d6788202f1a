# expect: block SG601@4
class Client:
    def __init__(self):
        self.api_token = "tok_1234567890abcdef"
