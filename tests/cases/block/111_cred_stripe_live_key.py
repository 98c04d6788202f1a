# expect: block SG602@2
stripe_key = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
