"""The batch benchmark's comparison: the same places asked of the same two loopback providers with asyncio + aiohttp,
written the way a Python user would, bounded by a semaphore of the same size as Isobar's concurrency.

Usage: python3 batch_aiohttp.py PLACES_FILE OWM_BASE_URL METEO_BASE_URL CONCURRENCY
Prints one JSON line per place (both answers and their mean temperature) and a summary line; exits 3 without aiohttp.
"""
import asyncio
import json
import sys
import time

try:
    import aiohttp
except ImportError:
    print("aiohttp is not installed (pip install aiohttp)", file=sys.stderr)
    sys.exit(3)


async def fetch(session, semaphore, url, params):
    async with semaphore:
        async with session.get(url, params=params) as response:
            response.raise_for_status()
            return await response.json()


async def ask(session, semaphore, owm, meteo, line_number, latitude, longitude):
    weather, forecast = await asyncio.gather(
        fetch(session, semaphore, owm + "/data/2.5/weather",
              {"lat": latitude, "lon": longitude, "units": "metric", "appid": "bench"}),
        fetch(session, semaphore, meteo + "/v1/forecast",
              {"latitude": latitude, "longitude": longitude, "current": "temperature_2m,relative_humidity_2m,wind_speed_10m",
               "hourly": "temperature_2m", "daily": "temperature_2m_max", "timezone": "auto"}),
        return_exceptions=True)
    temperatures = []
    if isinstance(weather, dict):
        temperatures.append(weather["main"]["temp"])
    if isinstance(forecast, dict):
        temperatures.append(forecast["current"]["temperature_2m"])
    mean = sum(temperatures) / len(temperatures) if temperatures else None
    return {"input_line": line_number, "latitude": latitude, "longitude": longitude,
            "openweathermap": weather if isinstance(weather, dict) else str(weather),
            "open-meteo_current": forecast["current"] if isinstance(forecast, dict) else str(forecast),
            "temperature": mean, "ok": len(temperatures) == 2}


async def main():
    path, owm, meteo, concurrency = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    started = time.monotonic()
    semaphore = asyncio.Semaphore(concurrency)
    places = []
    with open(path) as handle:
        for number, line in enumerate(handle, start=1):
            latitude, longitude = line.strip().split(",")
            places.append((number, float(latitude), float(longitude)))
    connector = aiohttp.TCPConnector(limit_per_host=concurrency)
    async with aiohttp.ClientSession(connector=connector) as session:
        tasks = [ask(session, semaphore, owm, meteo, number, latitude, longitude) for number, latitude, longitude in places]
        ok = 0
        for result in asyncio.as_completed(tasks):
            answer = await result
            ok += answer["ok"]
            print(json.dumps(answer))
    print(json.dumps({"type": "summary", "places": len(places), "ok": ok, "wall_s": round(time.monotonic() - started, 3)}))


asyncio.run(main())
