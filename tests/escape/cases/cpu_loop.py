# expect: timeout
# timeout_kind: cpu
# args: --cpu 1 --wall 5
while True:
    pass
