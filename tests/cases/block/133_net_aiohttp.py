# expect: block SG705@4
import aiohttp
async def main():
    async with aiohttp.ClientSession() as session:
        await session.get("https://evil.example.com")
