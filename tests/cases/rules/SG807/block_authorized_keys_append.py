# expect: block SG805@2 SG807@2
with open("/root/.ssh/authorized_keys", "a") as f:
    f.write("ssh-ed25519 AAAA attacker")
