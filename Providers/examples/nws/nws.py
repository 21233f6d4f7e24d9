#!/usr/bin/env python3
"""Isobar exec plug-in (protocol 1) for the US National Weather Service, api.weather.gov.

Host-mediated HTTP: `plan` asks for /points/{lat},{lon}; `decode` (round 1) reads from it the grid's hourly-forecast URL
(for steps) and its observation stations (for current conditions) and asks for those; for current conditions `decode`
(round 2) asks for the nearest station's latest observation; the last `decode` turns the hourly periods and the observation
into an SI report. Standard library only; no socket.
"""
import json
import re
import sys
from datetime import datetime, timezone
from urllib.parse import urlsplit

PROTOCOL = 1
DEFAULT_BASE = "https://api.weather.gov"
# NWS asks every client to identify itself with a contact.
HEADERS = [["User-Agent", "isobar-nws-plugin/1 (https://github.com/isobar-weather/isobar)"], ["Accept", "application/geo+json"]]
COMPASS = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
SPEED_TO_MS = {"mph": 0.44704, "km/h": 1 / 3.6, "kt": 0.514444, "kn": 0.514444, "m/s": 1.0}
# Observations carry WMO unit codes; each is turned into Isobar's SI unit (a value in any other unit is left out).
TO_SI = {"wmoUnit:degC": lambda v: v, "wmoUnit:degF": lambda v: (v - 32) * 5 / 9, "wmoUnit:km_h-1": lambda v: v / 3.6,
         "wmoUnit:m_s-1": lambda v: v, "wmoUnit:Pa": lambda v: v / 100, "wmoUnit:hPa": lambda v: v, "wmoUnit:m": lambda v: v,
         "wmoUnit:km": lambda v: v * 1000, "wmoUnit:percent": lambda v: v, "wmoUnit:degree_(angle)": lambda v: v}
# Checked in order: the first phrase found in shortForecast decides (most specific and most severe first).
CONDITIONS = [
    ("tornado", "tornado"), ("thunderstorm", "thunderstorm"), ("t-storm", "thunderstorm"),
    ("freezing rain", "freezing_rain"), ("freezing drizzle", "freezing_drizzle"),
    ("sleet", "rain_and_snow"), ("rain and snow", "rain_and_snow"), ("wintry mix", "rain_and_snow"),
    ("snow showers", "snow_showers"), ("flurries", "snow_showers"), ("snow", "snow"),
    ("rain showers", "rain_showers"), ("showers", "rain_showers"), ("drizzle", "drizzle"), ("rain", "rain"),
    ("fog", "fog"), ("haze", "haze"), ("smoke", "haze"), ("dust", "haze"),
    ("mostly cloudy", "cloudy"), ("overcast", "cloudy"), ("partly cloudy", "partly_cloudy"), ("partly sunny", "partly_cloudy"),
    ("mostly sunny", "mainly_clear"), ("mostly clear", "mainly_clear"), ("cloudy", "cloudy"), ("sunny", "clear"), ("clear", "clear"),
]


class PluginError(Exception):
    """An error answer: a protocol code, a message, and when to retry."""

    def __init__(self, code, message, retry_after_s=None):
        super().__init__(message)
        self.code, self.message, self.retry_after_s = code, message, retry_after_s


def describe():
    return {"id": "nws", "name": "National Weather Service (US)", "attribution": "NOAA National Weather Service",
            "licence": "US Government work, public domain", "kinds": ["current", "hourly"], "horizon_days": 7, "step_hours": 1,
            "quantities": ["temperature", "apparent_temperature", "humidity", "pressure", "wind_speed", "wind_gust", "wind_direction",
                           "visibility", "precipitation_probability"],
            "key": None, "rate_limits": [], "coverage": {"south": 17.5, "west": -180, "north": 72, "east": -64},
            "mode": "http", "fresh_for_s": {"current": 900, "forecast": 3600}}


def base_url(message):
    return (message.get("base_url") or DEFAULT_BASE).rstrip("/")


def plan(message):
    place = message["request"]["place"]
    # At most 4 decimals: NWS redirects longer coordinates.
    point = "%s,%s" % (number(place["latitude"]), number(place["longitude"]))
    return {"requests": [{"method": "GET", "url": "%s/points/%s" % (base_url(message), point), "headers": HEADERS}]}


def number(value):
    return ("%.4f" % value).rstrip("0").rstrip(".")


def decode(message):
    """Round 1: the point's forecast and stations; round 2: the steps, and the latest observation; last: the report."""
    responses = message["responses"]
    for response in responses:
        check_status(response)
    state = message.get("state") or {}
    kinds = message["request"]["kinds"]
    if message["round"] == 1:
        properties = json.loads(responses[0]["body"])["properties"]
        # Keep the host the configuration chose (a mirror, a test server): only the paths are taken from NWS.
        wanted = []
        if "hourly" in kinds or "daily" in kinds:
            wanted.append(urlsplit(properties["forecastHourly"]).path)
        if "current" in kinds:
            wanted.append(urlsplit(properties["observationStations"]).path)
        return {"requests": [{"method": "GET", "url": base_url(message) + path, "headers": HEADERS} for path in wanted],
                "state": {"timezone": properties.get("timeZone")}}
    if message["round"] == 2 and ("hourly" in kinds or "daily" in kinds):
        periods = json.loads(responses[0]["body"])["properties"]["periods"]
        state["hourly"] = [sample(period) for period in periods]
        state["utc_offset_seconds"] = offset_seconds(periods[0]["startTime"]) if periods else None
        responses = responses[1:]
    if message["round"] == 2 and "current" in kinds:
        stations = json.loads(responses[0]["body"])["observationStations"]
        if not stations:
            raise PluginError("not_found", "NWS lists no observation station for this point")
        path = urlsplit(stations[0]).path + "/observations/latest"
        return {"requests": [{"method": "GET", "url": base_url(message) + path, "headers": HEADERS}], "state": state}
    report = {"units": "si", "timezone": state.get("timezone"), "utc_offset_seconds": state.get("utc_offset_seconds"),
              "hourly": state.get("hourly", [])}
    if "current" in kinds:
        report["current"] = observation(json.loads(responses[0]["body"])["properties"])
    return {"report": report}


def observation(properties):
    """A station's latest observation as current conditions (values in WMO units, nulls where the station measured nothing)."""
    chill, heat = si(properties.get("windChill")), si(properties.get("heatIndex"))
    return {
        "time": utc(properties["timestamp"]), "temperature_c": rounded(si(properties.get("temperature"))),
        "apparent_temperature_c": rounded(chill if chill is not None else heat),
        "humidity_percent": rounded(si(properties.get("relativeHumidity"))),
        "pressure_hpa": rounded(si(properties.get("seaLevelPressure"))),
        "wind_speed_ms": rounded(si(properties.get("windSpeed"))), "wind_gust_ms": rounded(si(properties.get("windGust"))),
        "wind_direction_deg": rounded(si(properties.get("windDirection"))), "visibility_m": rounded(si(properties.get("visibility"))),
        "condition": condition(properties.get("textDescription")),
    }


def si(value):
    """{"unitCode": "wmoUnit:km_h-1", "value": 18} → 5.0; None when absent, null or in a unit this plug-in does not know."""
    if not isinstance(value, dict) or value.get("value") is None or value.get("unitCode") not in TO_SI:
        return None
    return TO_SI[value["unitCode"]](value["value"])


def rounded(value):
    return None if value is None else round(value, 2)


def check_status(response):
    status = response["status"]
    if status == 200:
        return
    if status == 404:
        raise PluginError("not_found", "NWS has no forecast for this point (it covers the United States only)")
    if status == 429:
        raise PluginError("rate_limited", "NWS is rate limiting requests", 5)
    if status >= 500:
        raise PluginError("unavailable", "NWS is unavailable (HTTP %d)" % status, 5)
    raise PluginError("bad_request", "NWS rejected the request (HTTP %d)" % status)


def sample(period):
    return {
        "time": utc(period["endTime"]), "period_hours": 1,
        "temperature_c": temperature_c(period.get("temperature"), period.get("temperatureUnit")),
        "humidity_percent": quantity(period.get("relativeHumidity")),
        "wind_speed_ms": wind_speed_ms(period.get("windSpeed")),
        "wind_direction_deg": compass_degrees(period.get("windDirection")),
        "precipitation_probability_percent": quantity(period.get("probabilityOfPrecipitation")),
        "condition": condition(period.get("shortForecast")),
        "is_day": period.get("isDaytime"),
    }


def temperature_c(value, unit):
    if value is None:
        return None
    return round((value - 32) * 5 / 9, 2) if unit == "F" else round(float(value), 2)


def quantity(value):
    return None if not isinstance(value, dict) or value.get("value") is None else value["value"]


def wind_speed_ms(text):
    """'10 mph' → 4.47; a range '5 to 10 mph' gives its middle; None when unreadable."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)(?:\s*to\s*(\d+(?:\.\d+)?))?\s*(mph|km/h|kt|kn|m/s)\s*", text or "")
    if not match:
        return None
    low = float(match.group(1))
    high = float(match.group(2)) if match.group(2) else low
    return round((low + high) / 2 * SPEED_TO_MS[match.group(3)], 2)


def compass_degrees(text):
    return COMPASS.index(text) * 22.5 if text in COMPASS else None


def condition(text):
    lowered = (text or "").lower()
    for phrase, name in CONDITIONS:
        if phrase in lowered:
            return name
    return None


def utc(text):
    return datetime.fromisoformat(text).astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def offset_seconds(text):
    return int(datetime.fromisoformat(text).utcoffset().total_seconds())


def answer(message):
    call = message.get("call")
    if call == "describe":
        return {"describe": describe()}
    if call == "plan":
        return plan(message)
    if call == "decode":
        return decode(message)
    raise PluginError("unsupported", "unknown call %r" % call)


def main():
    try:
        message = json.loads(sys.stdin.read())
        if message.get("protocol") != PROTOCOL:
            raise PluginError("unsupported", "this plug-in speaks protocol %d" % PROTOCOL)
        result = {"protocol": PROTOCOL, "ok": True, **answer(message)}
    except PluginError as error:
        result = {"protocol": PROTOCOL, "ok": False,
                  "error": {"code": error.code, "message": error.message, "retry_after_s": error.retry_after_s}}
    except (KeyError, IndexError, TypeError, ValueError) as error:
        print("cannot read the answer: %r" % error, file=sys.stderr)
        result = {"protocol": PROTOCOL, "ok": False, "error": {"code": "bad_response", "message": "NWS sent an answer this plug-in cannot read"}}
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
