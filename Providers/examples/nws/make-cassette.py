#!/usr/bin/env python3
"""Writes config/cassettes/nws/new-york.json (the demo's recording of this plug-in): NWS answers for New York composed from the documented shapes of api.weather.gov
(/points/{lat},{lon}, the grid's hourly forecast, its observation stations and the nearest one's latest observation),
deterministic, in Isobar's cassette format (version 1)."""
import json
import math
import os
from datetime import datetime, timedelta, timezone

RECORDED_AT = "2026-11-28T09:00:00Z"
BASE = "https://api.weather.gov"
LAT, LON = "40.7143", "-74.006"
OFFICE, X, Y = "OKX", 33, 35
EASTERN = timezone(timedelta(hours=-5))
FORECASTS = ["Mostly Cloudy", "Mostly Cloudy", "Chance Light Rain", "Light Rain", "Light Rain", "Rain And Snow Showers",
             "Chance Rain Showers", "Partly Sunny", "Mostly Sunny", "Sunny", "Mostly Clear", "Partly Cloudy"]
COMPASS = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]


def points():
    grid = "%s/gridpoints/%s/%d,%d" % (BASE, OFFICE, X, Y)
    return {
        "@context": ["https://geojson.org/geojson-ld/geojson-context.jsonld"], "id": "%s/points/%s,%s" % (BASE, LAT, LON),
        "type": "Feature", "geometry": {"type": "Point", "coordinates": [float(LON), float(LAT)]},
        "properties": {
            "@id": "%s/points/%s,%s" % (BASE, LAT, LON), "@type": "wx:Point", "cwa": OFFICE,
            "forecastOffice": "%s/offices/%s" % (BASE, OFFICE), "gridId": OFFICE, "gridX": X, "gridY": Y,
            "forecast": grid + "/forecast", "forecastHourly": grid + "/forecast/hourly", "forecastGridData": grid,
            "observationStations": grid + "/stations",
            "relativeLocation": {"type": "Feature", "geometry": {"type": "Point", "coordinates": [-74.0279259, 40.745251]},
                                 "properties": {"city": "Hoboken", "state": "NJ",
                                                "distance": {"unitCode": "wmoUnit:m", "value": 4063.79},
                                                "bearing": {"unitCode": "wmoUnit:degree_(angle)", "value": 152}}},
            "forecastZone": "%s/zones/forecast/NYZ072" % BASE, "county": "%s/zones/county/NYC061" % BASE,
            "fireWeatherZone": "%s/zones/fire/NYZ212" % BASE, "timeZone": "America/New_York", "radarStation": "KDIX"}}


def hourly():
    start = datetime(2026, 11, 28, 4, 0, tzinfo=EASTERN)
    periods = []
    for number in range(48):
        begin = start + timedelta(hours=number)
        hour = begin.hour
        temperature = round(42 + 6 * math.sin((hour - 9) / 24 * 2 * math.pi) - number * 0.05)
        low, high = 4 + number % 5, 9 + number % 7
        wind = "%d mph" % low if number % 3 else "%d to %d mph" % (low, high)
        forecast = FORECASTS[(number // 4) % len(FORECASTS)]
        chance = {"Light Rain": 80, "Rain And Snow Showers": 60, "Chance Light Rain": 40, "Chance Rain Showers": 30}.get(forecast, 5)
        periods.append({
            "number": number + 1, "name": "", "startTime": begin.isoformat(), "endTime": (begin + timedelta(hours=1)).isoformat(),
            "isDaytime": 6 <= hour < 18, "temperature": temperature, "temperatureUnit": "F", "temperatureTrend": None,
            "probabilityOfPrecipitation": {"unitCode": "wmoUnit:percent", "value": chance},
            "dewpoint": {"unitCode": "wmoUnit:degC", "value": round((temperature - 32) * 5 / 9 - 3, 4)},
            "relativeHumidity": {"unitCode": "wmoUnit:percent", "value": 60 + (number * 7) % 35},
            "windSpeed": wind, "windDirection": COMPASS[(number * 3) % 16],
            "icon": "%s/icons/land/%s/ovc?size=small" % (BASE, "day" if 6 <= hour < 18 else "night"),
            "shortForecast": forecast, "detailedForecast": ""})
    return {
        "@context": ["https://geojson.org/geojson-ld/geojson-context.jsonld"], "type": "Feature",
        "geometry": {"type": "Polygon", "coordinates": [[[-74.0182, 40.7254], [-74.0138, 40.7038], [-73.9854, 40.7071],
                                                         [-73.9898, 40.7287], [-74.0182, 40.7254]]]},
        "properties": {"units": "us", "forecastGenerator": "HourlyForecastGenerator", "generatedAt": "2026-11-28T08:55:12+00:00",
                       "updateTime": "2026-11-28T08:31:40+00:00", "validTimes": "2026-11-28T03:00:00+00:00/P7DT22H",
                       "elevation": {"unitCode": "wmoUnit:m", "value": 2.1336}, "periods": periods}}


def stations():
    ids = ["KNYC", "KLGA", "KEWR"]
    return {
        "@context": ["https://geojson.org/geojson-ld/geojson-context.jsonld"], "type": "FeatureCollection",
        "features": [{"id": "%s/stations/%s" % (BASE, station), "type": "Feature",
                      "properties": {"@id": "%s/stations/%s" % (BASE, station), "@type": "wx:ObservationStation",
                                     "stationIdentifier": station, "timeZone": "America/New_York"}} for station in ids],
        "observationStations": ["%s/stations/%s" % (BASE, station) for station in ids]}


def observation():
    def value(unit, number):
        return {"unitCode": "wmoUnit:" + unit, "value": number, "qualityControl": "V"}
    return {
        "@context": ["https://geojson.org/geojson-ld/geojson-context.jsonld"], "id": "%s/stations/KNYC/observations/2026-11-28T08:51:00+00:00" % BASE,
        "type": "Feature", "geometry": {"type": "Point", "coordinates": [-73.97, 40.78]},
        "properties": {
            "station": "%s/stations/KNYC" % BASE, "timestamp": "2026-11-28T08:51:00+00:00", "rawMessage": "",
            "textDescription": "Partly Cloudy", "icon": "%s/icons/land/night/sct?size=medium" % BASE, "presentWeather": [],
            "elevation": value("m", 47), "temperature": value("degC", 2.8), "dewpoint": value("degC", -1.8),
            "windDirection": value("degree_(angle)", 300), "windSpeed": value("km_h-1", 13), "windGust": value("km_h-1", None),
            "barometricPressure": value("Pa", 102550), "seaLevelPressure": value("Pa", 102610), "visibility": value("m", 16090),
            "maxTemperatureLast24Hours": value("degC", None), "minTemperatureLast24Hours": value("degC", None),
            "precipitationLastHour": value("mm", None), "relativeHumidity": value("percent", 71.34),
            "windChill": value("degC", -0.92), "heatIndex": value("degC", None), "cloudLayers": []}}


def interaction(path, body):
    return {"request": {"method": "GET", "url": BASE + path},
            "response": {"status": 200, "headers": [["Content-Type", "application/geo+json"]], "body": json.dumps(body, separators=(",", ":"))}}


def main():
    cassette = {"format": "isobar-cassette", "version": 1, "recorded_at": RECORDED_AT, "interactions": [
        interaction("/points/%s,%s" % (LAT, LON), points()),
        interaction("/gridpoints/%s/%d,%d/forecast/hourly" % (OFFICE, X, Y), hourly()),
        interaction("/gridpoints/%s/%d,%d/stations" % (OFFICE, X, Y), stations()),
        interaction("/stations/KNYC/observations/latest", observation())]}
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "config", "cassettes", "nws")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "new-york.json"), "w") as file:
        json.dump(cassette, file, indent=1)
        file.write("\n")


if __name__ == "__main__":
    main()
