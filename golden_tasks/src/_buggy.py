BUGGY = []
