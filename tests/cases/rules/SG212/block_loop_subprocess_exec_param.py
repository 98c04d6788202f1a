# expect: block SG212@3
async def start(loop, factory):
    return await loop.subprocess_exec(factory, "ls")
