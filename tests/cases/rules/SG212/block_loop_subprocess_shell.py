# expect: block SG212@5
import asyncio
async def main():
    loop = asyncio.get_running_loop()
    await loop.subprocess_shell(asyncio.SubprocessProtocol, "id")
