# expect: timeout
# timeout_kind: wall
# args: --wall 1
# stdout-contains: printed before the loop
# Not an escape: what a snippet printed before it was killed must still be in the outcome.
print("printed before the loop")
while True:
    pass
