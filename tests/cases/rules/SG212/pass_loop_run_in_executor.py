# expect: pass
import asyncio
async def main():
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, sum, [1, 2, 3])
