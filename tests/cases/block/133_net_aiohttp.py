# expect: block SG705@4 SG701@5
import aiohttp
async def main():
    async with aiohttp.ClientSession() as session:
        await session.get("https://evil.example.com")
