#!/usr/bin/env python3
"""Compose the bundled demo cassettes from realistic, hand-chosen weather.

Isobar ships recorded HTTP exchanges ("cassettes") so that the CLI can show a
full forecast without a network connection or an API key. This script writes
them: one file per provider and place under config/cassettes/<provider>/<place>.json.
For Minsk it also writes what `isobar learn Minsk --demo` replays: 30 days of Open-Meteo's
previous runs (open-meteo/minsk-previous-runs.json) and the IEM archive's station reports
(metar/minsk-archive.json), synthetic too (see the section on `isobar learn` below).

How the weather is made:

* For every place there is one hand-chosen "truth": daily mean temperatures,
  precipitation episodes for the first days, the local climate (cloudiness,
  wind, pressure, humidity, visibility) and a diurnal cycle in local time. The
  later days get extra episodes from a seeded random.Random, so the output is
  byte-identical on every run.
* Each provider then sees that truth through its own bias, slowly varying
  error and precipitation timing, so OpenWeatherMap and Open-Meteo plausibly
  disagree, as real services do.
* Bodies are written as compact JSON with the key order and number formatting
  of the real servers (the JSON text is assembled here; json.dumps would drop
  Open-Meteo's fixed decimals such as -1.0 or 0.00).

Standard library only. Usage:

    python3 scripts/make-demo-cassettes.py [--out DIR]
"""

import argparse
import json
import math
import os
import random
import sys
import time

# ---------------------------------------------------------------------------
# Recording and file format
# ---------------------------------------------------------------------------

RECORDED_AT = "2026-11-28T09:00:00Z"
RECORDED_UNIX = 1795856400          # 2026-11-28T09:00:00Z
DATE0_UTC = 1795824000              # 2026-11-28T00:00:00Z, the local date of the recording everywhere
CASSETTE_FORMAT = "isobar-cassette"
CASSETTE_VERSION = 1
JSON_HEADERS = [["Content-Type", "application/json; charset=utf-8"]]

OM_DAYS = 16
OM_HOURS = OM_DAYS * 24
OWM_SLOTS = 40
OWM_FIRST_SLOT = 1795867200         # 2026-11-28 12:00:00 UTC, the next 3-hour slot after the recording

OWM_HOST = "https://api.openweathermap.org"
OM_HOST = "https://api.open-meteo.com"
MET_HOST = "https://api.met.no"

MET_HOURLY_STEPS = 61               # 09:00Z on the 28th to 21:00Z on the 30th, then 6-hourly
MET_LAST = 1796688000               # 2026-12-08T00:00:00Z: the last step, instant values only

OM_CURRENT_VARS = [
    "temperature_2m", "relative_humidity_2m", "apparent_temperature", "is_day",
    "precipitation", "weather_code", "cloud_cover", "pressure_msl",
    "wind_speed_10m", "wind_direction_10m", "wind_gusts_10m", "visibility",
    "dew_point_2m", "uv_index",
]
OM_HOURLY_VARS = [
    "temperature_2m", "relative_humidity_2m", "apparent_temperature",
    "precipitation_probability", "precipitation", "weather_code", "cloud_cover",
    "pressure_msl", "visibility", "wind_speed_10m", "wind_direction_10m", "wind_gusts_10m",
    "dew_point_2m", "uv_index",
]
OM_DAILY_VARS = [
    "weather_code", "temperature_2m_max", "temperature_2m_min", "precipitation_sum",
    "precipitation_probability_max", "wind_speed_10m_max", "wind_gusts_10m_max",
    "wind_direction_10m_dominant", "sunrise", "sunset", "uv_index_max",
    "daylight_duration",
]
# The weather models the demo's Open-Meteo entry asks for in its one request (config/demo.json), each
# seen through its own bias: (name, temperature bias °C, wind scale, seed offset).
OM_MODELS = [("ecmwf_ifs025", 0.0, 1.0, 11), ("gfs_seamless", 0.6, 1.12, 12), ("icon_seamless", -0.4, 0.95, 13)]
OM_UNITS = {
    "time": "iso8601", "interval": "seconds",
    "temperature_2m": "°C", "apparent_temperature": "°C",
    "temperature_2m_max": "°C", "temperature_2m_min": "°C",
    "relative_humidity_2m": "%", "cloud_cover": "%",
    "precipitation_probability": "%", "precipitation_probability_max": "%",
    "is_day": "", "precipitation": "mm", "precipitation_sum": "mm",
    "weather_code": "wmo code", "pressure_msl": "hPa", "visibility": "m",
    "wind_speed_10m": "km/h", "wind_gusts_10m": "km/h",
    "wind_speed_10m_max": "km/h", "wind_gusts_10m_max": "km/h",
    "wind_direction_10m": "°", "wind_direction_10m_dominant": "°",
    "sunrise": "iso8601", "sunset": "iso8601",
    "dew_point_2m": "°C", "uv_index": "", "uv_index_max": "", "daylight_duration": "s",
}
# Decimals the Open-Meteo server prints per variable (None: integer, no decimal point).
OM_DECIMALS = {
    "temperature_2m": 1, "apparent_temperature": 1, "temperature_2m_max": 1, "temperature_2m_min": 1,
    "relative_humidity_2m": None, "cloud_cover": None, "precipitation_probability": None,
    "precipitation_probability_max": None, "is_day": None, "weather_code": None,
    "precipitation": 2, "precipitation_sum": 2, "pressure_msl": 1, "visibility": 2,
    "wind_speed_10m": 1, "wind_gusts_10m": 1, "wind_speed_10m_max": 1, "wind_gusts_10m_max": 1,
    "wind_direction_10m": None, "wind_direction_10m_dominant": None,
    "dew_point_2m": 1, "uv_index": 2, "uv_index_max": 2, "daylight_duration": 2,
}


def owm_weather_url(p):
    return f"{OWM_HOST}/data/2.5/weather?lat={p['lat']}&lon={p['lon']}&units=metric"


def owm_forecast_url(p):
    return f"{OWM_HOST}/data/2.5/forecast?lat={p['lat']}&lon={p['lon']}&units=metric"


def met_forecast_url(p):
    return f"{MET_HOST}/weatherapi/locationforecast/2.0/compact?lat={p['lat']}&lon={p['lon']}"


def om_forecast_url(p, models=None):
    return (f"{OM_HOST}/v1/forecast?latitude={p['lat']}&longitude={p['lon']}"
            f"&current={','.join(OM_CURRENT_VARS)}"
            f"&hourly={','.join(OM_HOURLY_VARS)}"
            f"&daily={','.join(OM_DAILY_VARS)}"
            f"&timezone=auto&forecast_days={OM_DAYS}"
            + (f"&models={','.join(models)}" if models else ""))


def owm_alerts_url(p):
    return f"{OWM_HOST}/data/3.0/onecall?lat={p['lat']}&lon={p['lon']}&exclude=current,minutely,hourly,daily"


# OpenWeatherMap's One Call alerts (its `alerts` only), for New York: the NWS Winter Storm Warning of the NWS alert recording
# (config/cassettes/nws-alerts/new-york.json) passed through, so that the two sources' copies merge into one warning, and a
# Coastal Flood Advisory only OpenWeatherMap lists. No severity, urgency, certainty, area or identity: OWM gives none. The
# other places have none in force: their answers leave `alerts` out, as OpenWeatherMap's do.
OWM_ALERTS = {
    "new-york": [
        {"sender_name": "NWS Upton NY", "event": "Winter Storm Warning",
         "start": 1795910400, "end": 1795993200,          # Sat 19:00 to Sun 18:00 EST, the warning's onset and end
         "description": "* WHAT...Heavy snow expected. Total snow accumulations of 8 to 12 inches. Winds gusting as high as 40 "
                        "mph.\n\n* WHERE...New York City.\n\n* WHEN...From 7 PM this evening to 6 PM EST Sunday.\n\n"
                        "* IMPACTS...Travel could be very difficult to impossible.",
         "tags": ["Snow/Ice"]},
        {"sender_name": "NWS Upton NY", "event": "Coastal Flood Advisory",
         "start": 1795878000, "end": 1795892400,          # Sat 10:00 to 14:00 EST, around the morning high tide
         "description": "* WHAT...One to one and a half feet of inundation above ground level in low-lying areas near "
                        "shorelines and tidal waterways.\n\n* WHERE...Southern Queens and Kings (Brooklyn).\n\n* WHEN...From 10 "
                        "AM to 2 PM EST Saturday.\n\n* IMPACTS...Minor flooding of vulnerable shore roads and basements.",
         "tags": ["Coastal event", "Flood"]},
    ],
}


def owm_alerts_body(place):
    body = {"lat": float(place["lat"]), "lon": float(place["lon"]), "timezone": place["tz"], "timezone_offset": place["offset"]}
    if place["slug"] in OWM_ALERTS:
        body["alerts"] = OWM_ALERTS[place["slug"]]
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False)


def dew_point(temp, rh):
    """Magnus formula over water (a = 17.625, b = 243.04 °C), as Isobar computes it."""
    gamma = math.log(max(rh, 1.0) / 100.0) + 17.625 * temp / (243.04 + temp)
    return 243.04 * gamma / (17.625 - gamma)


def uv_index(place, t, rise, set_, cloud):
    """Clear-sky UV from the noon sun height in late November (subsolar latitude about -21.5°), dimmed by cloud."""
    if not rise < t < set_:
        return 0.0
    noon_cos = max(0.0, math.cos(math.radians(float(place["lat"]) + 21.5)))
    peak = 12.5 * noon_cos ** 2.5
    return peak * math.sin(math.pi * (t - rise) / (set_ - rise)) * (1.0 - 0.7 * (cloud / 100.0) ** 2)


# ---------------------------------------------------------------------------
# Places
#
# days:     daily mean temperature (°C) for 2026-11-28 .. 2026-12-14, at local noon
# episodes: hand-chosen precipitation (local day index, start hour, hours, peak mm/h, kind)
# random:   how later days (from day 6 on) get their precipitation episodes
# ---------------------------------------------------------------------------

PLACES = [
    {
        "slug": "minsk", "name": "Minsk", "lat": "53.9", "lon": "27.5667",
        "tz": "Europe/Minsk", "offset": 10800, "tz_abbr": "GMT+3", "country": "BY",
        "om_lat": "53.875", "om_lon": "27.5625", "elevation": "222.0",
        "owm_id": 625144, "owm_sys": (2, 2033734), "population": 1742124,
        "days": [-0.7, -0.9, -1.8, -3.2, -4.0, -1.5, 0.6, 1.1, 0.2, -1.4, -2.9, -3.6, -2.2, -0.7, 0.4, -0.3, -1.6],
        "t_amp": 1.6, "t_damp": 0.55,
        "cloud": (90, 12), "conv_cloud": 0, "wind": (4.2, 220), "pressure": (1009.0, 6.0, 7.0),
        "rh": (89, 4), "vis": 15000, "vis_cap": None,
        "episodes": [(0, 5, 11, 0.5, "mixed"), (1, 14, 10, 0.8, "snow"), (3, 3, 8, 1.2, "snow"),
                     (5, 18, 12, 0.7, "mixed")],
        "random": {"p": 0.55, "kinds": ["mixed", "snow"], "start": (0, 23), "dur": (4, 12), "peak": (0.3, 1.2)},
        "pop_clim": 45,
        "om_bias": -0.45, "owm_bias": 0.25,
        "owm_omit": set(),
        # GFS brings the thaw half a day early: rain at +3 °C where the others have snow just below freezing, a real
        # outlier of the first day (the consensus leaves it out), gone by the third.
        "model_spells": {"gfs_seamless": (2.8, 0.5, 1.0)},
    },
    {
        "slug": "moscow", "name": "Moscow", "lat": "55.7558", "lon": "37.6173",
        "tz": "Europe/Moscow", "offset": 10800, "tz_abbr": "GMT+3", "country": "RU",
        "om_lat": "55.75", "om_lon": "37.625", "elevation": "144.0",
        "owm_id": 524901, "owm_sys": (2, 2000314), "population": 10381222,
        "days": [-3.0, -3.6, -4.4, -5.5, -5.8, -4.2, -2.9, -2.4, -3.1, -4.6, -5.9, -6.2, -5.0, -3.8, -3.1, -3.5, -4.4],
        "t_amp": 1.3, "t_damp": 0.5,
        "cloud": (88, 14), "conv_cloud": 0, "wind": (3.6, 200), "pressure": (1014.0, 6.0, 5.0),
        "rh": (87, 3), "vis": 12000, "vis_cap": None,
        "episodes": [(0, 6, 14, 0.55, "snow"), (1, 20, 8, 0.5, "snow"), (3, 9, 10, 1.0, "snow"),
                     (5, 12, 8, 0.4, "snow")],
        "random": {"p": 0.5, "kinds": ["snow"], "start": (0, 23), "dur": (5, 14), "peak": (0.3, 1.3)},
        "pop_clim": 40,
        "om_bias": 0.5, "owm_bias": -0.3,
        "owm_omit": {"wind.deg"},
    },
    {
        "slug": "london", "name": "London", "lat": "51.5085", "lon": "-0.1257",
        "tz": "Europe/London", "offset": 0, "tz_abbr": "GMT", "country": "GB",
        "om_lat": "51.5", "om_lon": "-0.125", "elevation": "23.0",
        "owm_id": 2643743, "owm_sys": (2, 2075535), "population": 1000000,
        "days": [9.4, 10.2, 8.6, 7.8, 8.9, 10.1, 10.6, 9.2, 8.1, 7.5, 8.4, 9.6, 10.3, 9.9, 8.7, 8.0, 8.5],
        "t_amp": 2.0, "t_damp": 0.45,
        "cloud": (62, 22), "conv_cloud": 10, "wind": (6.5, 235), "pressure": (1004.0, 9.0, 8.0),
        "rh": (80, 8), "vis": 25000, "vis_cap": None,
        "episodes": [(0, 13, 2, 1.8, "shower"), (0, 17, 2, 1.2, "shower"), (1, 4, 9, 2.2, "rain"),
                     (1, 15, 2, 1.0, "shower"), (2, 11, 2, 1.5, "shower"), (4, 6, 3, 0.8, "shower"),
                     (4, 20, 10, 1.8, "rain"), (5, 12, 2, 1.4, "shower")],
        "random": {"p": 0.7, "kinds": ["shower", "shower", "rain"], "start": (0, 23), "dur": (1, 3),
                   "peak": (0.6, 3.0), "rain_dur": (5, 10), "rain_peak": (0.8, 2.5)},
        "pop_clim": 40,
        "om_bias": -0.35, "owm_bias": 0.4,
        "owm_omit": {"visibility"},
    },
    {
        "slug": "new-york", "name": "New York", "lat": "40.7143", "lon": "-74.006",
        "tz": "America/New_York", "offset": -18000, "tz_abbr": "EST", "country": "US",
        "om_lat": "40.710335", "om_lon": "-73.99307", "elevation": "32.0",
        "owm_id": 5128581, "owm_sys": (2, 2008101), "population": 8175133,
        "days": [4.8, 5.8, 7.2, 7.9, 4.9, 3.8, 4.3, 5.5, 6.5, 5.9, 4.9, 4.2, 5.1, 6.2, 6.7, 5.6, 4.7],
        "t_amp": 3.2, "t_damp": 0.5,
        "cloud": (22, 25), "conv_cloud": 0, "wind": (4.0, 300), "pressure": (1019.0, 7.0, 10.0),
        "rh": (62, 14), "vis": 24140, "vis_cap": 24140,
        "episodes": [(3, 2, 16, 2.5, "rain")],
        "random": {"p": 0.08, "kinds": ["rain"], "start": (0, 23), "dur": (6, 14), "peak": (0.6, 3.0)},
        "pop_clim": 12,
        "om_bias": 0.6, "owm_bias": -0.4,
        "owm_omit": {"sea_level", "grnd_level"},
    },
    {
        "slug": "tokyo", "name": "Tokyo", "lat": "35.6895", "lon": "139.6917",
        "tz": "Asia/Tokyo", "offset": 32400, "tz_abbr": "JST", "country": "JP",
        "om_lat": "35.7", "om_lon": "139.6875", "elevation": "40.0",
        "owm_id": 1850147, "owm_sys": (2, 2001249), "population": 8336599,
        "days": [12.3, 12.3, 13.1, 13.6, 12.2, 11.6, 12.6, 13.3, 12.9, 11.8, 11.2, 12.0, 13.1, 12.7, 12.0, 11.7, 12.3],
        "t_amp": 3.4, "t_damp": 0.45,
        "cloud": (24, 24), "conv_cloud": 0, "wind": (2.8, 340), "pressure": (1020.0, 5.0, 5.0),
        "rh": (58, 13), "vis": 30000, "vis_cap": None,
        "episodes": [],
        "random": {"p": 0.12, "kinds": ["rain"], "start": (0, 23), "dur": (4, 9), "peak": (0.4, 2.0)},
        "pop_clim": 8,
        "om_bias": -0.3, "owm_bias": 0.45,
        "owm_omit": {"wind.gust"},
        "om_code_gap": (8, 10, 5),   # local day index, first hour, hours: weather_code is null there
    },
    {
        "slug": "sao-paulo", "name": "São Paulo", "lat": "-23.5475", "lon": "-46.6361",
        "tz": "America/Sao_Paulo", "offset": -10800, "tz_abbr": "GMT-3", "country": "BR",
        "om_lat": "-23.5", "om_lon": "-46.625", "elevation": "762.0",
        "owm_id": 3448439, "owm_sys": (2, 2033898), "population": 10021295,
        "days": [23.8, 24.7, 24.3, 23.0, 23.6, 24.8, 25.3, 24.6, 24.0, 23.4, 24.1, 25.0, 25.4, 24.5, 23.6, 24.2, 24.8],
        "t_amp": 4.6, "t_damp": 0.4,
        "cloud": (45, 18), "conv_cloud": 35, "wind": (2.6, 140), "pressure": (1016.0, 3.0, 2.0),
        "rh": (74, 14), "vis": 20000, "vis_cap": None,
        "episodes": [(0, 4, 4, 0.6, "rain"), (0, 15, 3, 8.0, "tstorm"), (1, 16, 3, 12.0, "tstorm"),
                     (2, 14, 2, 4.0, "shower"), (3, 13, 8, 3.0, "rain"), (4, 16, 2, 6.0, "tstorm"),
                     (5, 15, 3, 10.0, "tstorm")],
        "random": {"p": 0.65, "kinds": ["tstorm"], "start": (13, 17), "dur": (2, 4), "peak": (3.0, 11.0)},
        "pop_clim": 30,
        "om_bias": 0.35, "owm_bias": -0.5,
        "owm_omit": set(),
    },
    # Last, so that the places before it keep their seeds: heavy snow on the day of the recording, under the orange
    # MetAlerts warning of the Oslo alert recording (scripts/make-alert-cassettes.py).
    {
        "slug": "oslo", "name": "Oslo", "lat": "59.9127", "lon": "10.7461",
        "tz": "Europe/Oslo", "offset": 3600, "tz_abbr": "GMT+1", "country": "NO",
        "om_lat": "59.9", "om_lon": "10.75", "elevation": "23.0",
        "owm_id": 3143244, "owm_sys": (2, 2005283), "population": 580000,
        "days": [-2.4, -3.1, -4.6, -5.2, -3.8, -1.9, -0.6, 0.3, -0.8, -2.6, -4.1, -4.8, -3.5, -2.0, -1.2, -1.9, -3.0],
        "t_amp": 1.4, "t_damp": 0.5,
        "cloud": (86, 14), "conv_cloud": 0, "wind": (5.2, 215), "pressure": (1002.0, 8.0, 9.0),
        "rh": (88, 5), "vis": 14000, "vis_cap": None,
        "episodes": [(0, 6, 20, 2.2, "snow"), (1, 9, 6, 0.5, "snow"), (4, 12, 10, 0.8, "snow")],
        "random": {"p": 0.5, "kinds": ["snow", "mixed"], "start": (0, 23), "dur": (4, 12), "peak": (0.3, 1.2)},
        "pop_clim": 45,
        "om_bias": -0.3, "owm_bias": 0.35,
        "owm_omit": set(),
    },
]

FIRST_RANDOM_DAY = 6
LAST_DAY = OM_DAYS          # one day past the horizon, so nothing ends abruptly
K_MIN = -24                 # hours relative to local midnight of 2026-11-28
K_MAX = (OM_DAYS + 1) * 24 + 24


# ---------------------------------------------------------------------------
# Compact JSON text with explicit number formatting
# ---------------------------------------------------------------------------

class Num:
    """A JSON number whose text has already been formatted."""
    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text


def dump(v):
    """Compact JSON in insertion order; floats must come wrapped in Num."""
    if isinstance(v, Num):
        return v.text
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + dump(x) for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ",".join(dump(x) for x in v) + "]"
    raise TypeError(f"unformatted value {v!r}")


def om_num(x, decimals):
    """Open-Meteo style: fixed decimals per unit, integers without a decimal point."""
    if x is None:
        return None
    if decimals is None:
        return int(round(x))
    text = f"{x:.{decimals}f}"
    if float(text) == 0.0:
        text = f"{0.0:.{decimals}f}"
    return Num(text)


def owm_num(x, decimals=2):
    """OpenWeatherMap style: at most `decimals`, trailing zeros dropped (3.0 -> 3)."""
    text = f"{x:.{decimals}f}".rstrip("0").rstrip(".")
    if text in ("", "-0"):
        text = "0"
    return Num(text)


def clamp(x, lo, hi):
    return lo if x < lo else hi if x > hi else x


# ---------------------------------------------------------------------------
# Sun (NOAA solar equations; good to about a minute)
# ---------------------------------------------------------------------------

def _sun_params(t):
    jd = t / 86400.0 + 2440587.5
    c = (jd - 2451545.0) / 36525.0
    l0 = math.radians((280.46646 + c * (36000.76983 + c * 0.0003032)) % 360.0)
    m = math.radians(357.52911 + c * (35999.05029 - 0.0001537 * c))
    e = 0.016708634 - c * (0.000042037 + 0.0000001267 * c)
    centre = (math.sin(m) * (1.914602 - c * (0.004817 + 0.000014 * c))
              + math.sin(2 * m) * (0.019993 - 0.000101 * c)
              + math.sin(3 * m) * 0.000289)
    omega = math.radians(125.04 - 1934.136 * c)
    lam = l0 + math.radians(centre - 0.00569 - 0.00478 * math.sin(omega))
    eps0 = 23.0 + (26.0 + (21.448 - c * (46.815 + c * (0.00059 - c * 0.001813))) / 60.0) / 60.0
    eps = math.radians(eps0 + 0.00256 * math.cos(omega))
    decl = math.asin(math.sin(eps) * math.sin(lam))
    y = math.tan(eps / 2.0) ** 2
    eqt = 4.0 * math.degrees(y * math.sin(2 * l0) - 2 * e * math.sin(m)
                             + 4 * e * y * math.sin(m) * math.cos(2 * l0)
                             - 0.5 * y * y * math.sin(4 * l0) - 1.25 * e * e * math.sin(2 * m))
    return decl, eqt


def sun_events(lat, lon, date_utc_midnight):
    """Unix times of sunrise and sunset on the calendar date that starts at date_utc_midnight."""
    phi = math.radians(lat)
    out = []
    for sign in (-1.0, 1.0):
        t = date_utc_midnight + (720.0 - 4.0 * lon) * 60.0
        for _ in range(4):
            decl, eqt = _sun_params(t)
            cos_ha = (math.cos(math.radians(90.833)) / (math.cos(phi) * math.cos(decl))
                      - math.tan(phi) * math.tan(decl))
            ha = math.degrees(math.acos(clamp(cos_ha, -1.0, 1.0)))
            t = date_utc_midnight + (720.0 - 4.0 * (lon - sign * ha) - eqt) * 60.0
        out.append(int(round(t)))
    return out[0], out[1]


# ---------------------------------------------------------------------------
# Truth
# ---------------------------------------------------------------------------

class Smooth:
    """Slowly varying noise of unit variance: a few seeded sinusoids."""

    def __init__(self, rng, min_period, max_period, terms=4):
        amps = [rng.uniform(0.5, 1.0) for _ in range(terms)]
        norm = math.sqrt(2.0 / sum(a * a for a in amps))
        self.waves = [(a * norm, 2.0 * math.pi / rng.uniform(min_period, max_period), rng.uniform(0.0, 2.0 * math.pi))
                      for a in amps]

    def __call__(self, x):
        return sum(a * math.sin(w * x + ph) for a, w, ph in self.waves)


def catmull_rom(points, x):
    """Smooth interpolation through points[i] placed at 24*i + 12 (local noon of day i)."""
    u = (x - 12.0) / 24.0
    i = int(math.floor(u))
    f = u - i

    def at(j):
        return points[clamp(j, 0, len(points) - 1)]

    p0, p1, p2, p3 = at(i - 1), at(i), at(i + 1), at(i + 2)
    return 0.5 * ((2 * p1) + (-p0 + p2) * f + (2 * p0 - 5 * p1 + 4 * p2 - p3) * f * f
                  + (-p0 + 3 * p1 - 3 * p2 + p3) * f * f * f)


def diurnal(hour, sunrise_hour, peak_hour=14.5):
    """-1 at sunrise, +1 in mid-afternoon; quick fall in the evening, slow through the night."""
    if sunrise_hour <= hour <= peak_hour:
        return -math.cos(math.pi * (hour - sunrise_hour) / (peak_hour - sunrise_hour))
    span = 24.0 - (peak_hour - sunrise_hour)
    x = ((hour - peak_hour) % 24.0) / span
    end = math.exp(-(1.0 / 0.38) ** 1.5)
    return -1.0 + 2.0 * (math.exp(-(x / 0.38) ** 1.5) - end) / (1.0 - end)


class Truth:
    """Hourly truth for one place, indexed by k = hours since local midnight of 2026-11-28.

    Instantaneous values (temperature, wind, ...) hold at k; precipitation is the
    amount that fell in the hour ending at k.
    """

    def __init__(self, place, rng):
        self.place = place
        off = place["offset"]
        lat, lon = float(place["lat"]), float(place["lon"])
        self.local_midnight0 = DATE0_UTC - off
        self.sun = {}
        for d in range(-2, LAST_DAY + 3):
            self.sun[d] = sun_events(lat, lon, DATE0_UTC + d * 86400)

        self.episodes = [(24 * d + h, float(dur), peak, kind) for d, h, dur, peak, kind in place["episodes"]]
        spec = place["random"]
        for d in range(FIRST_RANDOM_DAY, LAST_DAY + 1):
            if rng.random() >= spec["p"]:
                continue
            kind = rng.choice(spec["kinds"])
            start = rng.randint(*spec["start"])
            if kind == "rain" and "rain_dur" in spec:
                dur, peak = rng.randint(*spec["rain_dur"]), rng.uniform(*spec["rain_peak"])
            else:
                dur, peak = rng.randint(*spec["dur"]), rng.uniform(*spec["peak"])
            self.episodes.append((24 * d + start, float(dur), round(peak, 2), kind))

        s_temp = Smooth(rng, 10, 40)
        s_cloud = Smooth(rng, 12, 60)
        s_wind = Smooth(rng, 15, 70)
        s_dir = Smooth(rng, 30, 110)
        s_pres = Smooth(rng, 50, 140)
        s_vis = Smooth(rng, 8, 30)
        t_mean, t_amp, t_damp = place["days"], place["t_amp"], place["t_damp"]
        c_mean, c_sd = place["cloud"]
        w_mean, w_dir = place["wind"]
        p_mean, p_sd, p_dip = place["pressure"]
        rh_mean, rh_amp = place["rh"]

        self.T, self.rh, self.cloud, self.ws, self.wd, self.gust = {}, {}, {}, {}, {}, {}
        self.p, self.vis, self.rate, self.kind = {}, {}, {}, {}
        cold_pool = 0.0
        for k in range(K_MIN, K_MAX + 1):
            d, h = k // 24, k % 24
            rise = (self.sun[d][0] - (self.local_midnight0 + d * 86400)) / 3600.0
            dn = diurnal(h, rise)

            rate, kind, best = 0.0, None, 0.0
            for start, dur, peak, ekind in self.episodes:
                x = k - 0.5 - start
                if 0.0 <= x <= dur:
                    shape = math.sin(math.pi * (x + 0.5) / (dur + 1.0))
                    part = peak * shape * rng.uniform(0.7, 1.3)
                    rate += part
                    if part > best:
                        best, kind = part, ekind
            prox = self.proximity(k)

            conv = place["conv_cloud"] * math.exp(-((h - 16.0) / 3.5) ** 2)
            cloud = c_mean + c_sd * s_cloud(k) + conv
            cloud = cloud + (100.0 - cloud) * prox ** 0.7 if prox > 0 else cloud
            if rate > 0:
                cloud = max(cloud, 93.0)
            cloud = clamp(cloud, 0.0, 100.0)

            # Rain-cooled air lingers for a few hours after the precipitation stops.
            cool = {"tstorm": 3.0, "shower": 1.8, "rain": 1.5, "drizzle": 0.5}.get(kind, 0.4)
            cold_pool = max(cold_pool * math.exp(-1.0 / 4.0), cool * min(1.0, rate / 3.0))
            temp = (catmull_rom(t_mean, k) + t_amp * (1.0 - t_damp * cloud / 100.0) * dn
                    + 0.3 * s_temp(k) - cold_pool)

            ws = w_mean * (1.0 + 0.3 * s_wind(k)) * (1.0 + 0.12 * max(0.0, dn)) * (1.0 + 0.35 * prox)
            ws = max(0.4, ws)
            wd = (w_dir + 50.0 * s_dir(k) + 25.0 * prox) % 360.0
            gust_factor = 1.45 + 0.25 * max(0.0, dn) + (0.5 if kind in ("shower", "tstorm") else 0.0)
            gust = ws * (gust_factor + rng.uniform(-0.1, 0.15))

            pres = p_mean + p_sd * s_pres(k) - p_dip * prox
            rh = rh_mean - rh_amp * dn * (1.0 - 0.5 * cloud / 100.0) + 6.0 * prox + (4.0 if rate > 0 else 0.0)
            rh = clamp(rh, 20.0, 98.0)

            vis = place["vis"] * (0.85 + 0.15 * s_vis(k))
            if rate > 0:
                vis /= 1.0 + {"snow": 6.0, "mixed": 5.0}.get(kind, 0.35) * rate
            if rh > 92.0:
                vis *= max(0.25, (100.0 - rh) / 8.0)
            vis = clamp(vis, 150.0, 60000.0)

            self.T[k], self.rh[k], self.cloud[k] = temp, rh, cloud
            self.ws[k], self.wd[k], self.gust[k] = ws, wd, gust
            self.p[k], self.vis[k], self.rate[k], self.kind[k] = pres, vis, rate, kind

    def proximity(self, k):
        best = 0.0
        for start, dur, _peak, kind in self.episodes:
            x = k - 0.5
            dist = max(0.0, start - x, x - (start + dur))
            width = 2.5 if kind in ("shower", "tstorm") else 5.0
            best = max(best, math.exp(-(dist / width) ** 2))
        return best

    def utc(self, k):
        return self.local_midnight0 + k * 3600

    def k_of(self, t_utc):
        return (t_utc - self.local_midnight0) // 3600

    def is_day(self, t_utc):
        d = (t_utc - self.local_midnight0) // 86400
        rise, set_ = self.sun[d]
        return rise <= t_utc < set_


# ---------------------------------------------------------------------------
# Provider views of the truth
# ---------------------------------------------------------------------------

class View:
    """One provider's hourly series: the truth plus its own bias, error and timing."""

    def __init__(self, truth, rng, t_bias, t_sd0, t_sd_growth, rh_bias, wind_scale, p_bias,
                 shift, threshold, spell=None):
        # shift: mean precipitation timing offset in hours (positive: the provider is early).
        # spell: (°C, full days, fading days): a warm (or cold) miss of the first hours, gone after full + fading days.
        s_t, s_rh, s_w, s_d = Smooth(rng, 8, 48), Smooth(rng, 8, 40), Smooth(rng, 6, 40), Smooth(rng, 10, 60)
        s_g, s_p, s_c, s_r, s_v = (Smooth(rng, 6, 30), Smooth(rng, 20, 80), Smooth(rng, 6, 36),
                                   Smooth(rng, 4, 20), Smooth(rng, 6, 30))
        s_shift = Smooth(rng, 30, 90)
        self.truth = truth
        self.T, self.rh, self.cloud, self.ws, self.wd, self.gust = {}, {}, {}, {}, {}, {}
        self.p, self.vis, self.rate, self.kind = {}, {}, {}, {}
        cap = truth.place["vis_cap"]
        for k in range(K_MIN + 6, K_MAX - 6):
            lead = max(0.0, (truth.utc(k) - RECORDED_UNIX) / 86400.0)
            self.T[k] = truth.T[k] + t_bias + (t_sd0 + t_sd_growth * lead) * s_t(k)
            if spell:
                amount, full, fading = spell
                self.T[k] += amount * clamp(1.0 - (lead - full) / fading, 0.0, 1.0)
            self.rh[k] = clamp(truth.rh[k] + rh_bias + (3.0 + 0.3 * lead) * s_rh(k), 15.0, 100.0)
            self.cloud[k] = clamp(truth.cloud[k] + (9.0 + lead) * s_c(k), 0.0, 100.0)
            self.ws[k] = max(0.2, truth.ws[k] * wind_scale + (0.5 + 0.06 * lead) * s_w(k))
            self.wd[k] = (truth.wd[k] + (10.0 + 2.0 * lead) * s_d(k)) % 360.0
            self.gust[k] = max(self.ws[k] * 1.25, truth.gust[k] * wind_scale + 0.8 * s_g(k))
            self.p[k] = truth.p[k] + p_bias + (0.6 + 0.15 * lead) * s_p(k)
            # Precipitation timing error: a few hours early or late, varying from event to event.
            src = k + int(round(shift + 1.2 * s_shift(k)))
            rate = truth.rate[src] * math.exp(0.35 * s_r(k))
            self.rate[k] = rate if rate >= threshold else 0.0
            self.kind[k] = truth.kind[src] if self.rate[k] > 0 else None
            vis = truth.vis[src] * math.exp(0.15 * s_v(k))
            self.vis[k] = min(vis, cap) if cap else vis


def is_snow(kind, temp):
    return kind == "snow" or (kind == "mixed" and temp <= 0.5)


def wmo_code(rate, kind, temp, cloud, vis):
    if rate > 0:
        if kind == "tstorm":
            return 95
        if is_snow(kind, temp):
            return 71 if rate < 1.0 else 73 if rate < 2.5 else 75
        if kind == "shower":
            return 80 if rate < 1.5 else 81 if rate < 6.0 else 82
        if kind == "drizzle":
            return 51 if rate < 0.3 else 53
        return 61 if rate < 1.0 else 63 if rate < 4.0 else 65
    if vis < 1000:
        return 45
    return 0 if cloud < 15 else 1 if cloud < 45 else 2 if cloud < 80 else 3


OWM_CONDITIONS = {
    200: ("Thunderstorm", "thunderstorm with light rain", "11"),
    201: ("Thunderstorm", "thunderstorm with rain", "11"),
    202: ("Thunderstorm", "thunderstorm with heavy rain", "11"),
    300: ("Drizzle", "light intensity drizzle", "09"),
    301: ("Drizzle", "drizzle", "09"),
    500: ("Rain", "light rain", "10"),
    501: ("Rain", "moderate rain", "10"),
    502: ("Rain", "heavy intensity rain", "10"),
    520: ("Rain", "light intensity shower rain", "09"),
    521: ("Rain", "shower rain", "09"),
    600: ("Snow", "light snow", "13"),
    601: ("Snow", "snow", "13"),
    602: ("Snow", "heavy snow", "13"),
    615: ("Snow", "light rain and snow", "13"),
    616: ("Snow", "rain and snow", "13"),
    701: ("Mist", "mist", "50"),
    741: ("Fog", "fog", "50"),
    800: ("Clear", "clear sky", "01"),
    801: ("Clouds", "few clouds", "02"),
    802: ("Clouds", "scattered clouds", "03"),
    803: ("Clouds", "broken clouds", "04"),
    804: ("Clouds", "overcast clouds", "04"),
}


def owm_code(rate, kind, temp, cloud, vis, rh):
    """Condition id from a precipitation rate in mm/h and the state of the sky."""
    if rate > 0:
        if kind == "tstorm":
            return 200 if rate < 2.5 else 201 if rate < 7.6 else 202
        if kind == "mixed" and 0.3 < temp < 2.0:
            return 615 if rate < 1.0 else 616
        if is_snow(kind, temp) or (kind == "mixed" and temp <= 0.3):
            return 600 if rate < 1.0 else 601 if rate < 2.5 else 602
        if kind == "shower":
            return 520 if rate < 2.5 else 521
        if kind == "drizzle":
            return 300 if rate < 0.5 else 301
        return 500 if rate < 2.5 else 501 if rate < 7.6 else 502
    if vis < 1000:
        return 741
    if vis < 5000 and rh >= 90:
        return 701
    if cloud <= 10:
        return 800
    return 801 if cloud <= 25 else 802 if cloud <= 50 else 803 if cloud <= 84 else 804


def owm_condition(code, day):
    main, description, icon = OWM_CONDITIONS[code]
    return {"id": code, "main": main, "description": description, "icon": icon + ("d" if day else "n")}


def wind_chill_or_heat(temp, ws, rh):
    """OpenWeatherMap-like feels-like: wind chill when cold, heat index when hot."""
    v = ws * 3.6
    if temp <= 10.0 and v > 4.8:
        return 13.12 + 0.6215 * temp - 11.37 * v ** 0.16 + 0.3965 * temp * v ** 0.16
    if temp >= 27.0:
        f = temp * 9.0 / 5.0 + 32.0
        hi = (-42.379 + 2.04901523 * f + 10.14333127 * rh - 0.22475541 * f * rh - 0.00683783 * f * f
              - 0.05481717 * rh * rh + 0.00122874 * f * f * rh + 0.00085282 * f * rh * rh
              - 0.00000199 * f * f * rh * rh)
        return (hi - 32.0) * 5.0 / 9.0
    return temp - 0.25 * ws + 0.02 * (rh - 70.0)


def apparent_temperature(temp, rh, ws):
    """Steadman's apparent temperature (shade), as Open-Meteo reports it."""
    e = rh / 100.0 * 6.105 * math.exp(17.27 * temp / (237.7 + temp))
    return temp + 0.33 * e - 0.70 * ws - 4.00


def hpa_at_height(p, height):
    return p * math.exp(-height / 8400.0)


# ---------------------------------------------------------------------------
# OpenWeatherMap bodies
# ---------------------------------------------------------------------------

KNOT = 0.514444


def owm_weather_body(place, truth, view, rng):
    omit = place["owm_omit"]
    dt = RECORDED_UNIX - rng.randint(70, 520)
    k = truth.k_of(RECORDED_UNIX)
    day = truth.is_day(dt)
    temp, rh, ws = view.T[k], view.rh[k], view.ws[k]
    # Station reports: cloud in oktas-like steps, wind in whole knots, direction in tens of degrees.
    cloud = min((0, 20, 40, 75, 90, 100), key=lambda c: abs(c - view.cloud[k]))
    speed = round(ws / KNOT) * KNOT
    gust = max(round(view.gust[k] / KNOT), round(ws / KNOT) + 3) * KNOT
    deg = int(round(view.wd[k] / 10.0)) * 10 % 360
    vis = min(10000, int(round(view.vis[k] / 100.0)) * 100)
    rate = view.rate[k]
    code = owm_code(rate, view.kind[k], temp, cloud, vis, rh)
    weather = [owm_condition(code, day)]
    if code < 700 and vis < 5000 and rh >= 88:
        weather.append(owm_condition(701 if vis >= 1000 else 741, day))
    pressure = int(round(view.p[k]))
    elevation = float(place["elevation"])

    main = {
        "temp": owm_num(temp),
        "feels_like": owm_num(wind_chill_or_heat(temp, speed, rh)),
        "temp_min": owm_num(temp - rng.uniform(0.1, 0.9)),
        "temp_max": owm_num(temp + rng.uniform(0.05, 0.7)),
        "pressure": pressure,
        "humidity": int(round(rh)),
    }
    if "sea_level" not in omit:
        main["sea_level"] = pressure
    if "grnd_level" not in omit:
        main["grnd_level"] = int(round(hpa_at_height(view.p[k], elevation)))
    wind = {"speed": owm_num(speed)}
    if "wind.deg" not in omit:
        wind["deg"] = deg
    if "wind.gust" not in omit:
        wind["gust"] = owm_num(gust)

    body = {"coord": {"lon": Num(place["lon"]), "lat": Num(place["lat"])},
            "weather": weather, "base": "stations", "main": main}
    if "visibility" not in omit:
        body["visibility"] = vis
    body["wind"] = wind
    if rate > 0:
        key = "snow" if 600 <= code < 700 else "rain"
        body[key] = {"1h": owm_num(rate)}
    body["clouds"] = {"all": cloud}
    body["dt"] = dt
    sys_type, sys_id = place["owm_sys"]
    sunrise, sunset = truth.sun[0]
    body["sys"] = {"type": sys_type, "id": sys_id, "country": place["country"],
                   "sunrise": sunrise, "sunset": sunset}
    body["timezone"] = place["offset"]
    body["id"] = place["owm_id"]
    body["name"] = place["name"]
    body["cod"] = 200
    return dump(body)


def owm_forecast_body(place, truth, view, rng):
    elevation = float(place["elevation"])
    no_visibility = set(rng.sample(range(OWM_SLOTS), 3))
    kf_slots = 4
    items = []
    for i in range(OWM_SLOTS):
        dt = OWM_FIRST_SLOT + i * 10800
        k = truth.k_of(dt)
        day = truth.is_day(dt)
        temp, rh = view.T[k], view.rh[k]
        hours = [k - 2, k - 1, k]
        total = sum(view.rate[j] for j in hours)
        wettest = max(hours, key=lambda j: view.rate[j])
        kind = view.kind[wettest]
        if total < 0.2:     # traces are not reported
            total, kind = 0.0, None
        cloud = int(round(view.cloud[k]))
        vis = min(10000, int(round(view.vis[k])))
        code = owm_code(total / 3.0, kind, temp, cloud, vis, rh)

        if i < kf_slots:
            kf = round(rng.uniform(-1.6, 1.6) * (kf_slots - i) / kf_slots, 2)
        else:
            kf = 0.0
        temp_r = round(temp, 2)
        main = {
            "temp": owm_num(temp_r),
            "feels_like": owm_num(wind_chill_or_heat(temp, view.ws[k], rh)),
            "temp_min": owm_num(min(temp_r, temp_r - kf)),
            "temp_max": owm_num(max(temp_r, temp_r - kf)),
            "pressure": int(round(view.p[k])),
            "sea_level": int(round(view.p[k])),
            "grnd_level": int(round(hpa_at_height(view.p[k], elevation))),
            "humidity": int(round(rh)),
            "temp_kf": owm_num(kf),
        }

        near = max(view.rate[j] for j in range(k - 6, k + 4))
        if total >= 2.0:
            pop = 1.0
        elif total > 0:
            pop = min(1.0, 0.35 + 0.3 * total + rng.uniform(0.0, 0.1))
        elif near > 0:
            pop = 0.08 + 0.25 * min(1.0, near) + rng.uniform(0.0, 0.05)
        elif cloud > 85:
            pop = rng.choice((0.0, 0.0, 0.04, 0.07))
        else:
            pop = 0.0

        item = {"dt": dt, "main": main, "weather": [owm_condition(code, day)], "clouds": {"all": cloud},
                "wind": {"speed": owm_num(view.ws[k]), "deg": int(round(view.wd[k])) % 360,
                         "gust": owm_num(view.gust[k])}}
        if i not in no_visibility:
            item["visibility"] = vis
        item["pop"] = owm_num(pop)
        if total > 0:
            if code in (615, 616):
                rain_part = total * clamp((temp - 0.3) / 1.7, 0.2, 0.8)
                item["rain"] = {"3h": owm_num(rain_part)}
                item["snow"] = {"3h": owm_num(total - rain_part)}
            elif 600 <= code < 700:
                item["snow"] = {"3h": owm_num(total)}
            else:
                item["rain"] = {"3h": owm_num(total)}
        item["sys"] = {"pod": "d" if day else "n"}
        item["dt_txt"] = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(dt))
        items.append(item)

    sunrise, sunset = truth.sun[0]
    city = {"id": place["owm_id"], "name": place["name"],
            "coord": {"lat": Num(place["lat"]), "lon": Num(place["lon"])},
            "country": place["country"], "population": place["population"], "timezone": place["offset"],
            "sunrise": sunrise, "sunset": sunset}
    return dump({"cod": "200", "message": 0, "cnt": len(items), "list": items, "city": city})


# ---------------------------------------------------------------------------
# Open-Meteo body
# ---------------------------------------------------------------------------

def local_text(t_utc, offset, fmt):
    return time.strftime(fmt, time.gmtime(t_utc + offset))


def dominant_direction(speeds, directions):
    x = sum(s * math.sin(math.radians(d)) for s, d in zip(speeds, directions))
    y = sum(s * math.cos(math.radians(d)) for s, d in zip(speeds, directions))
    return int(round(math.degrees(math.atan2(x, y)))) % 360


def om_body(place, truth, view, rng):
    return dump(om_body_dict(place, truth, view, rng))


def om_models_body(place, truth, views, rng):
    """One body for several models: every variable key gets the model's name appended; time and interval do not."""
    bodies = [(name, om_body_dict(place, truth, view, random.Random(rng.random()))) for name, view in views]
    body = dict(bodies[0][1])
    for block in ("current_units", "current", "hourly_units", "hourly", "daily_units", "daily"):
        merged = {k: v for k, v in bodies[0][1][block].items() if k in ("time", "interval")}
        for name, one in bodies:
            merged.update({f"{k}_{name}": v for k, v in one[block].items() if k not in ("time", "interval")})
        body[block] = merged
    return dump(body)


def om_body_dict(place, truth, view, rng):
    off = place["offset"]
    conv_rain = place["slug"] == "sao-paulo"
    hours = list(range(OM_HOURS))
    h = {var: [] for var in OM_HOURLY_VARS}
    times = []
    for k in hours:
        t = truth.utc(k)
        lead = max(0.0, (t - RECORDED_UNIX) / 86400.0)
        times.append(local_text(t, off, "%Y-%m-%dT%H:%M"))
        temp = round(view.T[k], 1)
        rh = int(round(view.rh[k]))
        ws_kmh = round(view.ws[k] * 3.6, 1)
        gust_kmh = round(view.gust[k] * 3.6, 1)
        rate = round(view.rate[k], 1) if view.rate[k] >= 0.05 else 0.0
        vis = round(view.vis[k] / 20.0) * 20.0
        code = wmo_code(rate, view.kind[k], temp, view.cloud[k], vis)

        near = max(view.rate[j] for j in range(k - 4, k + 5))
        if rate > 0:
            prob = 55.0 + 40.0 * min(1.0, rate / 1.5)
        elif near >= 0.05:
            prob = 18.0 + 25.0 * min(1.0, near / 1.5)
        elif view.cloud[k] > 85:
            prob = rng.choice((0.0, 0.0, 3.0, 5.0, 8.0))
        else:
            prob = 0.0
        clim = place["pop_clim"]
        if conv_rain:
            clim += 30.0 * math.exp(-((k % 24 - 16.0) / 3.0) ** 2)
        w = clamp((lead - 4.0) / 16.0, 0.0, 0.55)
        prob = prob * (1.0 - w) + clim * w
        if prob > 5.0:
            prob += rng.uniform(-4.0, 4.0)
        prob = int(round(clamp(prob, 0.0, 100.0)))

        h["temperature_2m"].append(temp)
        h["relative_humidity_2m"].append(rh)
        h["apparent_temperature"].append(round(apparent_temperature(view.T[k], view.rh[k], view.ws[k]), 1))
        h["precipitation_probability"].append(prob)
        h["precipitation"].append(rate)
        h["weather_code"].append(code)
        h["cloud_cover"].append(int(round(view.cloud[k])))
        h["pressure_msl"].append(round(view.p[k], 1))
        h["visibility"].append(vis)
        h["wind_speed_10m"].append(ws_kmh)
        h["wind_direction_10m"].append(int(round(view.wd[k])) % 360)
        h["wind_gusts_10m"].append(gust_kmh)
        h["dew_point_2m"].append(round(dew_point(temp, rh), 1))
        rise, set_ = truth.sun[k // 24]
        h["uv_index"].append(round(uv_index(place, t, rise, set_, view.cloud[k]), 2))

    # Horizon end: the last three hours of every variable are null.
    for var in OM_HOURLY_VARS:
        for i in range(OM_HOURS - 3, OM_HOURS):
            h[var][i] = None
    gap = place.get("om_code_gap")
    if gap:
        gap_day, gap_hour, gap_len = gap
        for i in range(24 * gap_day + gap_hour, 24 * gap_day + gap_hour + gap_len):
            h["weather_code"][i] = None

    # Current: the recording instant aligned to 15 minutes, from the same model run.
    k_now = truth.k_of(RECORDED_UNIX)
    t_now = RECORDED_UNIX - RECORDED_UNIX % 900
    cur_values = {
        "temperature_2m": h["temperature_2m"][k_now],
        "relative_humidity_2m": h["relative_humidity_2m"][k_now],
        "apparent_temperature": h["apparent_temperature"][k_now],
        "is_day": 1 if truth.is_day(t_now) else 0,
        "precipitation": round(h["precipitation"][k_now] / 4.0 + 0.04, 1) if h["precipitation"][k_now] else 0.0,
        "weather_code": h["weather_code"][k_now],
        "cloud_cover": h["cloud_cover"][k_now],
        "pressure_msl": h["pressure_msl"][k_now],
        "wind_speed_10m": h["wind_speed_10m"][k_now],
        "wind_direction_10m": h["wind_direction_10m"][k_now],
        "wind_gusts_10m": h["wind_gusts_10m"][k_now],
        "visibility": h["visibility"][k_now],
        "dew_point_2m": h["dew_point_2m"][k_now],
        "uv_index": h["uv_index"][k_now],
    }

    # Daily aggregates over local days, from the hourly values as printed.
    daily = {var: [] for var in OM_DAILY_VARS}
    daily_time = []
    for d in range(OM_DAYS):
        lo, hi = 24 * d, 24 * d + 24

        def vals(var):
            return [x for x in h[var][lo:hi] if x is not None]

        daily_time.append(local_text(truth.local_midnight0 + d * 86400, off, "%Y-%m-%d"))
        daily["weather_code"].append(max(vals("weather_code")))
        daily["temperature_2m_max"].append(max(vals("temperature_2m")))
        daily["temperature_2m_min"].append(min(vals("temperature_2m")))
        daily["precipitation_sum"].append(round(sum(vals("precipitation")), 2))
        daily["precipitation_probability_max"].append(max(vals("precipitation_probability")))
        daily["wind_speed_10m_max"].append(max(vals("wind_speed_10m")))
        daily["wind_gusts_10m_max"].append(max(vals("wind_gusts_10m")))
        daily["wind_direction_10m_dominant"].append(
            dominant_direction(vals("wind_speed_10m"), vals("wind_direction_10m")))
        rise, set_ = truth.sun[d]
        daily["sunrise"].append(local_text(rise, off, "%Y-%m-%dT%H:%M"))
        daily["sunset"].append(local_text(set_, off, "%Y-%m-%dT%H:%M"))
        daily["uv_index_max"].append(max(vals("uv_index")))
        daily["daylight_duration"].append(round(set_ - rise + 0.37, 2))
    daily["precipitation_probability_max"][-1] = None

    body = {
        "latitude": Num(place["om_lat"]),
        "longitude": Num(place["om_lon"]),
        "generationtime_ms": Num(repr(rng.uniform(0.6, 3.2))),
        "utc_offset_seconds": off,
        "timezone": place["tz"],
        "timezone_abbreviation": place["tz_abbr"],
        "elevation": Num(place["elevation"]),
        "current_units": {"time": OM_UNITS["time"], "interval": OM_UNITS["interval"],
                          **{v: OM_UNITS[v] for v in OM_CURRENT_VARS}},
        "current": {"time": local_text(t_now, off, "%Y-%m-%dT%H:%M"), "interval": 900,
                    **{v: om_num(cur_values[v], OM_DECIMALS[v]) for v in OM_CURRENT_VARS}},
        "hourly_units": {"time": OM_UNITS["time"], **{v: OM_UNITS[v] for v in OM_HOURLY_VARS}},
        "hourly": {"time": times,
                   **{v: [om_num(x, OM_DECIMALS[v]) for x in h[v]] for v in OM_HOURLY_VARS}},
        "daily_units": {"time": OM_UNITS["time"], **{v: OM_UNITS[v] for v in OM_DAILY_VARS}},
        "daily": {"time": daily_time,
                  **{v: (daily[v] if v in ("sunrise", "sunset")
                         else [om_num(x, OM_DECIMALS[v]) for x in daily[v]]) for v in OM_DAILY_VARS}},
    }
    return body


# ---------------------------------------------------------------------------
# Cassettes
# ---------------------------------------------------------------------------

# ---------------------------------------------------------------------------
# MET Norway (Locationforecast 2.0 compact)
# ---------------------------------------------------------------------------

MET_SUN_VARYING = ("clearsky", "fair", "partlycloudy")


def met_symbol(rate, kind, temp, cloud, vis, day):
    """The symbol code of one period, from its heaviest hour."""
    if rate > 0:
        if kind == "tstorm":
            base = "rainshowersandthunder"
        elif is_snow(kind, temp):
            base = "lightsnow" if rate < 1.0 else "snow" if rate < 2.5 else "heavysnow"
        elif kind == "mixed":
            base = "lightsleet" if rate < 1.0 else "sleet"
        elif kind == "shower":
            base = "lightrainshowers" if rate < 1.5 else "rainshowers" if rate < 6.0 else "heavyrainshowers"
        else:
            base = "lightrain" if rate < 1.0 else "rain" if rate < 4.0 else "heavyrain"
    elif vis < 1000:
        base = "fog"
    else:
        base = "clearsky" if cloud < 15 else "fair" if cloud < 45 else "partlycloudy" if cloud < 80 else "cloudy"
    varies = base in MET_SUN_VARYING or "showers" in base
    return base + ("_day" if day else "_night") if varies else base


def met_times():
    times = [RECORDED_UNIX + 3600 * i for i in range(MET_HOURLY_STEPS)]
    t = times[-1] + 3 * 3600        # 00:00Z on the 1st: the 6-hourly steps keep to 00, 06, 12, 18 UTC
    while t <= MET_LAST:
        times.append(t)
        t += 6 * 3600
    return times


def met_body(place, truth, view, rng):
    def utc_text(t):
        return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))

    series = []
    times = met_times()
    for i, t in enumerate(times):
        k = truth.k_of(t)
        details = {
            "air_pressure_at_sea_level": om_num(view.p[k], 1),
            "air_temperature": om_num(view.T[k], 1),
            "cloud_area_fraction": om_num(view.cloud[k], 1),
            "relative_humidity": om_num(view.rh[k], 1),
            "wind_from_direction": om_num(view.wd[k], 1),
            "wind_speed": om_num(view.ws[k], 1),
        }
        data = {"instant": {"details": details}}
        if t < MET_LAST:
            hours = 1 if i < MET_HOURLY_STEPS else 6
            # view.rate[k] is what fell in the hour ending at k: the period starting at t holds k+1 .. k+hours.
            rates = [view.rate[k + h] for h in range(1, hours + 1)]
            heaviest = max(range(hours), key=lambda h: rates[h])
            kh = k + 1 + heaviest
            symbol = met_symbol(rates[heaviest], view.kind[kh], view.T[kh], view.cloud[kh], view.vis[kh],
                                truth.is_day(t + 3600 * heaviest))
            data[f"next_{hours}_hours"] = {"summary": {"symbol_code": symbol},
                                           "details": {"precipitation_amount": om_num(sum(rates), 1)}}
            if hours == 1:
                six = [view.rate[k + h] for h in range(1, 7)]
                top = max(range(6), key=lambda h: six[h])
                k6 = k + 1 + top
                data["next_6_hours"] = {
                    "summary": {"symbol_code": met_symbol(six[top], view.kind[k6], view.T[k6], view.cloud[k6], view.vis[k6],
                                                          truth.is_day(t + 3600 * top))},
                    "details": {"precipitation_amount": om_num(sum(six), 1)}}
        series.append({"time": utc_text(t), "data": data})
    updated = RECORDED_UNIX - rng.randint(600, 2400)
    body = {
        "type": "Feature",
        "geometry": {"type": "Point", "coordinates": [Num(place["lon"]), Num(place["lat"]), int(float(place["elevation"]))]},
        "properties": {
            "meta": {
                "updated_at": utc_text(updated),
                "units": {"air_pressure_at_sea_level": "hPa", "air_temperature": "celsius", "cloud_area_fraction": "%",
                          "precipitation_amount": "mm", "relative_humidity": "%", "wind_from_direction": "degrees",
                          "wind_speed": "m/s"},
            },
            "timeseries": series,
        },
    }
    return dump(body), updated


def http_date(t):
    return time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(t))


def met_headers(updated):
    # The terms: do not ask again before Expires; revalidate with If-Modified-Since set to Last-Modified.
    return JSON_HEADERS + [["Date", http_date(RECORDED_UNIX)], ["Expires", http_date(RECORDED_UNIX + 1800)],
                           ["Last-Modified", http_date(updated)]]


def cassette(interactions, headers=None):
    return {
        "format": CASSETTE_FORMAT,
        "version": CASSETTE_VERSION,
        "recorded_at": RECORDED_AT,
        "interactions": [
            {"request": {"method": "GET", "url": url},
             "response": {"status": 200, "headers": headers or JSON_HEADERS, "body": body}}
            for url, body in interactions
        ],
    }


def write_cassette(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    return len(text.encode("utf-8"))


def check_open_meteo(body, slug):
    doc = json.loads(body)
    for var in ["time"] + OM_HOURLY_VARS:
        n = len(doc["hourly"][var])
        if n != OM_HOURS:
            raise SystemExit(f"{slug}: hourly.{var} has {n} entries")
    for var in ["time"] + OM_DAILY_VARS:
        n = len(doc["daily"][var])
        if n != OM_DAYS:
            raise SystemExit(f"{slug}: daily.{var} has {n} entries")
    return doc


def build(place, index):
    seed = 20261128 + 97 * index
    truth = Truth(place, random.Random(seed))
    om_view = View(truth, random.Random(seed + 1), t_bias=place["om_bias"], t_sd0=0.35, t_sd_growth=0.06,
                   rh_bias=2.0, wind_scale=1.05, p_bias=0.3, shift=0, threshold=0.05)
    owm_view = View(truth, random.Random(seed + 2), t_bias=place["owm_bias"], t_sd0=0.35, t_sd_growth=0.1,
                    rh_bias=-2.0, wind_scale=0.93, p_bias=-0.4, shift=0.5, threshold=0.15)
    owm_rng = random.Random(seed + 3)
    om_rng = random.Random(seed + 4)
    owm = [(owm_weather_url(place), owm_weather_body(place, truth, owm_view, owm_rng)),
           (owm_forecast_url(place), owm_forecast_body(place, truth, owm_view, owm_rng))]
    om = [(om_forecast_url(place), om_body(place, truth, om_view, om_rng))]
    model_views = [(name, View(truth, random.Random(seed + offset), t_bias=place["om_bias"] + bias, t_sd0=0.35, t_sd_growth=0.07,
                               rh_bias=2.0, wind_scale=scale, p_bias=0.3, shift=0, threshold=0.05,
                               spell=place.get("model_spells", {}).get(name)))
                   for name, bias, scale, offset in OM_MODELS]
    om.append((om_forecast_url(place, [m[0] for m in OM_MODELS]),
               om_models_body(place, truth, model_views, random.Random(seed + 10))))
    met_view = View(truth, random.Random(seed + 5), t_bias=place.get("met_bias", 0.0), t_sd0=0.3, t_sd_growth=0.08,
                    rh_bias=0.5, wind_scale=1.0, p_bias=0.1, shift=-0.5, threshold=0.1)
    met_text, met_updated = met_body(place, truth, met_view, random.Random(seed + 6))
    met = [(met_forecast_url(place), met_text)]
    return owm, om, (met, met_updated)


# ---------------------------------------------------------------------------
# `isobar learn Minsk --demo`: the past 30 days, as the two archives serve them
#
# Synthetic, like everything here: one seeded "truth" for Minsk from late October to the
# recording (a daily mean falling from about 7 °C to about -1 °C, a diurnal cycle, synoptic
# swings), then
# * Open-Meteo's Previous Runs API: what each of the demo's three models forecast for every
#   hour 1 to 7 days ahead (temperature_2m_previous_dayN_<model>), each model with its own bias
#   (OM_MODELS) and an AR(1) error whose spread grows with the lead; hours after the recording
#   are null, as runs not yet made;
# * the IEM ASOS archive (asos.py, format=onlycomma): the routine reports of the station nearest Minsk
#   reports every half hour, whole degrees Celsius given in Fahrenheit as METAR reports are,
#   now and then missing (M); the end day is exclusive, as the service's is.
# ---------------------------------------------------------------------------

PREVIOUS_RUNS_HOST = "https://previous-runs-api.open-meteo.com"
IEM_HOST = "https://mesonet.agron.iastate.edu"
LEARN_DAYS = 30                     # isobar learn's default --days
LEARN_STATION = "UMLI"             # the station nearest Minsk in the bundled list (Machulishchy airport)
# Each model's error spread at a lead of one day, °C, and how much it grows per further day.
LEARN_MODEL_ERRORS = {"ecmwf_ifs025": (0.7, 0.18), "gfs_seamless": (1.1, 0.25), "icon_seamless": (0.9, 0.22)}


def learn_truth(t_utc, rng_terms):
    """Minsk's synthetic temperature (°C) at a UTC instant before the recording."""
    days_before = (RECORDED_UNIX - t_utc) / 86400.0
    mean = -0.8 + 0.26 * days_before                       # the season cooling into late November
    local_hour = ((t_utc + 10800) % 86400) / 3600.0
    daily = 1.8 * math.cos(2 * math.pi * (local_hour - 14.5) / 24.0)
    synoptic = sum(a * math.sin(2 * math.pi * days_before / period + phase) for a, period, phase in rng_terms)
    return mean + daily + synoptic


def learn_terms(rng):
    return [(rng.uniform(1.2, 2.6), rng.uniform(3.0, 9.0), rng.uniform(0, 2 * math.pi)) for _ in range(4)]


def previous_runs_url(p, models):
    hourly = ",".join(f"temperature_2m_previous_day{n}" for n in range(1, 8))
    return (f"{PREVIOUS_RUNS_HOST}/v1/forecast?latitude={p['lat']}&longitude={p['lon_rounded']}&hourly={hourly}"
            f"&past_days={LEARN_DAYS}&forecast_days=1&timezone=GMT&models={','.join(models)}")


def previous_runs_body(p, terms, rng):
    first = DATE0_UTC - LEARN_DAYS * 86400
    times = [first + 3600 * i for i in range((LEARN_DAYS + 1) * 24)]
    units = {"time": "iso8601"}
    hourly = {"time": [time.strftime("%Y-%m-%dT%H:%M", time.gmtime(t)) for t in times]}
    for name, bias, _, _ in OM_MODELS:
        sd1, growth = LEARN_MODEL_ERRORS[name]
        for day in range(1, 8):
            sd = sd1 + growth * (day - 1)
            error, values = 0.0, []
            for t in times:
                # AR(1): errors persist for most of a day, as a run's do.
                error = 0.9 * error + math.sqrt(1 - 0.81) * rng.gauss(0.0, sd)
                values.append(om_num(learn_truth(t, terms) + bias + error, 1) if t <= RECORDED_UNIX else None)
            key = f"temperature_2m_previous_day{day}_{name}"
            units[key] = "°C"
            hourly[key] = values
    body = {"latitude": Num(p["om_lat"]), "longitude": Num(p["om_lon"]), "generationtime_ms": Num("2.71"),
            "utc_offset_seconds": 0, "timezone": "GMT", "timezone_abbreviation": "GMT", "elevation": Num(p["elevation"]),
            "hourly_units": units, "hourly": hourly}
    return dump(body)


def archive_url(start, end):
    (y1, m1, d1), (y2, m2, d2) = (time.gmtime(start)[:3], time.gmtime(end)[:3])
    return (f"{IEM_HOST}/cgi-bin/request/asos.py?station={LEARN_STATION}&data=tmpf&year1={y1}&month1={m1}&day1={d1}"
            f"&year2={y2}&month2={m2}&day2={d2}&tz=Etc/UTC&format=onlycomma&latlon=no&missing=M&direct=no&report_type=3")


def archive_body(start_day, end_day, terms, rng):
    lines = ["station,valid,tmpf"]
    for t in range(start_day, end_day, 1800):
        if rng.random() < 0.01:
            reading = "M"
        else:
            celsius = round(learn_truth(t, terms) + rng.gauss(0.0, 0.3))
            reading = f"{celsius * 9 / 5 + 32:.2f}"
        lines.append(f"{LEARN_STATION},{time.strftime('%Y-%m-%d %H:%M', time.gmtime(t))},{reading}")
    return "\n".join(lines) + "\n"


def build_learn(place):
    """The two recordings `isobar learn Minsk --demo` replays: (previous runs, archive)."""
    p = dict(place, lon_rounded=place["lon"])
    terms = learn_terms(random.Random(20261029))
    models = [m[0] for m in OM_MODELS]
    runs = [(previous_runs_url(p, models), previous_runs_body(p, terms, random.Random(20261030)))]
    # learn asks from 37 days before the recording (30 days and the 7 of the longest lead) to the recording's day.
    start = RECORDED_UNIX - (LEARN_DAYS + 7) * 86400
    start_day, end_day = start - start % 86400, RECORDED_UNIX - RECORDED_UNIX % 86400
    archive = [(archive_url(start, RECORDED_UNIX), archive_body(start_day, end_day, terms, random.Random(20261031)))]
    return runs, archive


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description="Compose Isobar's bundled demo cassettes.")
    parser.add_argument("--out", default=os.path.join(here, os.pardir, "config", "cassettes"),
                        help="output directory (default: config/cassettes)")
    args = parser.parse_args(argv)
    out = os.path.normpath(args.out)

    print(f"{'file':<34} {'bytes':>7} {'body':>7}  current")
    for index, place in enumerate(PLACES):
        owm, om, (met, met_updated) = build(place, index)
        weather = json.loads(owm[0][1])
        forecast = json.loads(owm[1][1])
        if forecast["cnt"] != OWM_SLOTS or len(forecast["list"]) != OWM_SLOTS:
            raise SystemExit(f"{place['slug']}: forecast has {len(forecast['list'])} items")
        om_doc = check_open_meteo(om[0][1], place["slug"])

        slug = place["slug"]
        path = os.path.join(out, "openweathermap", slug + ".json")
        size = write_cassette(path, cassette(owm))
        body_size = sum(len(b.encode("utf-8")) for _, b in owm)
        print(f"{'openweathermap/' + slug + '.json':<34} {size:>7} {body_size:>7}  "
              f"{weather['main']['temp']} °C, {weather['weather'][0]['description']}")
        path = os.path.join(out, "open-meteo", slug + ".json")
        size = write_cassette(path, cassette(om))
        body_size = len(om[0][1].encode("utf-8"))
        cur = om_doc["current"]
        print(f"{'open-meteo/' + slug + '.json':<34} {size:>7} {body_size:>7}  "
              f"{cur['temperature_2m']} °C, wmo {cur['weather_code']}")
        path = os.path.join(out, "met-norway", slug + ".json")
        size = write_cassette(path, cassette(met, met_headers(met_updated)))
        first = json.loads(met[0][1])["properties"]["timeseries"][0]["data"]
        print(f"{'met-norway/' + slug + '.json':<34} {size:>7} {len(met[0][1].encode('utf-8')):>7}  "
              f"{first['instant']['details']['air_temperature']} °C, {first['next_1_hours']['summary']['symbol_code']}")
        path = os.path.join(out, "openweathermap-alerts", slug + ".json")
        body = owm_alerts_body(place)
        size = write_cassette(path, cassette([(owm_alerts_url(place), body)]))
        print(f"{'openweathermap-alerts/' + slug + '.json':<34} {size:>7} {len(body.encode('utf-8')):>7}  "
              f"{len(OWM_ALERTS.get(slug, []))} alerts")
        if place["slug"] == "minsk":
            runs, archive = build_learn(place)
            path = os.path.join(out, "open-meteo", "minsk-previous-runs.json")
            size = write_cassette(path, cassette(runs))
            print(f"{'open-meteo/minsk-previous-runs.json':<34} {size:>7} {len(runs[0][1].encode('utf-8')):>7}  "
                  f"{LEARN_DAYS} days of previous runs, {len(OM_MODELS)} models")
            path = os.path.join(out, "metar", "minsk-archive.json")
            size = write_cassette(path, cassette(archive, [["Content-Type", "text/plain; charset=utf-8"]]))
            print(f"{'metar/minsk-archive.json':<34} {size:>7} {len(archive[0][1].encode('utf-8')):>7}  "
                  f"{archive[0][1].count(chr(10)) - 1} {LEARN_STATION} reports")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
